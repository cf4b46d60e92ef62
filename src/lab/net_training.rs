//! Training the network evaluation: the same samples and targets as the pattern table
//! ([`training`](super::training)), a float copy of the network
//! ([`nnue`](crate::engine::nnue)) trained by Adam over mini-batches on every core, then
//! quantised into its integer weights.
//!
//! Each batch is cut into one slice per thread; each thread sums its slice's gradient
//! into a buffer of its own, and the buffers are added before the step, so the result
//! does not depend on how the threads are scheduled (only on their number).

use super::interrupt::Interrupt;
use super::training::{Adam, EpochReport, Sample, fit_scale, held_out_sample, sigmoid, target};
use crate::engine::nnue::{
    ACTIVATION_SCALE, BUCKETS, HIDDEN, INPUTS, MAX_FIRST_WEIGHT, MAX_SECOND_WEIGHT, NetworkWeights,
    Nnue, SECOND, WEIGHT_SCALE, bucket, for_each_input,
};
use crate::engine::splitmix64;
use std::fmt;

/// The float network being trained, every layer in one vector so that a gradient, a
/// moment and a checkpoint are the same shape.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FloatNetwork {
    /// The parameters: first-layer biases, first-layer weights by input, then for
    /// each bucket its second-layer biases, second-layer weights by neuron, output
    /// weights and output bias.
    pub(crate) params: Vec<f32>,
}

const FIRST_BIAS: usize = 0;
const FIRST: usize = FIRST_BIAS + HIDDEN;
/// Where the buckets' dense layers start.
const DENSE: usize = FIRST + INPUTS * HIDDEN;
// Within one bucket's block:
const SECOND_BIAS: usize = 0;
const SECOND_W: usize = SECOND_BIAS + SECOND;
const OUTPUT: usize = SECOND_W + SECOND * 2 * HIDDEN;
const OUTPUT_BIAS: usize = OUTPUT + SECOND;
/// The parameters of one bucket's dense layer and output.
const BUCKET_PARAMS: usize = OUTPUT_BIAS + 1;
/// How many parameters the network has.
pub(crate) const PARAMS: usize = DENSE + BUCKETS * BUCKET_PARAMS;

/// Where bucket `b`'s block of parameters starts.
const fn block(b: usize) -> usize {
    DENSE + b * BUCKET_PARAMS
}

/// The start of a checkpoint: the network, the optimiser's moments and the shuffle's
/// state.
const CHECKPOINT_MAGIC: &[u8; 8] = b"CKNETF3\n";

/// The start of a checkpoint of the earlier kind, the network alone: still resumed
/// from, the optimiser's moments starting again from zero.
const WEIGHTS_ONLY_MAGIC: &[u8; 8] = b"CKNETF2\n";

/// Where a network's training stands after a pass: all a checkpoint keeps, so that a
/// run resumed from it goes on as the unbroken run would have.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TrainingState {
    /// The network so far.
    pub(crate) net: FloatNetwork,
    /// The optimiser's moments and step count.
    adam: Adam,
    /// The passes made.
    pub(crate) epochs_done: u32,
    /// The shuffling's random state after the last pass.
    rng: u64,
}

impl TrainingState {
    /// Training about to start from `net`, shuffled from `seed`.
    pub(crate) fn start(net: FloatNetwork, seed: u64) -> TrainingState {
        TrainingState {
            net,
            adam: Adam::new(PARAMS),
            epochs_done: 0,
            rng: seed,
        }
    }

    /// The checkpoint file: the passes made, the shuffle's state, then the
    /// parameters and Adam's moments, little-endian.
    pub(crate) fn to_checkpoint(&self) -> Vec<u8> {
        let adam = self.adam.to_bytes();
        let mut out = Vec::with_capacity(20 + 4 * PARAMS + adam.len());
        out.extend_from_slice(CHECKPOINT_MAGIC);
        out.extend_from_slice(&self.epochs_done.to_le_bytes());
        out.extend_from_slice(&self.rng.to_le_bytes());
        for p in &self.net.params {
            out.extend_from_slice(&p.to_le_bytes());
        }
        out.extend_from_slice(&adam);
        out
    }

