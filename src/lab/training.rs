//! Training the learned evaluation: logistic regression of game results (and search
//! scores) on the pattern features, by Adam over mini-batches.
//!
//! A sample is a quiet position, the result of its game for the side to move, and
//! optionally a search score. The target is `lambda * result + (1 - lambda) *
//! sigmoid(score / K)` (the result alone when there is no score), and the weights
//! minimise the squared error of `sigmoid(eval / K)`, where `K` is fitted first so that
//! the scores already given predict the results best: so the learned values stay in
//! hundredths of a man, as the search's margins and thresholds expect.

use crate::engine::evaluate;
use crate::engine::learned::{FEATURES, Features, PATTERN_FEATURES, Weights, material_weights};
use crate::engine::splitmix64;
use crate::rules::{Color, Position};
use std::fmt;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Sample {
    /// A quiet position.
    pub(crate) position: Position,
    /// Its game's result for the side to move: 1 won, 0.5 drawn, 0 lost.
    pub(crate) result: f32,
    /// A search score for the side to move, in hundredths of a man, if one was made.
    pub(crate) score: Option<i32>,
}

/// Why a line of a training data file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SampleError(pub String);

impl fmt::Display for SampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SampleError {}

/// The result text of a sample line for the game's `winner`.
pub(crate) fn result_text(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::Black) => "1-0",
        Some(Color::White) => "0-1",
        None => "1/2-1/2",
    }
}

impl Sample {
    /// A data file's line: `FEN<tab>score<tab>result`, the score for the side to move
    /// (`-` when none) and the result as in PDN (`1-0` Black won).
    pub(crate) fn to_line(self) -> String {
        let score = self.score.map_or("-".to_string(), |s| s.to_string());
        let winner = if self.result == 0.5 {
            None
        } else if (self.result == 1.0) == (self.position.turn() == Color::Black) {
            Some(Color::Black)
        } else {
            Some(Color::White)
        };
        format!("{}\t{score}\t{}", self.position, result_text(winner))
    }

    /// Reads a data file's line (see [`to_line`](Sample::to_line)).
    pub(crate) fn from_line(line: &str) -> Result<Sample, SampleError> {
        let mut fields = line.split('\t');
        let (Some(fen), Some(score), Some(result), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(SampleError(
                "expected three fields separated by tabs: FEN, score, result".into(),
            ));
        };
        let position: Position = fen.parse().map_err(|e| {
            SampleError(format!("the FEN {fen:?}: {}", crate::text::error_chain(&e)))
        })?;
        let score = match score {
            "-" => None,
            s => Some(
                s.parse::<i32>()
                    .map_err(|_| SampleError(format!("the score {s:?} is not a whole number")))?,
            ),
        };
        let black_result = match result {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            r => {
                return Err(SampleError(format!(
                    "the result {r:?} is not 1-0, 0-1 or 1/2-1/2"
                )));
            }
        };
        let result = if position.turn() == Color::Black {
            black_result
        } else {
            1.0 - black_result
        };
        Ok(Sample {
            position,
            result,
            score,
        })
    }
}

/// How to train.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TrainOptions {
    /// Passes over the data.
    pub(crate) epochs: u32,
    /// The result's share of the target (the search score has the rest).
    pub(crate) lambda: f32,
    /// Adam's step size at the start, in hundredths of a man (it falls to a tenth).
    pub(crate) learning_rate: f32,
    /// Samples per step.
    pub(crate) batch: usize,
    /// L2 penalty on the region weights.
    pub(crate) l2: f32,
    /// One sample in this many is held out to measure the fit.
    pub(crate) validation_every: u64,
    /// Seed of the shuffling.
    pub(crate) seed: u64,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            epochs: 30,
            lambda: 0.5,
            learning_rate: 2.0,
            batch: 4096,
            l2: 1e-4,
            validation_every: 20,
            seed: 1,
        }
    }
}

