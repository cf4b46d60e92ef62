//! The `checkers-lab` binary (with the `lab` feature): the engine's workshop, all of it in
//! [`checkers::lab::main`].

fn main() -> std::process::ExitCode {
    checkers::lab::main()
}