    /// Reads a checkpoint. One of the earlier kind (the network and the passes alone)
    /// goes on with fresh moments, shuffled from `seed`.
    pub(crate) fn from_checkpoint(
        bytes: &[u8],
        seed: u64,
    ) -> Result<TrainingState, CheckpointError> {
        let word = |c: &[u8]| [c[0], c[1], c[2], c[3]];
        let params_of = |body: &[u8]| -> Result<FloatNetwork, CheckpointError> {
            let params: Vec<f32> = body
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(word(c)))
                .collect();
            if params.iter().any(|p| !p.is_finite()) {
                return Err(CheckpointError(
                    "the checkpoint holds a number that is not finite".into(),
                ));
            }
            Ok(FloatNetwork { params })
        };
        let wrong_size = |expected: usize| {
            CheckpointError(format!(
                "a checkpoint of this network has {expected} bytes, this one {}",
                bytes.len()
            ))
        };
        if let Some(body) = bytes.strip_prefix(WEIGHTS_ONLY_MAGIC.as_slice()) {
            if body.len() != 4 + 4 * PARAMS {
                return Err(wrong_size(12 + 4 * PARAMS));
            }
            let mut state = TrainingState::start(params_of(&body[4..])?, seed);
            state.epochs_done = u32::from_le_bytes(word(&body[..4]));
            return Ok(state);
        }
        let Some(body) = bytes.strip_prefix(CHECKPOINT_MAGIC.as_slice()) else {
            return Err(CheckpointError("not a network checkpoint".into()));
        };
        let adam_bytes = 4 + 8 * PARAMS;
        if body.len() != 12 + 4 * PARAMS + adam_bytes {
            return Err(wrong_size(20 + 4 * PARAMS + adam_bytes));
        }
        let (head, rest) = body.split_at(12);
        let (params, adam) = rest.split_at(4 * PARAMS);
        let mut rng = [0u8; 8];
        rng.copy_from_slice(&head[4..12]);
        Ok(TrainingState {
            net: params_of(params)?,
            adam: Adam::from_bytes(adam, PARAMS).ok_or_else(|| {
                CheckpointError("the checkpoint's optimiser moments do not read".into())
            })?,
            epochs_done: u32::from_le_bytes(word(&head[..4])),
            rng: u64::from_le_bytes(rng),
        })
    }
}

/// Why a checkpoint cannot be resumed from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CheckpointError(pub String);

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CheckpointError {}

/// What one sample's forward pass keeps for the backward pass.
struct Forward {
    /// Where the sample's bucket's parameters start.
    block: usize,
    inputs: [Vec<usize>; 2],
    first: [f32; 2 * HIDDEN],
    clipped: [f32; 2 * HIDDEN],
    second: [f32; SECOND],
    clipped_second: [f32; SECOND],
    output: f32,
}

