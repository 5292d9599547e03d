//! Sentence embeddings from a local BERT model in candle: questions go through the transformer
//! (truncation at 256 tokens, padding to the longest in a batch, mean pooling over real tokens,
//! L2 normalisation, as sentence-transformers does); passages through the table distilled from
//! it (`distilled`). Reads only local files; never touches the network.

mod distilled;
mod error;
mod layout;
pub mod openings;
mod transformer;

pub use error::EmbedError;
pub use transformer::MAX_TOKENS;

use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use tokenizers::Encoding;

use self::distilled::{DistilledTable, TABLE_FILE};
use self::transformer::Transformer;
use drugcite_store::VectorSpace;

/// Texts per forward pass in `embed_many`.
const BATCH: usize = 32;
const FILES: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];
/// The embedding model as drugcite uses it: the transformer for questions, the table distilled
/// from it for passages (see `distilled`), and the identity of the files both came from.
pub struct Embedder {
    transformer: Transformer,
    table: DistilledTable,
    model_id: [u8; 16],
    dimensions: usize,
    model_dir: PathBuf,
}

impl Embedder {
    /// Loads the model from `model_dir`; the first load of a model distills its passage table
    /// (about a minute) and saves it there, later loads read it back.
    pub fn load(model_dir: &Path) -> Result<Self, EmbedError> {
        for file in FILES {
            let path = model_dir.join(file);
            if !path.is_file() {
                return Err(EmbedError::MissingFile {
                    path: path.display().to_string(),
                });
            }
        }
        let (transformer, dimensions) = Transformer::load(model_dir)?;
        let model_id = model_id(model_dir)?;
        let table_path = model_dir.join(TABLE_FILE);
        let table = match DistilledTable::load(
            &table_path,
            &model_id,
            (transformer.vocabulary_size, dimensions),
        ) {
            Some(table) => table,
            None => {
                let table = DistilledTable::distill(&transformer, dimensions)?;
                if let Err(e) = table.save(&table_path, &model_id) {
                    tracing::warn!(path = %table_path.display(), "distilled table not saved: {e}");
                }
                table
            }
        };
        Ok(Self {
            transformer,
            table,
            model_id,
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

    /// The space this model's vectors live in; the model id is the first 16 bytes of SHA-256
    /// over its config, tokenizer and weights, so vectors of another model never mix with these.
    pub fn vector_space(&self) -> VectorSpace {
        VectorSpace {
            model_id: self.model_id,
            dimensions: self.dimensions,
        }
    }

    /// Unit-length embeddings of `texts`, as one batch padded to its longest member.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let encodings = self.transformer.encode(texts)?;
        let sequences: Vec<&[u32]> = encodings.iter().map(Encoding::get_ids).collect();
        self.transformer.forward(&sequences)
    }

    /// Transformer embeddings of many texts, in input order: tokenised once, then embedded in
    /// batches of `BATCH` texts of similar token length so little compute goes to padding.
    /// Ingest does not use it for passages (see `embed_passages`); `benches/embedding.rs` shows why.
    pub fn embed_many(&self, texts: &[&str]) -> Result<Embedded, EmbedError> {
        let encodings = self.transformer.encode(texts)?;
        let mut order: Vec<usize> = (0..encodings.len()).collect();
        order.sort_by_key(|&i| (encodings[i].get_ids().len(), i));
        let mut vectors = vec![Vec::new(); encodings.len()];
        for batch in order.chunks(BATCH) {
            let members: Vec<_> = batch.iter().map(|&i| encodings[i].get_ids()).collect();
            for (&i, vector) in batch.iter().zip(self.transformer.forward(&members)?) {
                vectors[i] = vector;
            }
        }
        let tokens = encodings.iter().map(|e| e.get_ids().len()).sum();
        Ok(Embedded { vectors, tokens })
    }

    /// Passage embeddings from the distilled table, in input order (see `distilled`).
    pub fn embed_passages(&self, texts: &[&str]) -> Result<Embedded, EmbedError> {
        let encodings = self.transformer.encode(texts)?;
        let vectors = encodings
            .iter()
            .map(|e| self.table.encode(e.get_ids()))
            .collect();
        let tokens = encodings.iter().map(|e| e.get_ids().len()).sum();
        Ok(Embedded { vectors, tokens })
    }
}

/// Vectors of `embed_passages` or `embed_many`, in input order, and how many tokens they read.
pub struct Embedded {
    pub vectors: Vec<Vec<f32>>,
    pub tokens: usize,
}

/// First 16 bytes of SHA-256 over the model files, in `FILES` order.
fn model_id(model_dir: &Path) -> Result<[u8; 16], EmbedError> {
    let mut hasher = Sha256::new();
    for file in FILES {
        let path = model_dir.join(file);
        let unreadable = |e: std::io::Error| EmbedError::BadFile {
            path: path.display().to_string(),
            reason: e.to_string(),
        };
        let mut reader = std::fs::File::open(&path).map_err(unreadable)?;
        let mut buffer = vec![0u8; 1 << 20];
        loop {
            let read = reader.read(&mut buffer).map_err(unreadable)?;
            if read == 0 {
                break;
            }
            hasher.update(&buffer[..read]);
        }
    }
    let digest = hasher.finalize();
    let mut id = [0u8; 16];
    id.copy_from_slice(&digest[..16]);
    Ok(id)
}

/// Where candle reads how many threads share each matrix product: on every product, falling
/// back to counting cores in `/proc/cpuinfo` each time.
const PRODUCT_THREADS_VARIABLE: &str = "RAYON_NUM_THREADS";

/// Makes candle compute each matrix product on the calling thread alone, unless the operator
/// set `RAYON_NUM_THREADS`. For a server: a question is ~15 tokens, too few to split the work
/// of a product, and a second thread cost ~3.5 ms more CPU per new question (waking, spinning,
/// yielding, re-reading `/proc/cpuinfo`) for no faster answer (README "Benchmarks"). Ingest
/// keeps the default: its tokenizer shares the pool. Call before any other thread starts.
pub fn one_thread_per_product() {
    if std::env::var_os(PRODUCT_THREADS_VARIABLE).is_none() {
        std::env::set_var(PRODUCT_THREADS_VARIABLE, "1");
    }
}

/// Lanes of independent partial sums in `dot`: a fixed summation order the compiler can turn
/// into SIMD (one running sum cannot be, floating-point addition not being associative).
const DOT_LANES: usize = 16;

/// Cosine similarity of two unit vectors; the same inputs always give the same bits.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let (a_chunks, b_chunks) = (a.chunks_exact(DOT_LANES), b.chunks_exact(DOT_LANES));
    let tail: f32 = a_chunks
        .remainder()
        .iter()
        .zip(b_chunks.remainder())
        .map(|(x, y)| x * y)
        .sum();
    let mut lanes = [0f32; DOT_LANES];
    for (x, y) in a_chunks.zip(b_chunks) {
        for lane in 0..DOT_LANES {
            lanes[lane] += x[lane] * y[lane];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The installed model (scripts/install-model.sh), or `$DRUGCITE_MODEL_DIR`.
    pub(crate) fn test_model_dir() -> PathBuf {
        std::env::var_os("DRUGCITE_MODEL_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/all-MiniLM-L6-v2")
            })
    }

    /// The installed model, loaded (and on a fresh install distilled) once per test process.
    pub(crate) fn test_embedder() -> &'static Embedder {
        static EMBEDDER: std::sync::OnceLock<Embedder> = std::sync::OnceLock::new();
        EMBEDDER.get_or_init(|| Embedder::load(&test_model_dir()).unwrap())
    }

