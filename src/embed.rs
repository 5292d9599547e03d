//! Sentence embeddings from a local BERT model in candle: tokenise (longest-in-batch padding,
//! truncation at 256 tokens, as sentence-transformers does), forward pass, mean pooling over
//! real tokens, L2 normalisation. Reads only local files; never touches the network.

use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

/// Longest input in tokens; longer passages are truncated (segments are ≤ 160 words).
pub const MAX_TOKENS: usize = 256;
const FILES: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];
const FIX: &str = "run scripts/install-model.sh, or point DRUGCITE_MODEL_DIR (--model-dir) at a \
                   directory holding config.json, tokenizer.json and model.safetensors";

#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("embedding model file {path} is missing: {FIX}")]
    MissingFile { path: String },
    #[error("embedding model file {path} is unusable ({reason}): {FIX}")]
    BadFile { path: String, reason: String },
    #[error("embedding failed: {0}")]
    Compute(String),
}

fn compute(e: impl std::fmt::Display) -> EmbedError {
    EmbedError::Compute(e.to_string())
}

pub struct Embedder {
    model: BertModel,
    tokenizer: Tokenizer,
    dimensions: usize,
    model_dir: PathBuf,
}

impl Embedder {
    pub fn load(model_dir: &Path) -> Result<Self, EmbedError> {
        for file in FILES {
            let path = model_dir.join(file);
            if !path.is_file() {
                return Err(EmbedError::MissingFile {
                    path: path.display().to_string(),
                });
            }
        }
        let bad = |file: &str, reason: String| EmbedError::BadFile {
            path: model_dir.join(file).display().to_string(),
            reason,
        };
        let config: Config = std::fs::read(model_dir.join("config.json"))
            .map_err(|e| bad("config.json", e.to_string()))
            .and_then(|body| {
                serde_json::from_slice(&body).map_err(|e| bad("config.json", e.to_string()))
            })?;
        let dimensions = config.hidden_size;
        let mut tokenizer = Tokenizer::from_file(model_dir.join("tokenizer.json"))
            .map_err(|e| bad("tokenizer.json", e.to_string()))?;
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_TOKENS,
                ..Default::default()
            }))
            .map_err(|e| bad("tokenizer.json", e.to_string()))?;
        tokenizer.with_padding(Some(PaddingParams {
            strategy: PaddingStrategy::BatchLongest,
            ..Default::default()
        }));
        let weights = model_dir.join("model.safetensors");
        // SAFETY: the weights file is memory-mapped read-only and not modified while mapped.
        let vb =
            unsafe { VarBuilder::from_mmaped_safetensors(&[&weights], DType::F32, &Device::Cpu) }
                .map_err(|e| bad("model.safetensors", e.to_string()))?;
        let model =
            BertModel::load(vb, &config).map_err(|e| bad("model.safetensors", e.to_string()))?;
        Ok(Self {
            model,
            tokenizer,
            dimensions,
            model_dir: model_dir.to_path_buf(),
        })
    }

    pub fn dimensions(&self) -> usize {
        self.dimensions
    }

    pub fn model_dir(&self) -> &Path {
        &self.model_dir
    }

    /// Unit-length embeddings of `texts`, one batch padded to its longest member. Callers that
    /// embed many texts should pass texts of similar length together (see `ingest`).
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let encodings = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(compute)?;
        let (batch, length) = (encodings.len(), encodings[0].get_ids().len());
        let flat = |f: fn(&tokenizers::Encoding) -> &[u32]| -> Vec<u32> {
            encodings
                .iter()
                .flat_map(|e| f(e).iter().copied())
                .collect()
        };
        let device = &self.model.device;
        let ids =
            Tensor::from_vec(flat(|e| e.get_ids()), (batch, length), device).map_err(compute)?;
        let mask = Tensor::from_vec(flat(|e| e.get_attention_mask()), (batch, length), device)
            .map_err(compute)?;
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

/// Cosine similarity of two unit vectors.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The installed model (scripts/install-model.sh), or `$DRUGCITE_MODEL_DIR`.
    pub(crate) fn test_model_dir() -> PathBuf {
        std::env::var_os("DRUGCITE_MODEL_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join("models/all-MiniLM-L6-v2")
            })
    }

    #[test]
    fn hello_world_matches_the_published_reference() {
        let embedder = Embedder::load(&test_model_dir()).unwrap();
        let vector = &embedder.embed(&["hello world"]).unwrap()[0];
        assert_eq!(vector.len(), 384);
        let reference = [-0.034477, 0.031023, 0.006735, 0.026109, -0.039362];
        for (got, want) in vector.iter().zip(reference) {
            assert!((got - want).abs() < 1e-4, "{got} vs {want}");
        }
        assert!((dot(vector, vector) - 1.0).abs() < 1e-5, "unit length");
    }

    #[test]
    fn padding_does_not_change_an_embedding() {
        let embedder = Embedder::load(&test_model_dir()).unwrap();
        let alone = embedder.embed(&["hello world"]).unwrap().remove(0);
        let long = "a much longer sentence that forces the short one to be padded in the batch";
        let batched = embedder.embed(&["hello world", long]).unwrap().remove(0);
        for (a, b) in alone.iter().zip(&batched) {
            assert!((a - b).abs() < 1e-5);
        }
    }

    #[test]
    fn similar_sentences_are_closer_than_unrelated_ones() {
        let embedder = Embedder::load(&test_model_dir()).unwrap();
        let v = embedder
            .embed(&[
                "Sertraline may cause serotonin syndrome when combined with MAO inhibitors.",
                "Combining SSRIs with monoamine oxidase inhibitors risks serotonin toxicity.",
                "Store the tablets at room temperature away from light.",
            ])
            .unwrap();
        assert!(dot(&v[0], &v[1]) > dot(&v[0], &v[2]) + 0.2);
    }

    #[test]
    fn a_missing_or_corrupt_file_is_named_with_the_fix() {
        let dir = tempfile::tempdir().unwrap();
        let missing = Embedder::load(dir.path()).err().unwrap().to_string();
        assert!(
            missing.contains("config.json") && missing.contains("install-model.sh"),
            "{missing}"
        );
        for file in FILES {
            std::fs::copy(test_model_dir().join(file), dir.path().join(file)).unwrap();
        }
        std::fs::write(dir.path().join("model.safetensors"), b"not weights").unwrap();
        let corrupt = Embedder::load(dir.path()).err().unwrap().to_string();
        assert!(
            corrupt.contains("model.safetensors") && corrupt.contains("unusable"),
            "{corrupt}"
        );
    }
}
