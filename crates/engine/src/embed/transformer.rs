//! The BERT model and its tokenizer run in candle: token ids → the mean-pooled, normalised
//! sentence embedding, as sentence-transformers computes it. Loads local files only.

use std::path::Path;

use candle_core::safetensors::MmapedSafetensors;
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{Encoding, Tokenizer, TruncationParams};

use super::error::{compute, EmbedError};
use super::layout::TransposedDense;

/// Longest input in tokens; longer passages are truncated (segments are ≤ 160 words).
pub const MAX_TOKENS: usize = 256;
/// Token id of padding; masked out, so its value never reaches an embedding.
pub(super) const PAD_ID: u32 = 0;
/// The BERT model and its tokenizer: what turns token ids into a sentence embedding.
pub(super) struct Transformer {
    pub(super) model: BertModel,
    pub(super) tokenizer: Tokenizer,
    pub(super) vocabulary_size: usize,
}

impl Transformer {
    pub(super) fn load(model_dir: &Path) -> Result<(Self, usize), EmbedError> {
        let bad = |file: &str, reason: String| EmbedError::BadFile {
            path: model_dir.join(file).display().to_string(),
            reason,
        };
        let config: Config = std::fs::read(model_dir.join("config.json"))
            .map_err(|e| bad("config.json", e.to_string()))
            .and_then(|body| {
                serde_json::from_slice(&body).map_err(|e| bad("config.json", e.to_string()))
            })?;
        let mut tokenizer = Tokenizer::from_file(model_dir.join("tokenizer.json"))
            .map_err(|e| bad("tokenizer.json", e.to_string()))?;
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_TOKENS,
                ..Default::default()
            }))
            .map_err(|e| bad("tokenizer.json", e.to_string()))?;
        tokenizer.with_padding(None);
        let weights = model_dir.join("model.safetensors");
        // SAFETY: the weights file is memory-mapped read-only and not modified while mapped.
        let tensors = unsafe { MmapedSafetensors::new(&weights) }
            .map_err(|e| bad("model.safetensors", e.to_string()))?;
        let backend = Box::new(TransposedDense(tensors));
        let vb = VarBuilder::from_backend(backend, DType::F32, Device::Cpu);
        let model =
            BertModel::load(vb, &config).map_err(|e| bad("model.safetensors", e.to_string()))?;
        let transformer = Self {
            model,
            tokenizer,
            vocabulary_size: config.vocab_size,
        };
        Ok((transformer, config.hidden_size))
    }

    /// Ids of a special token the sentence template uses ([CLS], [SEP]).
    pub(super) fn special_id(&self, token: &str) -> Result<u32, EmbedError> {
        self.tokenizer
            .token_to_id(token)
            .ok_or_else(|| compute(format!("tokenizer has no {token} token")))
    }

    pub(super) fn encode(&self, texts: &[&str]) -> Result<Vec<Encoding>, EmbedError> {
        self.tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(compute)
    }

    /// One forward pass over token-id sequences, padded to the longest of them.
    pub(super) fn forward(&self, sequences: &[&[u32]]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let Some(length) = sequences.iter().map(|s| s.len()).max() else {
            return Ok(Vec::new());
        };
        let batch = sequences.len();
        let mut ids = Vec::with_capacity(batch * length);
        let mut mask = Vec::with_capacity(batch * length);
        for sequence in sequences {
            ids.extend_from_slice(sequence);
            ids.resize(ids.len() + length - sequence.len(), PAD_ID);
            mask.extend((0..length).map(|i| u32::from(i < sequence.len())));
        }
        let device = &self.model.device;
        let ids = Tensor::from_vec(ids, (batch, length), device).map_err(compute)?;
        let mask = Tensor::from_vec(mask, (batch, length), device).map_err(compute)?;
        let token_types = ids.zeros_like().map_err(compute)?;
        let hidden = self
            .model
            .forward(&ids, &token_types, Some(&mask))
            .map_err(compute)?;
        let pooled = mean_pool(&hidden, &mask).map_err(compute)?;
        let norms = pooled
            .sqr()
            .and_then(|s| s.sum_keepdim(1))
            .and_then(|s| s.sqrt())
            .map_err(compute)?;
        let normalised = pooled.broadcast_div(&norms).map_err(compute)?;
        normalised.to_vec2::<f32>().map_err(compute)
    }
}

/// Mean of the token vectors where `mask` is 1.
fn mean_pool(hidden: &Tensor, mask: &Tensor) -> candle_core::Result<Tensor> {
    let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
    let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
    let counts = mask.sum(1)?;
    summed.broadcast_div(&counts)
}
