//! The trained part of the tagger: a window head over per-word vectors (each word and its
//! neighbours projected, concatenated, one hidden layer, then B/I/O scores per mention type),
//! its seeded initialisation and its AdamW training. Knows nothing of text, folds or scores.

use candle_core::{DType, Device, Tensor, Var, D};
use candle_nn::{AdamW, Embedding, Linear, Module, Optimizer, ParamsAdamW};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::mentions::TYPES;

/// Tags per type (O, B, I).
const TAGS: usize = 3;

#[derive(Clone, Debug)]
pub struct HeadConfig {
    /// Neighbours read on each side of a word.
    pub window: usize,
    /// Width of each word's projection.
    pub projection: usize,
    pub hidden: usize,
    /// Width of the trained embedding of a word's hashed id (0: none).
    pub word_dims: usize,
    pub word_buckets: usize,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f64,
    pub dropout: f32,
    pub seed: u64,
}

/// Every word of a corpus: its input vector (the last row is padding, all zero), its hashed
/// id, and the rows of its window (`2·window+1` per word, padding past a document's edge).
pub struct Inputs {
    pub features: Tensor,
    pub hashes: Tensor,
    pub windows: Vec<u32>,
}

impl Inputs {
    /// `docs` gives each document's word count; `rows` all words' vectors in order.
    pub fn new(
        rows: Vec<f32>,
        dims: usize,
        hashes: Vec<u32>,
        docs: &[usize],
        window: usize,
    ) -> candle_core::Result<Self> {
        let words: usize = docs.iter().sum();
        let pad = words as u32;
        let mut rows = rows;
        rows.resize((words + 1) * dims, 0.0);
        let mut hashes = hashes;
        hashes.resize(words + 1, 0);
        let mut windows = Vec::with_capacity(words * (2 * window + 1));
        let mut start = 0;
        for &n in docs {
            for i in 0..n {
                for offset in -(window as isize)..=window as isize {
                    let j = i as isize + offset;
                    let inside = j >= 0 && (j as usize) < n;
                    windows.push(if inside {
                        (start + j as usize) as u32
                    } else {
                        pad
                    });
                }
            }
            start += n;
        }
        Ok(Self {
            features: Tensor::from_vec(rows, (words + 1, dims), &Device::Cpu)?,
            hashes: Tensor::from_vec(hashes, words + 1, &Device::Cpu)?,
            windows,
        })
    }
}

/// The head's parameters.
pub struct Head {
    config: HeadConfig,
    words: Option<Embedding>,
    projection: Linear,
    hidden: Linear,
    output: Linear,
    vars: Vec<Var>,
}

/// An inverted-dropout mask of `rows × cols`: each entry 0 with probability `rate`, else
/// `1 / (1 - rate)`, drawn in row-major order.
pub(super) fn dropout_mask(
    rng: &mut StdRng,
    rate: f32,
    rows: usize,
    cols: usize,
) -> candle_core::Result<Tensor> {
    let keep = 1.0 - rate;
    let mask: Vec<f32> = (0..rows * cols)
        .map(|_| {
            if rng.gen::<f32>() < keep {
                1.0 / keep
            } else {
                0.0
            }
        })
        .collect();
    Tensor::from_vec(mask, (rows, cols), &Device::Cpu)
}

fn param(
    rng: &mut StdRng,
    shape: (usize, usize),
    vars: &mut Vec<Var>,
) -> candle_core::Result<Tensor> {
    let scale = (6.0 / (shape.0 + shape.1) as f32).sqrt();
    let values: Vec<f32> = (0..shape.0 * shape.1)
        .map(|_| rng.gen_range(-scale..scale))
        .collect();
    let var = Var::from_tensor(&Tensor::from_vec(values, shape, &Device::Cpu)?)?;
    let tensor = var.as_tensor().clone();
    vars.push(var);
    Ok(tensor)
}

fn linear(
    rng: &mut StdRng,
    inputs: usize,
    outputs: usize,
    vars: &mut Vec<Var>,
) -> candle_core::Result<Linear> {
    let weight = param(rng, (outputs, inputs), vars)?;
    let bias = Var::zeros(outputs, DType::F32, &Device::Cpu)?;
    let b = bias.as_tensor().clone();
    vars.push(bias);
    Ok(Linear::new(weight, Some(b)))
}

impl Head {
    pub fn new(config: HeadConfig, dims: usize) -> candle_core::Result<Self> {
        let mut rng = StdRng::seed_from_u64(config.seed);
        let mut vars = Vec::new();
        let words = (config.word_dims > 0)
            .then(|| {
                let table = param(&mut rng, (config.word_buckets, config.word_dims), &mut vars)?;
                Ok::<_, candle_core::Error>(Embedding::new(table, config.word_dims))
            })
            .transpose()?;
        let width = 2 * config.window + 1;
        let projection = linear(
            &mut rng,
            dims + config.word_dims,
            config.projection,
            &mut vars,
        )?;
        let hidden = linear(
            &mut rng,
            width * config.projection,
            config.hidden,
            &mut vars,
        )?;
        let output = linear(&mut rng, config.hidden, TYPES * TAGS, &mut vars)?;
        Ok(Self {
            config,
            words,
            projection,
            hidden,
            output,
            vars,
        })
    }

