//! The network evaluation (NNUE-style): a small neural network over the pieces, whose
//! first layer is kept as an accumulator that the search updates move by move.
//!
//! The shape:
//!
//! - inputs: [`INPUTS`] = 128 piece-on-square features per perspective (own men, own
//!   kings, enemy men, enemy kings on the 32 squares, the board turned for White so
//!   that each side sees itself moving up the board as Black does);
//! - first layer: [`HIDDEN`] neurons per perspective, the same weights for both; its
//!   sums are the [`Accumulator`], changed only by the pieces a move moves, takes or
//!   crowns;
//! - the side to move's half then the other side's, clipped to 0..1 (2 x [`HIDDEN`]
//!   values), into a dense layer of [`SECOND`] neurons, clipped again, into one output:
//!   the value for the side to move, in men (so a man is about 1, as the pattern table
//!   and the search's margins expect hundredths of a man);
//! - the dense layer and the output come in [`BUCKETS`] sets, one for each stage of
//!   the game ([`bucket`]: by the pieces left and whether there is a king), so that an
//!   ending is not valued with the opening's weights; the accumulator is shared, so
//!   the choice costs nothing in the search.
//!
//! Integer weights (quantised as NNUE does): the first layer and the clipped values are
//! in 127ths ([`ACTIVATION_SCALE`]), the second layer's weights in 64ths
//! ([`WEIGHT_SCALE`]). The inner loops run on vectors of sixteen `i16` ([`wide`]'s,
//! safe, on the instructions the build targets: SSE2 at least on x86-64), the dense
//! layer as `pmaddwd`, pairs of products summed into `i32` lanes, which the compiler does
//! not find in a plain loop of products. About two thirds of the clipped values are 0,
//! so the dense layer goes by its inputs, pair by pair, and skips the pairs that are
//! both 0: each pair adds its two columns of weights to all [`SECOND`] sums at once.
//!
//! On a processor with AVX2 the same arithmetic runs compiled for it, chosen at run
//! time ([`avx2`]): a plain build runs on any x86-64 and values every position the same.

#[cfg(target_arch = "x86_64")]
mod avx2;

use crate::rules::{Color, Position, Role};
use std::fmt;
use std::sync::OnceLock;
use wide::{i16x16, i32x8};

/// Piece-on-square inputs of one perspective: four kinds of piece on 32 squares.
pub(crate) const INPUTS: usize = 128;
/// First-layer neurons per perspective.
pub(crate) const HIDDEN: usize = 128;
/// Second-layer neurons.
pub(crate) const SECOND: usize = 32;
/// Sets of dense-layer and output weights, one per stage of the game ([`bucket`]).
pub(crate) const BUCKETS: usize = 4;
/// The first layer's sums and the clipped values are in units of 1/127.
pub(crate) const ACTIVATION_SCALE: i32 = 127;
/// The second layer's and the output's weights are in units of 1/64.
pub(crate) const WEIGHT_SCALE: i32 = 64;
/// The largest second-layer weight that quantises into the `i16` range used (in
/// units of one): training keeps the weights within it.
#[cfg(feature = "lab")]
pub(crate) const MAX_SECOND_WEIGHT: f32 = 127.0 / WEIGHT_SCALE as f32;
/// The largest first-layer weight training allows (so that 24 pieces and the bias stay
/// within `i16` at 127ths).
#[cfg(feature = "lab")]
pub(crate) const MAX_FIRST_WEIGHT: f32 = 8.0;

/// The file of a network with [`BUCKETS`] sets of dense weights.
const MAGIC: &[u8; 8] = b"CKNET02\n";
/// The file of a network of the first shape, one set of dense weights (read as that set
/// in every bucket).
const MAGIC_ONE_SET: &[u8; 8] = b"CKNET01\n";

/// The network the program ships with, made by `checkers-lab train --model net`.
static EMBEDDED: &[u8] = include_bytes!("net.bin");

