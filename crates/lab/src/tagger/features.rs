//! Per-word input vectors of the tagger's two designs: (A) frozen MiniLM token vectors of
//! chosen layers, read in overlapping windows and averaged over a word's word pieces; (B) cheap
//! ones: the engine's distilled per-token table, word shape, dictionary matches and a hashed
//! word id. No training, no decoding.

use std::ops::Range;
use std::path::Path;

use anyhow::Context;
use candle_core::Tensor;
use tokenizers::Tokenizer;

use super::bert::Bert;

/// Word pieces per window whose vectors are kept, and pieces of context read on each side.
const WINDOW_CORE: usize = 192;
const WINDOW_CONTEXT: usize = 32;
/// Buckets of the hashed lowercase word id of design B.
pub const WORD_BUCKETS: usize = 1 << 12;
/// Shape features and dictionary features per word in design B.
const SHAPES: usize = 7;
pub const DICTIONARY: usize = 5;
/// The engine's distilled table beside the model (`drugcite_engine::embed`, `distilled.rs`):
/// 4 magic bytes, u32 dimensions, 16 bytes of model id, then one f32 row per vocabulary id.
const TABLE_FILE: &str = "drugcite-distilled-v1.bin";
const TABLE_HEADER: usize = 24;

/// The model's tokenizer without truncation or padding.
pub fn tokenizer(model_dir: &Path) -> anyhow::Result<Tokenizer> {
    let path = model_dir.join("tokenizer.json");
    let mut tokenizer =
        Tokenizer::from_file(&path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    tokenizer
        .with_truncation(None)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    tokenizer.with_padding(None);
    Ok(tokenizer)
}

/// Word pieces of `text` (no special tokens): ids and byte ranges.
pub fn pieces(tokenizer: &Tokenizer, text: &str) -> anyhow::Result<(Vec<u32>, Vec<Range<usize>>)> {
    let encoding = tokenizer
        .encode(text, false)
        .map_err(|e| anyhow::anyhow!("tokenizing: {e}"))?;
    let offsets = encoding.get_offsets().iter().map(|&(a, b)| a..b).collect();
    Ok((encoding.get_ids().to_vec(), offsets))
}

/// The windows `pieces` pieces are read in: each window's core (whose vectors are kept, the cores
/// tiling `0..pieces`) and the range read, the core with up to `WINDOW_CONTEXT` pieces each side.
pub fn windows(pieces: usize) -> Vec<(Range<usize>, Range<usize>)> {
    (0..pieces)
        .step_by(WINDOW_CORE)
        .map(|core| {
            let end = (core + WINDOW_CORE).min(pieces);
            let read = core.saturating_sub(WINDOW_CONTEXT)..(end + WINDOW_CONTEXT).min(pieces);
            (core..end, read)
        })
        .collect()
}

/// `[CLS]`, the pieces, `[SEP]`: one window as the model reads it.
pub fn framed(tokenizer: &Tokenizer, ids: &[u32]) -> anyhow::Result<Vec<u32>> {
    let mut window = Vec::with_capacity(ids.len() + 2);
    window.push(special(tokenizer, "[CLS]")?);
    window.extend_from_slice(ids);
    window.push(special(tokenizer, "[SEP]")?);
    Ok(window)
}

/// The word each piece falls in (by its first byte), `None` for pieces outside every word.
pub fn piece_words(words: &[Range<usize>], offsets: &[Range<usize>]) -> Vec<Option<usize>> {
    offsets
        .iter()
        .map(|piece| {
            let at = words.partition_point(|w| w.end <= piece.start);
            (at < words.len() && words[at].start <= piece.start).then_some(at)
        })
        .collect()
}

/// Design A: for every word, the mean over its pieces of the concatenated vectors of `layers`
/// (1-based), each piece read with up to `WINDOW_CONTEXT` pieces of context on both sides.
/// Returns words × (hidden · layers) values and the pieces run through the model.
pub fn bert_features(
    bert: &Bert,
    tokenizer: &Tokenizer,
    text: &str,
    words: &[Range<usize>],
    layers: &[usize],
) -> anyhow::Result<(Vec<f32>, usize)> {
    let (ids, offsets) = pieces(tokenizer, text)?;
    let owner = piece_words(words, &offsets);
    let dims = bert.hidden * layers.len();
    let mut sums = vec![0f32; words.len() * dims];
    let mut counts = vec![0usize; words.len()];
    let mut run = 0;
    for (core, read) in windows(ids.len()) {
        let lo = read.start;
        let window = framed(tokenizer, &ids[read])?;
        run += window.len();
        let outputs = bert.forward(&window, layers)?;
        let rows: Vec<Vec<Vec<f32>>> = outputs
            .iter()
            .map(|t| t.to_vec2::<f32>())
            .collect::<candle_core::Result<_>>()?;
        for piece in core {
            let Some(word) = owner[piece] else { continue };
            counts[word] += 1;
            let target = &mut sums[word * dims..(word + 1) * dims];
            for (l, layer_rows) in rows.iter().enumerate() {
                let row = &layer_rows[piece - lo + 1];
                let part = &mut target[l * bert.hidden..(l + 1) * bert.hidden];
                part.iter_mut().zip(row).for_each(|(s, v)| *s += v);
            }
        }
    }
    for (word, &count) in counts.iter().enumerate().filter(|(_, c)| **c > 1) {
        sums[word * dims..(word + 1) * dims]
            .iter_mut()
            .for_each(|v| *v /= count as f32);
    }
    Ok((sums, run))
}

fn special(tokenizer: &Tokenizer, token: &str) -> anyhow::Result<u32> {
    tokenizer
        .token_to_id(token)
        .ok_or_else(|| anyhow::anyhow!("tokenizer has no {token}"))
}

/// The distilled per-token table of the engine, read from beside the model.
pub struct StaticTable {
    rows: Vec<f32>,
    pub dims: usize,
}

impl StaticTable {
    /// Reads the table; when the model has none yet, loads the engine's embedder (which
    /// distils and saves it, about a minute) first.
    pub fn load(model_dir: &Path) -> anyhow::Result<Self> {
        let path = model_dir.join(TABLE_FILE);
        if !path.is_file() {
            drugcite_engine::embed::Embedder::load(model_dir)?;
        }
        let bytes = std::fs::read(&path).with_context(|| path.display().to_string())?;
        anyhow::ensure!(bytes.len() > TABLE_HEADER, "{}: too short", path.display());
        let dims = u32::from_le_bytes(bytes[4..8].try_into()?) as usize;
        let rows: Vec<f32> = bytes[TABLE_HEADER..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        anyhow::ensure!(
            dims > 0 && rows.len().is_multiple_of(dims),
            "{}: bad size",
            path.display()
        );
        Ok(Self { rows, dims })
    }

    fn row(&self, id: u32) -> Option<&[f32]> {
        let start = id as usize * self.dims;
        self.rows.get(start..start + self.dims)
    }
}

/// Width of a design-B word vector.
pub fn static_dims(table: &StaticTable) -> usize {
    table.dims + SHAPES + DICTIONARY
}

/// Design B: per word the mean of its pieces' distilled rows, its shape, and whether the rule
/// extractor's adverse reactions (begin, inside) or any condition (begin, inside, and any
/// match) cover it; plus its hashed lowercase id. Returns words × `static_dims` values.
pub fn static_features(
    table: &StaticTable,
    tokenizer: &Tokenizer,
    text: &str,
    words: &[Range<usize>],
    reactions: &[Range<usize>],
    conditions: &[Range<usize>],
) -> anyhow::Result<(Vec<f32>, Vec<u32>)> {
    let (ids, offsets) = pieces(tokenizer, text)?;
    let owner = piece_words(words, &offsets);
    let dims = static_dims(table);
    let mut out = vec![0f32; words.len() * dims];
    let mut counts = vec![0usize; words.len()];
    for (&id, word) in ids.iter().zip(&owner) {
        let (Some(word), Some(row)) = (word, table.row(id)) else {
            continue;
        };
        counts[*word] += 1;
        let target = &mut out[word * dims..word * dims + table.dims];
        target.iter_mut().zip(row).for_each(|(s, v)| *s += v);
    }
    let reactions = cover(words, reactions);
    let conditions = cover(words, conditions);
    let mut hashes = Vec::with_capacity(words.len());
    for (w, range) in words.iter().enumerate() {
        let row = &mut out[w * dims..(w + 1) * dims];
        if counts[w] > 1 {
            row[..table.dims]
                .iter_mut()
                .for_each(|v| *v /= counts[w] as f32);
        }
        let word = &text[range.clone()];
        let line_start = text[..range.start]
            .chars()
            .rev()
            .find(|c| !matches!(c, ' ' | '\t'))
            .is_none_or(|c| c == '\n');
        let shape = [
            word.chars().next().is_some_and(char::is_uppercase),
            word.chars().count() > 1 && word.chars().all(|c| !c.is_lowercase()),
            word.chars().any(|c| c.is_ascii_digit()),
            !word.chars().any(char::is_alphanumeric),
            word.chars().count() <= 2,
            line_start,
            matches!(word, "(" | ")" | "[" | "]"),
        ];
        let dictionary = [
            reactions[w] == 1,
            reactions[w] == 2,
            conditions[w] == 1,
            conditions[w] == 2,
            conditions[w] > 0 || reactions[w] > 0,
        ];
        let flags = row[table.dims..].iter_mut();
        for (v, on) in flags.zip(shape.into_iter().chain(dictionary)) {
            *v = f32::from(u8::from(on));
        }
        hashes.push(word_bucket(word));
    }
    Ok((out, hashes))
}

/// Per word: 1 where a span begins, 2 inside one, 0 outside every span.
fn cover(words: &[Range<usize>], spans: &[Range<usize>]) -> Vec<u8> {
    let mut out = vec![0u8; words.len()];
    for span in spans {
        let first = words.partition_point(|w| w.end <= span.start);
        let end = words.partition_point(|w| w.start < span.end);
        for (i, w) in (first..end).enumerate() {
            out[w] = if i == 0 || out[w] == 1 { 1 } else { 2 };
        }
    }
    out
}

/// FNV-1a of the lowercase word, in `WORD_BUCKETS` buckets.
pub fn word_bucket(word: &str) -> u32 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for c in word.chars().flat_map(char::to_lowercase) {
        let mut buffer = [0u8; 4];
        for byte in c.encode_utf8(&mut buffer).bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    (hash % WORD_BUCKETS as u64) as u32
}

/// Rows of a features matrix as a tensor (words × dims).
pub fn matrix(rows: &[f32], dims: usize) -> candle_core::Result<Tensor> {
    Tensor::from_slice(rows, (rows.len() / dims, dims), &candle_core::Device::Cpu)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagger::mentions::words;

    #[test]
    fn pieces_map_to_the_word_holding_their_first_byte() {
        let text = "rash, hyperkalemia";
        let w = words(text);
        let offsets = vec![0..4, 4..5, 6..11, 11..18];
        assert_eq!(
            piece_words(&w, &offsets),
            [Some(0), Some(1), Some(2), Some(2)]
        );
        assert_eq!(cover(&w, &[6..18, 0..4]), [1, 0, 1]);
    }
}
