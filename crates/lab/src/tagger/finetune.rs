//! Design C: MiniLM's top layers fine-tuned with a per-word head. The frozen layers run once per
//! window (`windows`); each training step runs only the trainable copies of the top layers and a
//! linear head (hidden → B/I/O per type) on each word's first piece, forward and backward, with
//! AdamW (a small rate for the encoder, a larger one for the head, warm-up then linear decay).
//! Knows nothing of folds or scores.

use std::ops::Range;

use candle_core::{DType, Device, Tensor, Var, D};
use candle_nn::{AdamW, Linear, Module, Optimizer, ParamsAdamW};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use tokenizers::Tokenizer;

use super::bert::{Bert, Layer};
use super::features::{self, framed, piece_words, pieces};
use super::head::dropout_mask;
use super::mentions::TYPES;

/// Tags per type (O, B, I).
const TAGS: usize = 3;
/// Log-probabilities given to a word no piece starts in (never seen by the model): surely O.
const UNSEEN: [f32; TAGS] = [0.0, -30.0, -30.0];

#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Top encoder layers trained (the others stay frozen and run once).
    pub trainable: usize,
    pub epochs: usize,
    /// Windows whose losses are summed into one step.
    pub windows_per_step: usize,
    pub encoder_rate: f64,
    pub head_rate: f64,
    /// Share of the steps over which the rates rise linearly from zero.
    pub warmup: f64,
    pub weight_decay: f64,
    /// Dropout on the head's input.
    pub dropout: f32,
    pub seed: u64,
}

/// One window of a document: the frozen layers' output and the words read from it.
pub struct Window {
    pub doc: usize,
    /// The frozen layers' output, ([CLS] + pieces + [SEP]) × hidden.
    pub hidden: Tensor,
    /// Row in `hidden` of the first piece of each word whose first piece is in the window's core.
    pub rows: Vec<u32>,
    /// Those words, numbered over the corpus.
    pub words: Vec<usize>,
}

/// The windows of document `doc` (its words numbered from `first_word`) after the first
/// `frozen` (≥ 1) layers, and the pieces run through them.
pub fn windows(
    bert: &Bert,
    tokenizer: &Tokenizer,
    text: &str,
    words: &[Range<usize>],
    frozen: usize,
    doc: usize,
    first_word: usize,
) -> anyhow::Result<(Vec<Window>, usize)> {
    anyhow::ensure!(frozen >= 1, "design C keeps at least one layer frozen");
    let (ids, offsets) = pieces(tokenizer, text)?;
    let owner = piece_words(words, &offsets);
    let mut first = vec![None; words.len()];
    for (piece, word) in owner.iter().enumerate() {
        if let Some(w) = *word {
            first[w].get_or_insert(piece);
        }
    }
    let (mut out, mut run) = (Vec::new(), 0);
    for (core, read) in features::windows(ids.len()) {
        let window = framed(tokenizer, &ids[read.clone()])?;
        run += window.len();
        let hidden = bert.forward(&window, &[frozen])?.remove(0);
        let (mut rows, mut ws) = (Vec::new(), Vec::new());
        for piece in core {
            if let Some(w) = owner[piece].filter(|&w| first[w] == Some(piece)) {
                rows.push((piece - read.start + 1) as u32);
                ws.push(first_word + w);
            }
        }
        if !rows.is_empty() {
            out.push(Window {
                doc,
                hidden,
                rows,
                words: ws,
            });
        }
    }
    Ok((out, run))
}

/// The trainable top layers and the head.
pub struct Tagger {
    config: TuneConfig,
    layers: Vec<Layer>,
    head: Linear,
    encoder_vars: Vec<Var>,
    head_vars: Vec<Var>,
}