/// The stage of the game whose dense weights value `pos`: 0 with 6 pieces or fewer on
/// the board, 1 with 7 to 10, then 2 with a king on the board and 3 without.
#[inline]
pub(crate) fn bucket(pos: &Position) -> usize {
    match pos.occupied().count() {
        0..=6 => 0,
        7..=10 => 1,
        _ if pos.kings().0 != 0 => 2,
        _ => 3,
    }
}

/// The input of a piece of `color` and `role` on square index `sq` (0-31), seen from
/// `perspective`.
#[inline]
pub(crate) fn feature(perspective: Color, color: Color, role: Role, sq: usize) -> usize {
    let own = color == perspective;
    let plane = match (own, role) {
        (true, Role::Man) => 0,
        (true, Role::King) => 1,
        (false, Role::Man) => 2,
        (false, Role::King) => 3,
    };
    let sq = match perspective {
        Color::Black => sq,
        Color::White => 31 - sq,
    };
    plane * 32 + sq
}

/// Calls `add` with every active input of `pos` seen from `perspective`.
#[inline]
pub(crate) fn for_each_input(pos: &Position, perspective: Color, mut add: impl FnMut(usize)) {
    for color in [Color::Black, Color::White] {
        for role in [Role::Man, Role::King] {
            let mut bits = pos.pieces(color, role).0;
            while bits != 0 {
                let sq = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                add(feature(perspective, color, role, sq));
            }
        }
    }
}

/// Values in one vector.
const LANES: usize = 16;
/// Vectors in one perspective's first-layer sums.
const HALF: usize = HIDDEN / LANES;

/// One perspective's first-layer sums (or a row of first-layer weights), as vectors.
type Half = [i16x16; HALF];

/// The first layer's sums for both perspectives (Black's, then White's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Accumulator {
    sums: [Half; 2],
}

/// `values` as vectors.
fn half(values: &[i16]) -> Half {
    let mut out = [i16x16::ZERO; HALF];
    for (v, chunk) in out.iter_mut().zip(values.chunks_exact(LANES)) {
        let mut lanes = [0i16; LANES];
        lanes.copy_from_slice(chunk);
        *v = i16x16::new(lanes);
    }
    out
}

fn perspective_index(color: Color) -> usize {
    usize::from(color == Color::White)
}

/// A network's integer weights, as its file stores them. Each bucketed layer holds
/// its [`BUCKETS`] sets one after another, bucket 0 first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct NetworkWeights {
    /// First-layer biases, [`HIDDEN`], in 127ths.
    pub(crate) first_bias: Vec<i16>,
    /// First-layer weights by input, [`HIDDEN`] each, in 127ths.
    pub(crate) first: Vec<i16>,
    /// Second-layer biases, [`SECOND`] a bucket, in 127ths times 64ths.
    pub(crate) second_bias: Vec<i32>,
    /// Second-layer weights by neuron, 2 x [`HIDDEN`] each (the side to move's half
    /// first), [`SECOND`] neurons a bucket, in 64ths.
    pub(crate) second: Vec<i16>,
    /// Output weights, [`SECOND`] a bucket, in 64ths.
    pub(crate) output: Vec<i32>,
    /// Output biases, one a bucket, in 127ths times 64ths.
    pub(crate) output_bias: Vec<i32>,
}

impl NetworkWeights {
    /// The weights padded with 0 (or cut) to the network's shape.
    fn sized(mut self) -> NetworkWeights {
        self.first_bias.resize(HIDDEN, 0);
        self.first.resize(INPUTS * HIDDEN, 0);
        self.second_bias.resize(BUCKETS * SECOND, 0);
        self.second.resize(BUCKETS * SECOND * 2 * HIDDEN, 0);
        self.output.resize(BUCKETS * SECOND, 0);
        self.output_bias.resize(BUCKETS, 0);
        self
    }
}

/// A network with integer weights (made by [`Nnue::new`] or read from its file).
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Nnue {
    weights: NetworkWeights,
    /// The first two layers' weights again, as vectors, for the search.
    vectors: Vectors,
    /// The processor's AVX2, where it has it: the inner loops then run compiled for it.
    #[cfg(target_arch = "x86_64")]
    avx2: Option<avx2::Avx2>,
}