impl FloatNetwork {
    /// A network of small pseudo-random weights from `seed`, with the output scaled so
    /// that it starts near 0.
    pub(crate) fn random(seed: u64) -> FloatNetwork {
        let mut rng = seed ^ 0x5EED;
        let mut uniform = |scale: f32| {
            rng = splitmix64(rng);
            ((rng >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
        };
        let mut params = vec![0.0f32; PARAMS];
        for p in &mut params[FIRST_BIAS..FIRST] {
            *p = 0.1;
        }
        for p in &mut params[FIRST..DENSE] {
            *p = uniform(0.15);
        }
        for b in 0..BUCKETS {
            let at = block(b);
            for p in &mut params[at + SECOND_W..at + OUTPUT] {
                *p = uniform(1.0 / (2.0 * HIDDEN as f32).sqrt());
            }
            for p in &mut params[at + SECOND_BIAS..at + SECOND_W] {
                *p = 0.1;
            }
            for p in &mut params[at + OUTPUT..at + OUTPUT_BIAS] {
                *p = uniform(0.5);
            }
        }
        FloatNetwork { params }
    }

    /// The float network whose [`quantise`](Self::quantise) is `net`: each integer
    /// weight over its unit, so that training can go on from a network already made
    /// (`train --model net --from`).
    pub(crate) fn from_network(net: &Nnue) -> FloatNetwork {
        let w = net.weights();
        let a = ACTIVATION_SCALE as f32;
        let u = WEIGHT_SCALE as f32;
        let mut params = Vec::with_capacity(PARAMS);
        params.extend(w.first_bias.iter().map(|&x| f32::from(x) / a));
        params.extend(w.first.iter().map(|&x| f32::from(x) / a));
        for b in 0..BUCKETS {
            let neurons = b * SECOND..(b + 1) * SECOND;
            params.extend(
                w.second_bias[neurons.clone()]
                    .iter()
                    .map(|&x| x as f32 / (a * u)),
            );
            let weights = b * SECOND * 2 * HIDDEN..(b + 1) * SECOND * 2 * HIDDEN;
            params.extend(w.second[weights].iter().map(|&x| f32::from(x) / u));
            params.extend(w.output[neurons].iter().map(|&x| x as f32 / u));
            params.push(w.output_bias[b] as f32 / (a * u));
        }
        FloatNetwork { params }
    }

    fn forward(&self, sample: &Sample) -> Forward {
        let pos = &sample.position;
        let turn = pos.turn();
        let mut inputs = [Vec::with_capacity(24), Vec::with_capacity(24)];
        for_each_input(pos, turn, |f| inputs[0].push(f));
        for_each_input(pos, !turn, |f| inputs[1].push(f));
        let p = &self.params;
        let mut first = [0.0f32; 2 * HIDDEN];
        for (half, features) in inputs.iter().enumerate() {
            let sums = &mut first[half * HIDDEN..(half + 1) * HIDDEN];
            sums.copy_from_slice(&p[FIRST_BIAS..FIRST]);
            for &f in features {
                let row = &p[FIRST + f * HIDDEN..FIRST + (f + 1) * HIDDEN];
                for (s, w) in sums.iter_mut().zip(row) {
                    *s += w;
                }
            }
        }
        let mut clipped = [0.0f32; 2 * HIDDEN];
        for (c, &v) in clipped.iter_mut().zip(&first) {
            *c = v.clamp(0.0, 1.0);
        }
        let at = block(bucket(pos));
        let mut second = [0.0f32; SECOND];
        let mut clipped_second = [0.0f32; SECOND];
        let mut output = p[at + OUTPUT_BIAS];
        for j in 0..SECOND {
            let row = &p[at + SECOND_W + j * 2 * HIDDEN..at + SECOND_W + (j + 1) * 2 * HIDDEN];
            let sum: f32 = row.iter().zip(&clipped).map(|(w, x)| w * x).sum();
            second[j] = p[at + SECOND_BIAS + j] + sum;
            clipped_second[j] = second[j].clamp(0.0, 1.0);
            output += p[at + OUTPUT + j] * clipped_second[j];
        }
        Forward {
            block: at,
            inputs,
            first,
            clipped,
            second,
            clipped_second,
            output,
        }
    }

    /// The value of a sample's position for the side to move, in hundredths of a man.
    #[cfg(test)]
    pub(crate) fn evaluate(&self, sample: &Sample) -> f32 {
        100.0 * self.forward(sample).output
    }

    /// Adds the gradient of the squared error of `sample` (target `t`, scale `k`) to
    /// `grad`; returns the squared error.
    fn backward(&self, sample: &Sample, t: f32, k: f32, weight: f32, grad: &mut [f32]) -> f32 {
        let f = self.forward(sample);
        let p = &self.params;
        let prob = sigmoid(100.0 * f.output / k);
        let error = prob - t;
        let d_out = weight * 2.0 * error * prob * (1.0 - prob) * 100.0 / k;
        let at = f.block;
        grad[at + OUTPUT_BIAS] += d_out;
        let mut d_clipped = [0.0f32; 2 * HIDDEN];
        for j in 0..SECOND {
            grad[at + OUTPUT + j] += d_out * f.clipped_second[j];
            if f.second[j] <= 0.0 || f.second[j] >= 1.0 {
                continue;
            }
            let d = d_out * p[at + OUTPUT + j];
            grad[at + SECOND_BIAS + j] += d;
            let base = at + SECOND_W + j * 2 * HIDDEN;
            let row = &p[base..base + 2 * HIDDEN];
            let g = &mut grad[base..base + 2 * HIDDEN];
            for i in 0..2 * HIDDEN {
                g[i] += d * f.clipped[i];
                d_clipped[i] += d * row[i];
            }
        }
        for (d, &first) in d_clipped.iter_mut().zip(&f.first) {
            if first <= 0.0 || first >= 1.0 {
                *d = 0.0;
            }
        }
        for (half, features) in f.inputs.iter().enumerate() {
            let d = &d_clipped[half * HIDDEN..(half + 1) * HIDDEN];
            for (g, &x) in grad[FIRST_BIAS..FIRST].iter_mut().zip(d) {
                *g += x;
            }
            for &feature in features {
                let g = &mut grad[FIRST + feature * HIDDEN..FIRST + (feature + 1) * HIDDEN];
                for (g, &x) in g.iter_mut().zip(d) {
                    *g += x;
                }
            }
        }
        error * error
    }

    /// The network with integer weights, each weight rounded to its unit.
    pub(crate) fn quantise(&self) -> Nnue {
        let p = &self.params;
        let a = ACTIVATION_SCALE as f32;
        let w = WEIGHT_SCALE as f32;
        let small = |x: f32| x.round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16;
        let mut weights = NetworkWeights {
            first_bias: p[FIRST_BIAS..FIRST].iter().map(|&x| small(x * a)).collect(),
            first: p[FIRST..DENSE].iter().map(|&x| small(x * a)).collect(),
            ..NetworkWeights::default()
        };
        for b in 0..BUCKETS {
            let q = &p[block(b)..block(b + 1)];
            let wide = |x: f32| (x * w).round() as i32;
            weights
                .second_bias
                .extend(q[SECOND_BIAS..SECOND_W].iter().map(|&x| wide(x * a)));
            weights
                .second
                .extend(q[SECOND_W..OUTPUT].iter().map(|&x| small(x * w)));
            weights
                .output
                .extend(q[OUTPUT..OUTPUT_BIAS].iter().map(|&x| wide(x)));
            weights.output_bias.push(wide(q[OUTPUT_BIAS] * a));
        }
        Nnue::new(weights)
    }

    /// Keeps every weight within what its integer form can hold.
    fn clamp_weights(&mut self) {
        for x in &mut self.params[FIRST_BIAS..DENSE] {
            *x = x.clamp(-MAX_FIRST_WEIGHT, MAX_FIRST_WEIGHT);
        }
        for b in 0..BUCKETS {
            for x in &mut self.params[block(b) + SECOND_W..block(b) + OUTPUT] {
                *x = x.clamp(-MAX_SECOND_WEIGHT, MAX_SECOND_WEIGHT);
            }
        }
    }
}

/// How to train the network.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct NetTrainOptions {
    /// Passes over the data (in all, counting those of a resumed checkpoint).
    pub(crate) epochs: u32,
    /// The result's share of the target (the search score has the rest).
    pub(crate) lambda: f32,
    /// Adam's step size at the start (it falls to a tenth by the last pass).
    pub(crate) learning_rate: f32,
    /// Samples per step.
    pub(crate) batch: usize,
    /// One run of samples in this many is held out to measure the fit.
    pub(crate) validation_every: u64,
    /// Seed of the shuffling, the held-out sample and the first weights.
    pub(crate) seed: u64,
    /// Threads computing each batch's gradient.
    pub(crate) threads: usize,
}

impl Default for NetTrainOptions {
    fn default() -> NetTrainOptions {
        NetTrainOptions {
            epochs: 20,
            lambda: 0.5,
            learning_rate: 0.002,
            batch: 1024,
            validation_every: 20,
            seed: 1,
            threads: 1,
        }
    }
}

/// What network training found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct NetTrainReport {
    /// The fitted `K` (see [`fit_scale`]).
    pub(crate) scale: f32,
    /// Samples trained on.
    pub(crate) train_samples: usize,
    /// Samples held out.
    pub(crate) validation_samples: usize,
    /// The pattern table's error on the held-out samples.
    pub(crate) table_loss: f64,
    /// The quantised network's error on them, after training.
    pub(crate) net_loss: f64,
}

