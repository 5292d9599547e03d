//! What tagging the whole corpus would cost: the words and word pieces of the sections the
//! graph reads adverse reactions from (openFDA `adverse_reactions`, `warnings_and_cautions`,
//! `warnings`, `boxed_warning`), counted once. Counting only; the rates come from the runs.

use std::io::{BufRead, BufReader};
use std::path::Path;

use anyhow::Context;
use tokenizers::Tokenizer;

use super::features::pieces;
use super::mentions::words;

/// The openFDA fields whose text the tagger would read at ingest.
pub const FIELDS: [&str; 4] = [
    "adverse_reactions",
    "warnings_and_cautions",
    "warnings",
    "boxed_warning",
];

#[derive(Clone, Copy, Debug, Default)]
pub struct CorpusSize {
    pub labels: usize,
    pub texts: usize,
    pub bytes: usize,
    pub words: usize,
    pub pieces: usize,
}

/// Counts the labels of a JSON Lines corpus (optionally .gz) and the words and pieces of `FIELDS`.
pub fn measure(corpus: &Path, tokenizer: &Tokenizer) -> anyhow::Result<CorpusSize> {
    let file = std::fs::File::open(corpus).with_context(|| corpus.display().to_string())?;
    let reader: Box<dyn std::io::Read> = if corpus.extension().is_some_and(|e| e == "gz") {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut size = CorpusSize::default();
    for line in BufReader::new(reader).lines() {
        let record: serde_json::Value = serde_json::from_str(&line?)?;
        size.labels += 1;
        for field in FIELDS {
            let texts = record[field].as_array().into_iter().flatten();
            for text in texts.filter_map(|t| t.as_str()) {
                size.texts += 1;
                size.bytes += text.len();
                size.words += words(text).len();
                size.pieces += pieces(tokenizer, text)?.0.len();
            }
        }
    }
    Ok(size)
}