/// The weights the inner loops read, as vectors.
#[derive(Clone, PartialEq, Eq)]
struct Vectors {
    first_bias: Half,
    /// By input.
    first: Vec<Half>,
    /// By bucket, then pair of the dense layer's inputs (the side to move's half, then
    /// the other's): the pair's weights into each neuron, interleaved, so that vector
    /// `c`'s lanes `2i` and `2i + 1` are the weights from the pair into neuron `8c + i`.
    second: Vec<[i16x16; SECOND / 8]>,
}

/// The dense layer's inputs in pairs.
const PAIRS: usize = HIDDEN;

impl fmt::Debug for Nnue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Nnue({INPUTS}x{HIDDEN}x2-{SECOND}-1 x{BUCKETS})")
    }
}

/// Why a network file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NetworkError {
    /// It does not start as a network file of this program does.
    NotNetwork,
    /// It is shorter or longer than the network's shape needs.
    WrongSize {
        /// Bytes the file should have.
        expected: usize,
        /// Bytes it has.
        found: usize,
    },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::NotNetwork => write!(f, "not a checkers network file"),
            NetworkError::WrongSize { expected, found } => write!(
                f,
                "a network file has {expected} bytes for this shape, this one {found}"
            ),
        }
    }
}

impl std::error::Error for NetworkError {}

impl Nnue {
    /// Numbers of one bucket's dense layer and output.
    const BUCKET_NUMBERS: usize = SECOND + SECOND * 2 * HIDDEN + SECOND + 1;
    /// Numbers stored, all as little-endian `i32`, after the magic.
    const NUMBERS: usize = HIDDEN + INPUTS * HIDDEN + BUCKETS * Self::BUCKET_NUMBERS;
    /// The size of a network file.
    pub(crate) const FILE_BYTES: usize = MAGIC.len() + 4 * Self::NUMBERS;
    /// The size of a network file of the first shape (one set of dense weights).
    const ONE_SET_FILE_BYTES: usize =
        MAGIC.len() + 4 * (HIDDEN + INPUTS * HIDDEN + Self::BUCKET_NUMBERS);

