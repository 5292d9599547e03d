//! The static passage encoder: a table holding, for every vocabulary token, the transformer's
//! sentence embedding of that token alone; a text's vector is the normalised mean of its tokens'
//! rows. Owns distillation and the table file; never runs the transformer at encode time.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::error::EmbedError;
use super::transformer::Transformer;

/// File name of the table inside the model directory.
pub const TABLE_FILE: &str = "drugcite-distilled-v1.bin";
const MAGIC: &[u8; 4] = b"DCT1";
/// Token sequences per forward pass while distilling ([CLS] token [SEP]: three ids each).
const DISTILL_BATCH: usize = 512;
/// Ids below this are padding, unused slots and special tokens; they carry no meaning.
const FIRST_WORD_ID: u32 = 999;

pub struct DistilledTable {
    rows: Vec<f32>,
    dimensions: usize,
}

impl DistilledTable {
    /// Runs every vocabulary token through the transformer, with a progress bar on a terminal.
    pub(super) fn distill(
        transformer: &Transformer,
        dimensions: usize,
    ) -> Result<Self, EmbedError> {
        let (cls, sep) = (
            transformer.special_id("[CLS]")?,
            transformer.special_id("[SEP]")?,
        );
        let vocabulary = transformer.vocabulary_size as u32;
        let bar = ProgressBar::with_draw_target(
            Some(u64::from(vocabulary)),
            ProgressDrawTarget::stderr(),
        );
        bar.set_style(
            ProgressStyle::with_template(
                "distilling passage encoder {bar:30} {pos}/{len} tokens ({eta})",
            )
            .expect("static template"),
        );
        let mut rows = Vec::with_capacity(vocabulary as usize * dimensions);
        let ids: Vec<u32> = (0..vocabulary).collect();
        for chunk in ids.chunks(DISTILL_BATCH) {
            let sequences: Vec<[u32; 3]> = chunk.iter().map(|&id| [cls, id, sep]).collect();
            let slices: Vec<&[u32]> = sequences.iter().map(|s| s.as_slice()).collect();
            for vector in transformer.forward(&slices)? {
                rows.extend(vector);
            }
            bar.inc(chunk.len() as u64);
        }
        bar.finish_and_clear();
        Ok(Self { rows, dimensions })
    }

    /// Reads a table written by `save` for the model `model_id`; `None` when the file is
    /// absent, from another model, truncated, or not a table.
    pub fn load(path: &Path, model_id: &[u8; 16], shape: (usize, usize)) -> Option<Self> {
        let (vocabulary, dimensions) = shape;
        let mut file = BufReader::new(File::open(path).ok()?);
        let mut header = [0u8; 24];
        file.read_exact(&mut header).ok()?;
        let stored_dimensions = u32::from_le_bytes(header[4..8].try_into().ok()?) as usize;
        if &header[..4] != MAGIC || &header[8..] != model_id || stored_dimensions != dimensions {
            return None;
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).ok()?;
        if bytes.len() != 4 * dimensions * vocabulary {
            return None;
        }
        let rows = bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Some(Self { rows, dimensions })
    }

    /// Writes the table beside the model, atomically (temporary file, then rename).
    pub fn save(&self, path: &Path, model_id: &[u8; 16]) -> std::io::Result<()> {
        let temporary = path.with_extension(format!("tmp{}", std::process::id()));
        let mut file = BufWriter::new(File::create(&temporary)?);
        file.write_all(MAGIC)?;
        file.write_all(&(self.dimensions as u32).to_le_bytes())?;
        file.write_all(model_id)?;
        for value in &self.rows {
            file.write_all(&value.to_le_bytes())?;
        }
        file.into_inner()?.sync_all()?;
        std::fs::rename(&temporary, path)
    }

    /// The unit-length mean of the rows of `ids`, skipping special tokens; zero when no word
    /// token is left.
    pub fn encode(&self, ids: &[u32]) -> Vec<f32> {
        let mut sum = vec![0f32; self.dimensions];
        for &id in ids.iter().filter(|&&id| id >= FIRST_WORD_ID) {
            let start = id as usize * self.dimensions;
            if let Some(row) = self.rows.get(start..start + self.dimensions) {
                sum.iter_mut().zip(row).for_each(|(s, r)| *s += r);
            }
        }
        let norm = sum.iter().map(|v| v * v).sum::<f32>().sqrt();
        if norm > 0.0 {
            sum.iter_mut().for_each(|v| *v /= norm);
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> DistilledTable {
        let dimensions = 2;
        let mut rows = vec![0.0; (FIRST_WORD_ID as usize + 2) * dimensions];
        let word = FIRST_WORD_ID as usize * dimensions;
        rows[word..].copy_from_slice(&[3.0, 0.0, 0.0, 4.0]);
        rows[101 * dimensions] = 100.0;
        DistilledTable { rows, dimensions }
    }

    #[test]
    fn a_text_is_the_normalised_mean_of_its_word_rows() {
        let table = table();
        let word = FIRST_WORD_ID;
        assert_eq!(table.encode(&[101, word, word + 1, 102]), [0.6, 0.8]);
        assert_eq!(table.encode(&[101, 102]), [0.0, 0.0], "special tokens only");
        assert_eq!(table.encode(&[word + 7]), [0.0, 0.0], "out of vocabulary");
    }

    #[test]
    fn a_saved_table_loads_only_for_its_own_model() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(TABLE_FILE);
        let table = table();
        table.save(&path, &[1; 16]).unwrap();
        let shape = (FIRST_WORD_ID as usize + 2, 2);
        let loaded = DistilledTable::load(&path, &[1; 16], shape).unwrap();
        assert_eq!(loaded.rows, table.rows);
        let load = |model: u8, shape| DistilledTable::load(&path, &[model; 16], shape);
        assert!(load(2, shape).is_none(), "other model");
        assert!(load(1, (shape.0, 3)).is_none(), "other dimensions");
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 4]).unwrap();
        assert!(load(1, shape).is_none(), "truncated");
    }
}