impl Tagger {
    /// The top `config.trainable` layers of `bert` as initialised from its weights, and a head
    /// initialised from the seed (Xavier uniform, zero bias).
    pub fn new(bert: &Bert, config: TuneConfig) -> candle_core::Result<Self> {
        let mut encoder_vars = Vec::new();
        let frozen = bert.layer_count() - config.trainable;
        let layers = bert.trainable(frozen, &mut encoder_vars)?;
        let mut rng = StdRng::seed_from_u64(config.seed);
        let (inputs, outputs) = (bert.hidden, TYPES * TAGS);
        let scale = (6.0 / (inputs + outputs) as f32).sqrt();
        let values: Vec<f32> = (0..inputs * outputs)
            .map(|_| rng.gen_range(-scale..scale))
            .collect();
        let weight = Var::from_tensor(&Tensor::from_vec(values, (outputs, inputs), &Device::Cpu)?)?;
        let bias = Var::zeros(outputs, DType::F32, &Device::Cpu)?;
        let head = Linear::new(weight.as_tensor().clone(), Some(bias.as_tensor().clone()));
        Ok(Self {
            config,
            layers,
            head,
            encoder_vars,
            head_vars: vec![weight, bias],
        })
    }

    /// The trainable layers' output for a window's frozen output (all rows).
    pub fn encode(&self, hidden: &Tensor, trainable: bool) -> candle_core::Result<Tensor> {
        let mut x = hidden.clone();
        for layer in &self.layers {
            x = layer.forward(&x, trainable)?;
        }
        Ok(x)
    }

    /// Log-probabilities (words × types × tags) of the window's words; `dropout` masks the
    /// head's input while training.
    fn forward(
        &self,
        window: &Window,
        dropout: Option<&mut StdRng>,
    ) -> candle_core::Result<Tensor> {
        let x = self.encode(&window.hidden, dropout.is_some())?;
        let index = Tensor::from_slice(&window.rows, window.rows.len(), &Device::Cpu)?;
        let mut x = x.index_select(&index, 0)?;
        if let Some(rng) = dropout {
            let (m, hidden) = x.dims2()?;
            x = x.mul(&dropout_mask(rng, self.config.dropout, m, hidden)?)?;
        }
        let logits = self
            .head
            .forward(&x)?
            .reshape((window.rows.len(), TYPES, TAGS))?;
        candle_nn::ops::log_softmax(&logits, D::Minus1)
    }

    /// Trains on the windows `train` (indices into `windows`) with every word's tags and
    /// whether each is known; returns the mean loss of each epoch and the CPU seconds of each.
    pub fn train(
        &mut self,
        windows: &[Window],
        train: &[usize],
        tags: &[[u8; TYPES]],
        known: &[[bool; TYPES]],
    ) -> candle_core::Result<(Vec<f32>, Vec<f64>)> {
        let c = self.config.clone();
        let rate = |lr| ParamsAdamW {
            lr,
            weight_decay: c.weight_decay,
            ..Default::default()
        };
        let mut encoder = AdamW::new(self.encoder_vars.clone(), rate(c.encoder_rate))?;
        let mut head = AdamW::new(self.head_vars.clone(), rate(c.head_rate))?;
        let mut rng = StdRng::seed_from_u64(c.seed ^ 0x5eed);
        let steps = train.len().div_ceil(c.windows_per_step.max(1)) * c.epochs;
        let warmup = ((steps as f64 * c.warmup) as usize).max(1);
        let mut order = train.to_vec();
        let (mut losses, mut seconds) = (Vec::new(), Vec::new());
        let mut step = 0usize;
        for epoch in 0..c.epochs {
            let clock = super::clock::Clock::start();
            order.shuffle(&mut rng);
            let (mut total, mut batches) = (0f32, 0usize);
            for chunk in order.chunks(c.windows_per_step.max(1)) {
                let scale = if step < warmup {
                    (step + 1) as f64 / warmup as f64
                } else {
                    (steps - step) as f64 / (steps - warmup).max(1) as f64
                };
                step += 1;
                encoder.set_learning_rate(c.encoder_rate * scale);
                head.set_learning_rate(c.head_rate * scale);
                let (mut terms, mut count) = (Vec::new(), 0f32);
                for &w in chunk {
                    let window = &windows[w];
                    let m = window.words.len();
                    let logp = self.forward(window, Some(&mut rng))?;
                    let targets: Vec<u32> = window
                        .words
                        .iter()
                        .flat_map(|&w| tags[w].iter().map(|&t| u32::from(t)))
                        .collect();
                    let weights: Vec<f32> = window
                        .words
                        .iter()
                        .flat_map(|&w| known[w].iter().map(|&k| f32::from(u8::from(k))))
                        .collect();
                    count += weights.iter().sum::<f32>();
                    let targets = Tensor::from_vec(targets, (m, TYPES, 1), &Device::Cpu)?;
                    let weights = Tensor::from_vec(weights, (m, TYPES), &Device::Cpu)?;
                    let picked = logp.gather(&targets, 2)?.squeeze(2)?;
                    terms.push(picked.mul(&weights)?.sum_all()?);
                }
                if count == 0.0 {
                    continue;
                }
                let loss = (Tensor::stack(&terms, 0)?.sum_all()? * (-1.0 / f64::from(count)))?;
                let grads = loss.backward()?;
                encoder.step(&grads)?;
                head.step(&grads)?;
                total += loss.to_scalar::<f32>()?;
                batches += 1;
            }
            losses.push(total / batches.max(1) as f32);
            seconds.push(clock.seconds());
            eprintln!(
                "  epoch {epoch}: loss {:.4}, {:.1} CPU s",
                losses[epoch], seconds[epoch]
            );
        }
        Ok((losses, seconds))
    }