    #[test]
    fn dot_matches_the_plain_sum_over_any_length() {
        for length in [0, 1, 15, 16, 17, 384, 390] {
            let a: Vec<f32> = (0..length).map(|i| (i as f32 * 0.37).sin()).collect();
            let b: Vec<f32> = (0..length).map(|i| (i as f32 * 0.11).cos()).collect();
            let plain: f64 = a.iter().zip(&b).map(|(x, y)| f64::from(x * y)).sum();
            assert!(
                (f64::from(dot(&a, &b)) - plain).abs() < 1e-4,
                "length {length}"
            );
        }
    }

    #[test]
    fn hello_world_matches_the_published_reference() {
        let embedder = test_embedder();
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
        let embedder = test_embedder();
        let alone = embedder.embed(&["hello world"]).unwrap().remove(0);
        let long = "a much longer sentence that forces the short one to be padded in the batch";
        let batched = embedder.embed(&["hello world", long]).unwrap().remove(0);
        for (a, b) in alone.iter().zip(&batched) {
            assert!((a - b).abs() < 1e-5);
        }
    }

    #[test]
    fn similar_sentences_are_closer_than_unrelated_ones() {
        let embedder = test_embedder();
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
    fn passage_vectors_are_unit_length_and_keep_related_texts_closer() {
        let embedder = test_embedder();
        let passages = embedder
            .embed_passages(&[
                "Sertraline may cause serotonin syndrome when combined with MAO inhibitors.",
                "Combining SSRIs with monoamine oxidase inhibitors risks serotonin toxicity.",
                "Store the tablets at room temperature away from light.",
            ])
            .unwrap();
        let v = &passages.vectors;
        assert!(v.iter().all(|p| (dot(p, p) - 1.0).abs() < 1e-5));
        assert!(dot(&v[0], &v[1]) > dot(&v[0], &v[2]) + 0.1);
        let question = &embedder
            .embed(&["drug interaction causing serotonin syndrome"])
            .unwrap()[0];
        assert!(
            dot(question, &v[0]) > dot(question, &v[2]) + 0.1,
            "questions meet passages"
        );
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