/// The mean squared error of `value` (hundredths of a man) on `samples`.
fn loss_of(samples: &[(&Sample, f32)], k: f32, value: impl Fn(&Sample) -> f32) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|(s, t)| f64::from((sigmoid(value(s) / k) - t).powi(2)))
        .sum();
    total / samples.len() as f64
}

/// Trains a network on `samples` from `start` (a fresh one or a checkpoint's, with the
/// passes it had made), calling `progress` after each pass with the network so far
/// (to save a checkpoint) and its report. None when the `interrupt` came before the
/// last pass ended: the pass in progress is dropped (checked between batches), the
/// passes before it are the checkpoints' to keep.
pub(crate) fn train_network(
    samples: &[Sample],
    options: &NetTrainOptions,
    start: Option<TrainingState>,
    interrupt: &Interrupt,
    mut progress: impl FnMut(&TrainingState, &EpochReport),
) -> Option<(Nnue, NetTrainReport)> {
    let scale = fit_scale(samples);
    let (mut training, mut validation) = (Vec::new(), Vec::new());
    for (i, s) in samples.iter().enumerate() {
        let t = target(s, scale, options.lambda);
        if held_out_sample(i, options.seed, options.validation_every) {
            validation.push((s, t));
        } else {
            training.push((s, t));
        }
    }
    let table = crate::engine::learned::Weights::embedded();
    let table_loss = loss_of(&validation, scale, |s| {
        table.evaluate_with_moves(&s.position, s.position.count_moves()) as f32
    });
    let mut state = start
        .unwrap_or_else(|| TrainingState::start(FloatNetwork::random(options.seed), options.seed));
    let threads = options.threads.max(1);
    let batch = options.batch.max(1);
    let mut order: Vec<usize> = Vec::with_capacity(training.len());
    let mut buffers = vec![vec![0.0f32; PARAMS]; threads];
    let mut grad = vec![0.0f32; PARAMS];
    for epoch in state.epochs_done + 1..=options.epochs {
        // Each pass's order comes from the random state alone (kept in the
        // checkpoint), so a resumed run shuffles as the unbroken one.
        order.clear();
        order.extend(0..training.len());
        let mut rng = splitmix64(state.rng ^ u64::from(epoch));
        for i in (1..order.len()).rev() {
            rng = splitmix64(rng);
            order.swap(i, (rng % (i as u64 + 1)) as usize);
        }
        let share = (epoch - 1) as f32 / options.epochs.max(1) as f32;
        let rate = options.learning_rate * (1.0 - 0.9 * share);
        let mut train_loss = 0.0f64;
        for chunk in order.chunks(batch) {
            if interrupt.is_raised() {
                return None;
            }
            let per_thread = chunk.len().div_ceil(threads);
            let weight = 1.0 / chunk.len() as f32;
            let net_ref = &state.net;
            let training = &training;
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = buffers
                    .iter_mut()
                    .zip(chunk.chunks(per_thread.max(1)))
                    .map(|(buffer, part)| {
                        scope.spawn(move || {
                            buffer.fill(0.0);
                            let mut loss = 0.0f64;
                            for &i in part {
                                let (s, t) = training[i];
                                loss += f64::from(net_ref.backward(s, t, scale, weight, buffer));
                            }
                            loss
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                    .collect()
            });
            train_loss += losses.iter().sum::<f64>();
            grad.fill(0.0);
            for buffer in buffers.iter().take(chunk.len().div_ceil(per_thread.max(1))) {
                for (g, b) in grad.iter_mut().zip(buffer) {
                    *g += b;
                }
            }
            state.adam.step(&mut state.net.params, &grad, rate);
            state.net.clamp_weights();
        }
        state.rng = rng;
        state.epochs_done = epoch;
        let quantised = state.net.quantise();
        let report = EpochReport {
            epoch,
            train_loss: train_loss / training.len().max(1) as f64,
            validation_loss: loss_of(&validation, scale, |s| {
                quantised.evaluate_position(&s.position) as f32
            }),
        };
        progress(&state, &report);
    }
    let quantised = state.net.quantise();
    let net_loss = loss_of(&validation, scale, |s| {
        quantised.evaluate_position(&s.position) as f32
    });
    Some((
        quantised,
        NetTrainReport {
            scale,
            train_samples: training.len(),
            validation_samples: validation.len(),
            table_loss,
            net_loss,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Position;

    #[test]
    fn a_network_goes_on_training_from_its_own_weights() {
        let embedded = Nnue::embedded();
        let float = FloatNetwork::from_network(embedded);
        assert_eq!(float.params.len(), PARAMS);
        // Back to integers, it is the same network to the last weight.
        assert_eq!(float.quantise().to_bytes(), embedded.to_bytes());
    }

    #[test]
    fn the_quantised_network_values_as_the_float_one() {
        let net = FloatNetwork::random(5);
        let q = net.quantise();
        for fen in [
            "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
            "W:W21,22,K30:B5,9,K14",
        ] {
            let position: Position = fen.parse().unwrap();
            let sample = Sample {
                position,
                result: 0.5,
                score: None,
            };
            let float = net.evaluate(&sample);
            let int = q.evaluate_position(&position) as f32;
            assert!((float - int).abs() < 3.0, "{fen}: {float} v {int}");
        }
    }

    #[test]
    fn training_learns_what_the_data_says_and_resumes() {
        // Black (to move) wins with a man about to crown, draws with it far back.
        let won: Position = "B:W9,10:B25,20".parse().unwrap();
        let drawn: Position = "B:W9,10:B13,20".parse().unwrap();
        let mut samples = Vec::new();
        for _ in 0..100 {
            for (position, result) in [(won, 1.0), (drawn, 0.5)] {
                samples.push(Sample {
                    position,
                    result,
                    score: None,
                });
            }
        }
        let options = NetTrainOptions {
            epochs: 30,
            batch: 32,
            validation_every: 0,
            threads: 2,
            learning_rate: 0.01,
            ..NetTrainOptions::default()
        };
        let mut reports = Vec::new();
        let (mut checkpoint, mut last) = (None, None);
        let (net, report) = train_network(&samples, &options, None, &Interrupt::none(), |n, r| {
            reports.push(*r);
            if r.epoch == 10 {
                checkpoint = Some(n.to_checkpoint());
            }
            last = Some(n.clone());
        })
        .expect("not interrupted");
        assert_eq!(reports.len(), 30);
        assert!(
            reports[29].train_loss < reports[0].train_loss / 2.0,
            "{reports:?}"
        );
        let value = |p: &Position| net.evaluate_position(p);
        assert!(
            value(&won) > value(&drawn) + 50,
            "{} {}",
            value(&won),
            value(&drawn)
        );
        assert!(report.scale > 0.0);
        // Resumed from pass 10, it makes the other 20 passes only, and ends where the
        // unbroken run ended, to the last bit: the same weights, moments and shuffles.
        let start = TrainingState::from_checkpoint(&checkpoint.unwrap(), 99).unwrap();
        assert_eq!(start.epochs_done, 10);
        let (mut resumed, mut resumed_last) = (Vec::new(), None);
        let (resumed_net, _) = train_network(
            &samples,
            &options,
            Some(start),
            &Interrupt::none(),
            |n, r| {
                resumed.push(*r);
                resumed_last = Some(n.clone());
            },
        )
        .expect("not interrupted");
        assert_eq!(resumed.len(), 20);
        assert_eq!(resumed[..], reports[10..]);
        assert_eq!(resumed_last, last);
        assert_eq!(resumed_net.to_bytes(), net.to_bytes());
        // A checkpoint reads back as it was written.
        let last = last.unwrap();
        let again = TrainingState::from_checkpoint(&last.to_checkpoint(), 99).unwrap();
        assert_eq!(again, last);
        // Interrupted, it stops within the pass and gives no network.
        let interrupt = Interrupt::none();
        interrupt.raise();
        let mut passes = 0;
        let stopped = train_network(&samples, &options, None, &interrupt, |_, _| passes += 1);
        assert!(stopped.is_none());
        assert_eq!(passes, 0);
        assert!(TrainingState::from_checkpoint(b"nonsense", 1).is_err());
    }
}