    /// The embedded network (read once).
    pub(crate) fn embedded() -> &'static Nnue {
        static NETWORK: OnceLock<Nnue> = OnceLock::new();
        NETWORK.get_or_init(|| {
            // A unit test reads the same bytes, so a broken file fails the tests.
            Nnue::from_bytes(EMBEDDED).expect("the embedded network is a network file")
        })
    }

    /// Reads a network file (of either shape: a file of the first shape, with one set
    /// of dense weights, gives every bucket that set).
    pub(crate) fn from_bytes(bytes: &[u8]) -> Result<Nnue, NetworkError> {
        let (body, sets, expected) = if let Some(body) = bytes.strip_prefix(MAGIC.as_slice()) {
            (body, BUCKETS, Self::FILE_BYTES)
        } else if let Some(body) = bytes.strip_prefix(MAGIC_ONE_SET.as_slice()) {
            (body, 1, Self::ONE_SET_FILE_BYTES)
        } else {
            return Err(NetworkError::NotNetwork);
        };
        if bytes.len() != expected {
            return Err(NetworkError::WrongSize {
                expected,
                found: bytes.len(),
            });
        }
        let mut numbers = body
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let mut take = |n: usize| numbers.by_ref().take(n).collect::<Vec<i32>>();
        let small = |v: Vec<i32>| -> Vec<i16> {
            v.into_iter()
                .map(|x| x.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16)
                .collect()
        };
        let mut weights = NetworkWeights {
            first_bias: small(take(HIDDEN)),
            first: small(take(INPUTS * HIDDEN)),
            ..NetworkWeights::default()
        };
        for _ in 0..sets {
            weights.second_bias.extend(take(SECOND));
            weights.second.extend(small(take(SECOND * 2 * HIDDEN)));
            weights.output.extend(take(SECOND));
            weights.output_bias.extend(take(1));
        }
        if sets == 1 {
            let repeat = |v: &mut Vec<_>| *v = v.repeat(BUCKETS);
            repeat(&mut weights.second_bias);
            repeat(&mut weights.output);
            repeat(&mut weights.output_bias);
            weights.second = weights.second.repeat(BUCKETS);
        }
        Ok(Nnue::new(weights))
    }

    /// A network of these weights (missing weights are 0 and extra ones are ignored).
    pub(crate) fn new(weights: NetworkWeights) -> Nnue {
        let weights = weights.sized();
        let vectors = Vectors {
            first_bias: half(&weights.first_bias),
            first: weights.first.chunks_exact(HIDDEN).map(half).collect(),
            second: weights
                .second
                .chunks_exact(SECOND * 2 * HIDDEN)
                .flat_map(|set| {
                    (0..PAIRS).map(move |pair| {
                        std::array::from_fn(|c| {
                            i16x16::new(std::array::from_fn(|lane| {
                                let neuron = 8 * c + lane / 2;
                                set[neuron * 2 * HIDDEN + 2 * pair + lane % 2]
                            }))
                        })
                    })
                })
                .collect(),
        };
        Nnue {
            weights,
            vectors,
            #[cfg(target_arch = "x86_64")]
            avx2: avx2::Avx2::detect(),
        }
    }

    /// The same network with the inner loops compiled for any x86-64 only, to compare
    /// the two.
    #[cfg(test)]
    pub(crate) fn portable(&self) -> Nnue {
        Nnue {
            #[cfg(target_arch = "x86_64")]
            avx2: None,
            ..self.clone()
        }
    }

    /// Whether the inner loops run compiled for AVX2 (the processor has it).
    #[cfg(test)]
    pub(crate) fn uses_avx2(&self) -> bool {
        #[cfg(target_arch = "x86_64")]
        return self.avx2.is_some();
        #[cfg(not(target_arch = "x86_64"))]
        return false;
    }

    /// Its integer weights.
    #[cfg(feature = "lab")]
    pub(crate) fn weights(&self) -> &NetworkWeights {
        &self.weights
    }

    /// The file of this network.
    #[cfg(any(test, feature = "lab"))]
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let w = &self.weights;
        let mut out = Vec::with_capacity(Self::FILE_BYTES);
        out.extend_from_slice(MAGIC);
        let mut numbers: Vec<i32> = w
            .first_bias
            .iter()
            .chain(&w.first)
            .map(|&x| x.into())
            .collect();
        for b in 0..BUCKETS {
            numbers.extend(&w.second_bias[b * SECOND..(b + 1) * SECOND]);
            let neurons = b * SECOND * 2 * HIDDEN..(b + 1) * SECOND * 2 * HIDDEN;
            numbers.extend(w.second[neurons].iter().map(|&x| i32::from(x)));
            numbers.extend(&w.output[b * SECOND..(b + 1) * SECOND]);
            numbers.push(w.output_bias[b]);
        }
        for x in numbers {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// The accumulator of `pos`, from scratch.
    pub(crate) fn accumulate(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::default();
        for perspective in [Color::Black, Color::White] {
            let sums = &mut acc.sums[perspective_index(perspective)];
            *sums = self.vectors.first_bias;
            for_each_input(pos, perspective, |f| add_row(sums, self.row(f)));
        }
        acc
    }

    #[inline]
    fn row(&self, input: usize) -> &Half {
        &self.vectors.first[input]
    }

    /// The accumulator of `child` from that of `parent`, a move away: only the squares
    /// whose piece changed (the move's ends, the pieces taken, a crowning) are added
    /// or taken out.
    #[inline]
    pub(crate) fn update(
        &self,
        parent_acc: &Accumulator,
        parent: &Position,
        child: &Position,
    ) -> Accumulator {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = self.avx2 {
            return avx2.update(self, parent_acc, parent, child);
        }
        self.update_body(parent_acc, parent, child)
    }

    /// [`update`](Self::update)'s arithmetic, inlined into each build of it.
    #[inline(always)]
    fn update_body(
        &self,
        parent_acc: &Accumulator,
        parent: &Position,
        child: &Position,
    ) -> Accumulator {
        let mut acc = *parent_acc;
        for color in [Color::Black, Color::White] {
            for role in [Role::Man, Role::King] {
                let before = parent.pieces(color, role).0;
                let after = child.pieces(color, role).0;
                let (mut gone, mut come) = (before & !after, after & !before);
                while gone != 0 {
                    let sq = gone.trailing_zeros() as usize;
                    gone &= gone - 1;
                    for perspective in [Color::Black, Color::White] {
                        let f = feature(perspective, color, role, sq);
                        sub_row(&mut acc.sums[perspective_index(perspective)], self.row(f));
                    }
                }
                while come != 0 {
                    let sq = come.trailing_zeros() as usize;
                    come &= come - 1;
                    for perspective in [Color::Black, Color::White] {
                        let f = feature(perspective, color, role, sq);
                        add_row(&mut acc.sums[perspective_index(perspective)], self.row(f));
                    }
                }
            }
        }
        acc
    }

    /// The value for the side to move of `pos`, whose accumulator is `acc`, in
    /// hundredths of a man.
    #[inline]
    pub(crate) fn evaluate(&self, acc: &Accumulator, pos: &Position) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = self.avx2 {
            return avx2.evaluate(self, acc, pos);
        }
        self.evaluate_body(acc, pos, Portable)
    }

    /// [`evaluate`](Self::evaluate)'s arithmetic, inlined into each build of it, the
    /// dense layer's sums made by `lanes`.
    #[inline(always)]
    fn evaluate_body(&self, acc: &Accumulator, pos: &Position, lanes: impl DenseLayer) -> i32 {
        let turn = pos.turn();
        let b = bucket(pos);
        let mut clipped = [i16x16::ZERO; 2 * HALF];
        let (own, other) = clipped.split_at_mut(HALF);
        clip(own, &acc.sums[perspective_index(turn)]);
        clip(other, &acc.sums[perspective_index(!turn)]);
        // Each pair of inputs as one 32-bit word: the pairs that are not both 0.
        let words: [u32; PAIRS] = bytemuck::cast(clipped);
        let mut live = [0u8; PAIRS];
        let mut count = 0;
        for (pair, &word) in words.iter().enumerate() {
            live[count] = pair as u8;
            count += usize::from(word != 0);
        }
        let columns = &self.vectors.second[b * PAIRS..(b + 1) * PAIRS];
        let sums = lanes.sums(columns, &words, &live[..count]);
        let w = &self.weights;
        let neurons = b * SECOND..(b + 1) * SECOND;
        let mut out = i64::from(w.output_bias[b]);
        for ((&sum, &bias), &output) in sums
            .iter()
            .zip(&w.second_bias[neurons.clone()])
            .zip(&w.output[neurons])
        {
            // Back to 127ths, clipped to 0..1.
            let value = ((bias + sum) / WEIGHT_SCALE).clamp(0, ACTIVATION_SCALE);
            out += i64::from(value) * i64::from(output);
        }
        (out * 100 / i64::from(ACTIVATION_SCALE * WEIGHT_SCALE)) as i32
    }

    /// The value of `pos` for the side to move, from scratch.
    pub(crate) fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&self.accumulate(pos), pos)
    }
}