    /// Log-probabilities per word of a document of `words` words numbered from `first_word`,
    /// from its windows.
    pub fn predict<'a>(
        &self,
        windows: impl IntoIterator<Item = &'a Window>,
        first_word: usize,
        words: usize,
    ) -> candle_core::Result<Vec<[[f32; TAGS]; TYPES]>> {
        let mut out = vec![[UNSEEN; TYPES]; words];
        for window in windows {
            let logp = self.forward(window, None)?.detach();
            let values = logp.flatten_all()?.to_vec1::<f32>()?;
            for (&w, word) in window.words.iter().zip(values.chunks_exact(TYPES * TAGS)) {
                for (t, tags) in word.chunks_exact(TAGS).enumerate() {
                    out[w - first_word][t].copy_from_slice(tags);
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagger::bert::tests::model_dir;

    /// The trainable copies, before any step, give the frozen model's last layer: the cached
    /// frozen output plus the trainable layers reproduce a full frozen forward.
    #[test]
    fn trainable_layers_at_initialisation_reproduce_the_frozen_forward() {
        let bert = Bert::load(&model_dir()).unwrap();
        let config = TuneConfig {
            trainable: 2,
            epochs: 0,
            windows_per_step: 1,
            encoder_rate: 0.0,
            head_rate: 0.0,
            warmup: 0.0,
            weight_decay: 0.0,
            dropout: 0.0,
            seed: 1,
        };
        let tagger = Tagger::new(&bert, config).unwrap();
        // [CLS] hello world [SEP]
        let ids = [101, 7592, 2088, 102];
        let frozen = bert.forward(&ids, &[4, 6]).unwrap();
        let want = frozen[1].to_vec2::<f32>().unwrap();
        for trainable in [true, false] {
            let got = tagger.encode(&frozen[0], trainable).unwrap();
            for (a, b) in got.to_vec2::<f32>().unwrap().iter().zip(&want) {
                for (x, y) in a.iter().zip(b) {
                    assert!(
                        (x - y).abs() < 1e-4,
                        "{x} vs {y} (trainable ops {trainable})"
                    );
                }
            }
        }
        // And the gradient reaches the encoder's copies.
        let x = tagger.encode(&frozen[0], true).unwrap();
        let grads = x.sum_all().unwrap().backward().unwrap();
        assert!(tagger.encoder_vars.iter().all(|v| grads.get(v).is_some()));
    }
}
