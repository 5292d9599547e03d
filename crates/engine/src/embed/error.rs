//! What loading or running the embedding model can fail with; every message says how to fix
//! a missing or unusable model.

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

pub(super) fn compute(e: impl std::fmt::Display) -> EmbedError {
    EmbedError::Compute(e.to_string())
}