/// How the dense layer's sums are made: each live pair of inputs (`words`, by pair,
/// listed in `live`) times its columns of weights, added up by neuron.
trait DenseLayer {
    /// The [`SECOND`] neurons' sums (before their biases).
    fn sums(
        self,
        columns: &[[i16x16; SECOND / 8]],
        words: &[u32; PAIRS],
        live: &[u8],
    ) -> [i32; SECOND];
}

/// The dense layer on the vectors the build targets ([`wide`]'s).
#[derive(Clone, Copy)]
struct Portable;

impl DenseLayer for Portable {
    #[inline(always)]
    fn sums(
        self,
        columns: &[[i16x16; SECOND / 8]],
        words: &[u32; PAIRS],
        live: &[u8],
    ) -> [i32; SECOND] {
        let mut sums = [i32x8::ZERO; SECOND / 8];
        for &pair in live {
            let both: i16x16 = bytemuck::cast(i32x8::splat(words[usize::from(pair)] as i32));
            for (sum, weights) in sums.iter_mut().zip(&columns[usize::from(pair)]) {
                *sum += weights.dot(both);
            }
        }
        bytemuck::cast(sums)
    }
}

// The row and clip loops are written on plain numbers so that the compiler vectorizes
// them for whatever the function they are inlined into is compiled for (the vectors of
// `wide` are fixed when that crate is built).