    /// Log-probabilities (batch × types × tags) of the words whose window rows are `rows`.
    fn forward(
        &self,
        inputs: &Inputs,
        rows: &[u32],
        mask: Option<&Tensor>,
    ) -> candle_core::Result<Tensor> {
        let width = 2 * self.config.window + 1;
        let batch = rows.len() / width;
        let index = Tensor::from_slice(rows, rows.len(), &Device::Cpu)?;
        let mut x = inputs.features.index_select(&index, 0)?;
        if let Some(words) = &self.words {
            let ids = inputs.hashes.index_select(&index, 0)?;
            x = Tensor::cat(&[&x, &words.forward(&ids)?], 1)?;
        }
        let x = self.projection.forward(&x)?.relu()?;
        let x = x.reshape((batch, width * self.config.projection))?;
        let mut x = self.hidden.forward(&x)?.relu()?;
        if let Some(mask) = mask {
            x = x.mul(mask)?;
        }
        let logits = self.output.forward(&x)?.reshape((batch, TYPES, TAGS))?;
        candle_nn::ops::log_softmax(&logits, D::Minus1)
    }

    /// Trains on the words `train` with their tags and whether each is known; returns the mean
    /// loss of each epoch.
    pub fn train(
        &mut self,
        inputs: &Inputs,
        train: &[usize],
        tags: &[[u8; TYPES]],
        known: &[[bool; TYPES]],
    ) -> candle_core::Result<Vec<f32>> {
        let params = ParamsAdamW {
            lr: self.config.learning_rate,
            weight_decay: 0.01,
            ..Default::default()
        };
        let mut optimizer = AdamW::new(self.vars.clone(), params)?;
        let mut rng = StdRng::seed_from_u64(self.config.seed ^ 0x5eed);
        let width = 2 * self.config.window + 1;
        let mut order = train.to_vec();
        let mut losses = Vec::new();
        for _ in 0..self.config.epochs {
            order.shuffle(&mut rng);
            let (mut total, mut batches) = (0f32, 0usize);
            for chunk in order.chunks(self.config.batch) {
                let rows: Vec<u32> = chunk
                    .iter()
                    .flat_map(|&w| inputs.windows[w * width..(w + 1) * width].iter().copied())
                    .collect();
                let dropout = dropout_mask(
                    &mut rng,
                    self.config.dropout,
                    chunk.len(),
                    self.config.hidden,
                )?;
                let logp = self.forward(inputs, &rows, Some(&dropout))?;
                let targets: Vec<u32> = chunk
                    .iter()
                    .flat_map(|&w| tags[w].iter().map(|&t| u32::from(t)))
                    .collect();
                let weights: Vec<f32> = chunk
                    .iter()
                    .flat_map(|&w| known[w].iter().map(|&k| f32::from(u8::from(k))))
                    .collect();
                let count = weights.iter().sum::<f32>().max(1.0);
                let targets = Tensor::from_vec(targets, (chunk.len(), TYPES, 1), &Device::Cpu)?;
                let weights = Tensor::from_vec(weights, (chunk.len(), TYPES), &Device::Cpu)?;
                let picked = logp.gather(&targets, 2)?.squeeze(2)?;
                let loss = (picked.mul(&weights)?.sum_all()? * (-1.0 / f64::from(count)))?;
                optimizer.backward_step(&loss)?;
                total += loss.to_scalar::<f32>()?;
                batches += 1;
            }
            losses.push(total / batches.max(1) as f32);
        }
        Ok(losses)
    }

    /// Log-probabilities per word of `words` (indices into `inputs`), in order.
    pub fn predict(
        &self,
        inputs: &Inputs,
        words: &[usize],
    ) -> candle_core::Result<Vec<[[f32; TAGS]; TYPES]>> {
        let width = 2 * self.config.window + 1;
        let mut out = Vec::with_capacity(words.len());
        for chunk in words.chunks(2048) {
            let rows: Vec<u32> = chunk
                .iter()
                .flat_map(|&w| inputs.windows[w * width..(w + 1) * width].iter().copied())
                .collect();
            let logp = self.forward(inputs, &rows, None)?;
            let values = logp.flatten_all()?.to_vec1::<f32>()?;
            for word in values.chunks_exact(TYPES * TAGS) {
                let mut scores = [[0f32; TAGS]; TYPES];
                for (t, tags) in word.chunks_exact(TAGS).enumerate() {
                    scores[t].copy_from_slice(tags);
                }
                out.push(scores);
            }
        }
        Ok(out)
    }
}