/// One pass over the data, as reported while training.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct EpochReport {
    /// From 1.
    pub(crate) epoch: u32,
    /// Mean squared error on the training samples (before the pass's last steps).
    pub(crate) train_loss: f64,
    /// Mean squared error on the held-out samples after the pass.
    pub(crate) validation_loss: f64,
}

/// What training found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TrainReport {
    /// The fitted `K`: a score of `K` hundredths of a man means a 73 % expectation.
    pub(crate) scale: f32,
    /// Samples trained on.
    pub(crate) train_samples: usize,
    /// Samples held out.
    pub(crate) validation_samples: usize,
    /// The hand-written evaluation's error on the held-out samples.
    pub(crate) hand_loss: f64,
    /// The learned evaluation's error on them, after training.
    pub(crate) learned_loss: f64,
}

/// The logistic function: a score over its scale as an expected result.
pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Features of every sample, flattened.
struct Compiled {
    indices: Vec<u32>,
    starts: Vec<u32>,
    shares: Vec<f32>,
    targets: Vec<f32>,
}

impl Compiled {
    fn new(samples: &[&Sample], scale: f32, lambda: f32) -> Compiled {
        let mut c = Compiled {
            indices: Vec::with_capacity(samples.len() * 30),
            starts: Vec::with_capacity(samples.len() + 1),
            shares: Vec::with_capacity(samples.len()),
            targets: Vec::with_capacity(samples.len()),
        };
        for s in samples {
            let f = Features::of(&s.position);
            c.starts.push(c.indices.len() as u32);
            c.indices.extend_from_slice(&f.active);
            c.shares.push(f.opening_share());
            c.targets.push(target(s, scale, lambda));
        }
        c.starts.push(c.indices.len() as u32);
        c
    }

    fn len(&self) -> usize {
        self.targets.len()
    }

