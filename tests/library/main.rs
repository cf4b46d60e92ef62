//! Tests of the library through its public API, as another program would use it: the
//! rules, notation, FEN, perft and PDN. (What needs the crate's insides is tested
//! beside it, in the crate's own unit tests.)
#![allow(clippy::unwrap_used)]

mod fen;
mod notation;
mod pdn;
mod perft;
mod properties;
mod rules;