/// Adds a row of first-layer weights to a perspective's sums.
#[inline(always)]
fn add_row(sums: &mut Half, row: &Half) {
    let sums: &mut [i16; HIDDEN] = bytemuck::cast_mut(sums);
    let row: &[i16; HIDDEN] = bytemuck::cast_ref(row);
    for (s, w) in sums.iter_mut().zip(row) {
        *s = s.wrapping_add(*w);
    }
}

/// Takes a row of first-layer weights from a perspective's sums.
#[inline(always)]
fn sub_row(sums: &mut Half, row: &Half) {
    let sums: &mut [i16; HIDDEN] = bytemuck::cast_mut(sums);
    let row: &[i16; HIDDEN] = bytemuck::cast_ref(row);
    for (s, w) in sums.iter_mut().zip(row) {
        *s = s.wrapping_sub(*w);
    }
}

/// A perspective's sums clipped to 0..1 (0..[`ACTIVATION_SCALE`]).
#[inline(always)]
fn clip(out: &mut [i16x16], sums: &Half) {
    let out: &mut [i16] = bytemuck::cast_slice_mut(out);
    let sums: &[i16; HIDDEN] = bytemuck::cast_ref(sums);
    for (o, s) in out.iter_mut().zip(sums) {
        *o = (*s).clamp(0, ACTIVATION_SCALE as i16);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_reads_and_round_trips() {
        let net = Nnue::from_bytes(EMBEDDED).expect("a network");
        assert_eq!(net.weights.first.len(), INPUTS * HIDDEN);
        assert_eq!(Nnue::from_bytes(&net.to_bytes()), Ok(net.clone()));
        assert_eq!(
            Nnue::from_bytes(&net.to_bytes()[..Nnue::FILE_BYTES - 4]),
            Err(NetworkError::WrongSize {
                expected: Nnue::FILE_BYTES,
                found: Nnue::FILE_BYTES - 4
            })
        );
        assert_eq!(
            Nnue::from_bytes(b"CKPAT01\n"),
            Err(NetworkError::NotNetwork)
        );
    }

    #[test]
    fn the_incremental_accumulator_equals_the_one_from_scratch() {
        // Along a game with captures, multi-captures and crownings.
        let net = Nnue::embedded();
        let mut pos: Position = "B:W14,15,22,23,K30:B5,6,9,10,27".parse().unwrap();
        let mut acc = net.accumulate(&pos);
        let mut seed = 3u64;
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = crate::engine::zobrist::splitmix64(seed);
            let child = pos.play_unchecked(&moves[seed as usize % moves.len()]);
            acc = net.update(&acc, &pos, &child);
            assert_eq!(acc, net.accumulate(&child), "after {child}");
            pos = child;
        }
    }

    /// The value of `pos` by the network's arithmetic written out one weight at a time.
    fn value_one_weight_at_a_time(net: &Nnue, pos: &Position) -> i32 {
        let net = &net.weights;
        let sums = |perspective: Color| {
            let mut sums: Vec<i32> = net.first_bias.iter().map(|&b| i32::from(b)).collect();
            for_each_input(pos, perspective, |f| {
                for (s, &w) in sums
                    .iter_mut()
                    .zip(&net.first[f * HIDDEN..(f + 1) * HIDDEN])
                {
                    *s += i32::from(w);
                }
            });
            sums
        };
        let clipped: Vec<i32> = sums(pos.turn())
            .into_iter()
            .chain(sums(!pos.turn()))
            .map(|s| s.clamp(0, ACTIVATION_SCALE))
            .collect();
        let b = bucket(pos);
        let mut out = i64::from(net.output_bias[b]);
        for j in b * SECOND..(b + 1) * SECOND {
            let weights = &net.second[j * 2 * HIDDEN..(j + 1) * 2 * HIDDEN];
            let dot: i32 = weights
                .iter()
                .zip(&clipped)
                .map(|(&w, &v)| i32::from(w) * v)
                .sum();
            let value = ((net.second_bias[j] + dot) / WEIGHT_SCALE).clamp(0, ACTIVATION_SCALE);
            out += i64::from(value) * i64::from(net.output[j]);
        }
        (out * 100 / i64::from(ACTIVATION_SCALE * WEIGHT_SCALE)) as i32
    }

    #[test]
    fn the_vector_arithmetic_gives_the_values_of_the_plain_arithmetic() {
        let net = Nnue::embedded();
        let mut pos = Position::start();
        let mut seed = 11u64;
        let mut values = Vec::new();
        for _ in 0..80 {
            let value = net.evaluate_position(&pos);
            assert_eq!(value, value_one_weight_at_a_time(net, &pos), "at {pos}");
            values.push(value);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = crate::engine::zobrist::splitmix64(seed);
            pos = pos.play_unchecked(&moves[seed as usize % moves.len()]);
        }
        // The positions were not all valued alike (the comparison compared something).
        values.sort_unstable();
        values.dedup();
        assert!(values.len() > 10, "{values:?}");
    }

    #[test]
    fn each_stage_of_the_game_is_valued_with_its_own_weights() {
        // The embedded network with bucket b's output raised by b men.
        let mut weights = Nnue::embedded().weights.clone();
        for (b, bias) in weights.output_bias.iter_mut().enumerate() {
            *bias += b as i32 * ACTIVATION_SCALE * WEIGHT_SCALE;
        }
        let raised = Nnue::new(weights);
        for (fen, stage) in [
            ("B:W27,K30:B5,9", 0),
            ("W:W21,22,23,24,K30:B1,5,9,10", 1),
            ("B:W18,21,22,23,24,25,27,28,K30:B1,2,3,5,6,9,10", 2),
            ("B:W18,21,22,23,24,25,27,28:B1,2,3,5,6,9,10,12", 3),
        ] {
            let pos: Position = fen.parse().unwrap();
            assert_eq!(bucket(&pos), stage, "{fen}");
            assert_eq!(
                raised.evaluate_position(&pos),
                Nnue::embedded().evaluate_position(&pos) + 100 * stage as i32,
                "{fen}"
            );
            assert_eq!(
                raised.evaluate_position(&pos),
                value_one_weight_at_a_time(&raised, &pos),
                "{fen}"
            );
        }
    }

    #[test]
    fn a_file_of_the_first_shape_gives_every_bucket_its_one_set() {
        let net = Nnue::embedded();
        let bytes = net.to_bytes();
        let shared = 4 * (HIDDEN + INPUTS * HIDDEN);
        let set = 4 * Nnue::BUCKET_NUMBERS;
        let mut old = MAGIC_ONE_SET.to_vec();
        // The shared first layer and bucket 1's set.
        old.extend_from_slice(&bytes[MAGIC.len()..MAGIC.len() + shared]);
        let first_set = MAGIC.len() + shared + set;
        old.extend_from_slice(&bytes[first_set..first_set + set]);
        let read = Nnue::from_bytes(&old).expect("a network of the first shape");
        let w = &read.weights;
        for b in 0..BUCKETS {
            assert_eq!(w.output_bias[b], net.weights.output_bias[1]);
            assert_eq!(
                w.second[b * SECOND * 2 * HIDDEN..(b + 1) * SECOND * 2 * HIDDEN],
                net.weights.second[SECOND * 2 * HIDDEN..2 * SECOND * 2 * HIDDEN]
            );
        }
        assert_eq!(
            Nnue::from_bytes(&old[..old.len() - 1]),
            Err(NetworkError::WrongSize {
                expected: old.len(),
                found: old.len() - 1
            })
        );
    }

    #[test]
    fn a_mirrored_position_has_the_same_value() {
        let net = Nnue::embedded();
        let pos: Position = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"
            .parse()
            .unwrap();
        let mirrored = pos.mirrored();
        assert_eq!(
            net.evaluate_position(&pos),
            net.evaluate_position(&mirrored)
        );
    }
}