    fn features(&self, i: usize) -> &[u32] {
        &self.indices[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    fn eval(&self, i: usize, opening: &[f32], ending: &[f32]) -> f32 {
        let (mut o, mut e) = (0.0, 0.0);
        for &f in self.features(i) {
            o += opening[f as usize];
            e += ending[f as usize];
        }
        let share = self.shares[i];
        o * share + e * (1.0 - share)
    }

    fn loss(&self, opening: &[f32], ending: &[f32], scale: f32) -> f64 {
        if self.len() == 0 {
            return 0.0;
        }
        let total: f64 = (0..self.len())
            .map(|i| {
                let p = sigmoid(self.eval(i, opening, ending) / scale);
                f64::from((p - self.targets[i]).powi(2))
            })
            .sum();
        total / self.len() as f64
    }
}

/// The training target of `s`: its result, blended with its search score's
/// expectation by `lambda` where it has one.
pub(crate) fn target(s: &Sample, scale: f32, lambda: f32) -> f32 {
    match s.score {
        Some(score) => lambda * s.result + (1.0 - lambda) * sigmoid(score as f32 / scale),
        None => s.result,
    }
}

/// The `K` by which scores best predict results: the search score where a sample has
/// one, the hand-written evaluation otherwise.
pub(crate) fn fit_scale(samples: &[Sample]) -> f32 {
    let scores: Vec<(f32, f32)> = samples
        .iter()
        .map(|s| {
            let score = s.score.unwrap_or_else(|| evaluate(&s.position));
            (score.clamp(-2_000, 2_000) as f32, s.result)
        })
        .collect();
    let error = |k: f32| -> f64 {
        scores
            .iter()
            .map(|&(x, r)| f64::from((sigmoid(x / k) - r).powi(2)))
            .sum()
    };
    // The error is smooth in K: a coarse scan, then a finer one round the best.
    let best_of = |candidates: &mut dyn Iterator<Item = f32>| {
        candidates
            .map(|k| (k, error(k)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(100.0, |(k, _)| k)
    };
    let coarse = best_of(&mut (2..=60).map(|i| i as f32 * 10.0));
    best_of(&mut (-10..=10).map(|i| coarse + i as f32))
}

/// Whether sample `i` is held out: whole runs of 64 consecutive samples (neighbours in
/// one game) go together, so that the held-out loss measures positions not trained on.
fn held_out(i: usize, options: &TrainOptions) -> bool {
    held_out_sample(i, options.seed, options.validation_every)
}

/// Whether sample `i` is held out with `seed`, one run of 64 in `every` (never with 0).
pub(crate) fn held_out_sample(i: usize, seed: u64, every: u64) -> bool {
    every > 0 && splitmix64(seed ^ (i as u64 / 64)).is_multiple_of(every)
}

/// Trains weights on `samples`, calling `progress` after each pass.
pub(crate) fn train(
    samples: &[Sample],
    options: &TrainOptions,
    mut progress: impl FnMut(&EpochReport),
) -> (Weights, TrainReport) {
    let scale = fit_scale(samples);
    let (mut training, mut validation) = (Vec::new(), Vec::new());
    for (i, s) in samples.iter().enumerate() {
        if held_out(i, options) {
            validation.push(s);
        } else {
            training.push(s);
        }
    }
    let train_set = Compiled::new(&training, scale, options.lambda);
    let valid_set = Compiled::new(&validation, scale, options.lambda);
    let hand_loss = if validation.is_empty() {
        0.0
    } else {
        validation
            .iter()
            .map(|s| {
                let p = sigmoid(evaluate(&s.position) as f32 / scale);
                f64::from((p - target(s, scale, options.lambda)).powi(2))
            })
            .sum::<f64>()
            / validation.len() as f64
    };

    let mut opening = material_weights();
    let mut ending = material_weights();
    let mut adam = [Adam::new(FEATURES), Adam::new(FEATURES)];
    let mut order: Vec<usize> = (0..train_set.len()).collect();
    let mut rng = options.seed;
    let batch = options.batch.max(1);
    let mut grad = [vec![0.0f32; FEATURES], vec![0.0f32; FEATURES]];
    for epoch in 1..=options.epochs {
        for i in (1..order.len()).rev() {
            rng = splitmix64(rng);
            order.swap(i, (rng % (i as u64 + 1)) as usize);
        }
        let progress_share = (epoch - 1) as f32 / options.epochs.max(1) as f32;
        let rate = options.learning_rate * (1.0 - 0.9 * progress_share);
        let mut train_loss = 0.0f64;
        for chunk in order.chunks(batch) {
            for g in grad.iter_mut() {
                g.fill(0.0);
            }
            for &i in chunk {
                let e = train_set.eval(i, &opening, &ending);
                let p = sigmoid(e / scale);
                let error = p - train_set.targets[i];
                train_loss += f64::from(error * error);
                let d = 2.0 * error * p * (1.0 - p) / scale / chunk.len() as f32;
                let share = train_set.shares[i];
                for &f in train_set.features(i) {
                    grad[0][f as usize] += d * share;
                    grad[1][f as usize] += d * (1.0 - share);
                }
            }
            for (g, w) in grad.iter_mut().zip([&opening, &ending]) {
                for f in 0..PATTERN_FEATURES {
                    g[f] += options.l2 * w[f];
                }
            }
            adam[0].step(&mut opening, &grad[0], rate);
            adam[1].step(&mut ending, &grad[1], rate);
        }
        progress(&EpochReport {
            epoch,
            train_loss: train_loss / train_set.len().max(1) as f64,
            validation_loss: valid_set.loss(&opening, &ending, scale),
        });
    }
    let learned_loss = valid_set.loss(&opening, &ending, scale);
    (
        Weights::from_floats(&opening, &ending),
        TrainReport {
            scale,
            train_samples: train_set.len(),
            validation_samples: valid_set.len(),
            hand_loss,
            learned_loss,
        },
    )
}

/// Adam's running moments for one weight vector (the pattern table's and the
/// network's training both step by it).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;

    /// Moments of zero for `len` weights.
    pub(crate) fn new(len: usize) -> Adam {
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
            t: 0,
        }
    }

    /// The moments as bytes, for a checkpoint: the step count, then every first and
    /// every second moment, little-endian.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + 8 * self.m.len());
        out.extend_from_slice(&self.t.to_le_bytes());
        for x in self.m.iter().chain(&self.v) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// The moments [`to_bytes`](Self::to_bytes) wrote for `len` weights; `None` for
    /// bytes of another length or a number that is not finite.
    pub(crate) fn from_bytes(bytes: &[u8], len: usize) -> Option<Adam> {
        if bytes.len() != 4 + 8 * len {
            return None;
        }
        let word = |c: &[u8]| [c[0], c[1], c[2], c[3]];
        let t = i32::from_le_bytes(word(&bytes[..4]));
        let numbers: Vec<f32> = bytes[4..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(word(c)))
            .collect();
        if t < 0 || numbers.iter().any(|x| !x.is_finite()) {
            return None;
        }
        let (m, v) = numbers.split_at(len);
        Some(Adam {
            m: m.to_vec(),
            v: v.to_vec(),
            t,
        })
    }

    /// One step of the weights `w` against the gradient `g` at the step size `rate`.
    pub(crate) fn step(&mut self, w: &mut [f32], g: &[f32], rate: f32) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        for i in 0..w.len() {
            // A weight whose gradient has always been 0 has both moments 0 and stays:
            // skipping it is the same step, and most of the table's weights are so.
            if g[i] == 0.0 && self.m[i] == 0.0 {
                continue;
            }
            self.m[i] = Self::BETA1 * self.m[i] + (1.0 - Self::BETA1) * g[i];
            self.v[i] = Self::BETA2 * self.v[i] + (1.0 - Self::BETA2) * g[i] * g[i];
            let m = self.m[i] / c1;
            let v = self.v[i] / c2;
            w[i] -= rate * m / (v.sqrt() + 1e-8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_lines_round_trip() {
        let position: Position = "W:W21,22,K30:B5,9,K14".parse().unwrap();
        let sample = Sample {
            position,
            result: 0.0,
            score: Some(-35),
        };
        let line = sample.to_line();
        assert!(line.ends_with("\t-35\t1-0"), "{line}");
        assert_eq!(Sample::from_line(&line), Ok(sample));
        let drawn = Sample {
            result: 0.5,
            score: None,
            ..sample
        };
        assert_eq!(Sample::from_line(&drawn.to_line()), Ok(drawn));
    }

    #[test]
    fn bad_sample_lines_say_what_is_wrong() {
        let err = |l: &str| Sample::from_line(l).unwrap_err().0;
        assert!(err("B:W21:B5").contains("three fields"));
        assert!(err("B:W21:B5\tx\t1-0").contains("\"x\""));
        assert!(err("B:W21:B5\t3\t2-0").contains("\"2-0\""));
        assert!(err("B:W99:B5\t3\t1-0").contains("FEN"));
    }

    #[test]
    fn training_learns_what_the_data_says() {
        // Black (to move) wins with a man on 25, about to crown, and draws with the
        // same man back on 13: training must value the advanced man.
        let won: Position = "B:W9,10:B25,20".parse().unwrap();
        let drawn: Position = "B:W9,10:B13,20".parse().unwrap();
        let mut samples = Vec::new();
        for _ in 0..200 {
            samples.push(Sample {
                position: won,
                result: 1.0,
                score: None,
            });
            samples.push(Sample {
                position: drawn,
                result: 0.5,
                score: None,
            });
        }
        let options = TrainOptions {
            epochs: 40,
            batch: 64,
            validation_every: 0,
            ..TrainOptions::default()
        };
        let mut reports = Vec::new();
        let (weights, report) = train(&samples, &options, |r| reports.push(*r));
        assert_eq!(reports.len(), 40);
        assert!(
            reports[39].train_loss < reports[0].train_loss / 2.0,
            "{reports:?}"
        );
        let value = |p: &Position| weights.evaluate_with_moves(p, p.count_moves());
        assert!(
            value(&won) > value(&drawn) + 50,
            "{} {}",
            value(&won),
            value(&drawn)
        );
        assert!(report.scale > 0.0);
    }
}
