//! The network's inner loops compiled for AVX2, chosen at run time: a plain build runs
//! on any x86-64 and still uses 256-bit vectors (and POPCNT, BMI) where the processor
//! has them. The arithmetic is the portable one's, so every value is the same.
//!
//! The crate's one module that allows `unsafe`: running an instruction the processor
//! lacks is undefined behaviour, so an [`Avx2`] is made only where the processor was seen
//! to have every feature [`Avx2::detect`] asks for, and each call into
//! code compiled for them goes through one.

#![allow(unsafe_code)]

use super::{Accumulator, DenseLayer, Nnue, PAIRS, SECOND};
use crate::rules::Position;
use std::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_set1_epi32,
    _mm256_setzero_si256, _mm256_storeu_si256,
};
use wide::i16x16;

/// Proof that the processor runs AVX2, POPCNT, BMI1, BMI2 and LZCNT: made only by
/// [`Avx2::detect`], after asking the processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Avx2(());

impl Avx2 {
    /// The proof, where the processor has the features.
    pub(super) fn detect() -> Option<Avx2> {
        let all = is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt");
        all.then_some(Avx2(()))
    }

    /// [`Nnue::update`] compiled for AVX2.
    #[inline]
    pub(super) fn update(
        self,
        net: &Nnue,
        parent_acc: &Accumulator,
        parent: &Position,
        child: &Position,
    ) -> Accumulator {
        // SAFETY: `self` exists only where `detect` saw every feature `update` is
        // compiled for.
        unsafe { update(net, parent_acc, parent, child) }
    }

    /// [`Nnue::evaluate`] compiled for AVX2.
    #[inline]
    pub(super) fn evaluate(self, net: &Nnue, acc: &Accumulator, pos: &Position) -> i32 {
        // SAFETY: as in `update`.
        unsafe { evaluate(self, net, acc, pos) }
    }
}

/// The accumulator update, the portable arithmetic inlined here and vectorized for AVX2.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn update(
    net: &Nnue,
    parent_acc: &Accumulator,
    parent: &Position,
    child: &Position,
) -> Accumulator {
    net.update_body(parent_acc, parent, child)
}

/// The evaluation, the portable arithmetic inlined here, its dense layer by [`Avx2`]'s
/// [`DenseLayer`].
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn evaluate(avx2: Avx2, net: &Nnue, acc: &Accumulator, pos: &Position) -> i32 {
    net.evaluate_body(acc, pos, avx2)
}

impl DenseLayer for Avx2 {
    /// Each pair's two inputs times its two columns, summed into 32-bit lanes by
    /// `vpmaddwd`, as [`wide`]'s `dot` does on two 128-bit halves.
    #[inline(always)]
    fn sums(
        self,
        columns: &[[i16x16; SECOND / 8]],
        words: &[u32; PAIRS],
        live: &[u8],
    ) -> [i32; SECOND] {
        // SAFETY: `self` proves AVX2 (see `detect`); the loads and stores read and write
        // whole `i16x16` and `[i32; 8]` values, 32 bytes each, through references.
        unsafe {
            let mut sums = [_mm256_setzero_si256(); SECOND / 8];
            for &pair in live {
                let both = _mm256_set1_epi32(words[usize::from(pair)] as i32);
                for (sum, weights) in sums.iter_mut().zip(&columns[usize::from(pair)]) {
                    let weights = _mm256_loadu_si256(std::ptr::from_ref(weights).cast::<__m256i>());
                    *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(weights, both));
                }
            }
            let mut out = [[0i32; 8]; SECOND / 8];
            for (o, sum) in out.iter_mut().zip(sums) {
                _mm256_storeu_si256(std::ptr::from_mut(o).cast::<__m256i>(), sum);
            }
            bytemuck::cast(out)
        }
    }
}
