//! Conditions in label text: the open vocabularies, drugcite's curated terms, the matcher that
//! finds conditions and adverse reactions, the `drugcite extract` JSON Lines contract, and the
//! learning/scoring of the extractor. No relations, no graph, no HTTP.

pub mod lexicon;
pub mod matcher;
pub mod vocabulary;

use std::io::{BufRead, Write};

use serde::{Deserialize, Serialize};

pub use lexicon::{Lexicon, SectionGroup};
pub use matcher::{Matcher, Mention, Purpose};
pub use vocabulary::VocabularyTerm;

/// The matcher over a vocabulary and the curated terms compiled into the binary.
pub fn matcher(vocabulary: &[VocabularyTerm]) -> Matcher {
    Matcher::new(Lexicon::build(vocabulary, &lexicon::curated_terms()))
}

#[derive(Deserialize)]
struct ExtractRequest {
    id: serde_json::Value,
    #[serde(default)]
    section: String,
    text: String,
}

/// One adverse reaction found: its text and character offsets (end exclusive) in the input.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct ExtractedMention {
    pub text: String,
    pub start: usize,
    pub end: usize,
    pub condition_id: String,
    pub condition_name: String,
}

#[derive(Serialize)]
struct ExtractResponse {
    id: serde_json::Value,
    mentions: Vec<ExtractedMention>,
}

/// The adverse reactions `text` reports, read as a section named `section`.
pub fn adverse_reactions(matcher: &Matcher, section: &str, text: &str) -> Vec<ExtractedMention> {
    let purpose = Purpose::AdverseReactions(SectionGroup::of_section(section));
    matcher
        .find(text, purpose)
        .into_iter()
        .map(|m| ExtractedMention {
            text: text[m.span.clone()].to_owned(),
            start: drugcite_core::text::char_offset(text, m.span.start),
            end: drugcite_core::text::char_offset(text, m.span.end),
            condition_id: m.condition_id,
            condition_name: m.condition_name,
        })
        .collect()
}

#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    #[error("line {line}: {reason}")]
    BadLine { line: usize, reason: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// `drugcite extract`: one `{"id","section","text"}` object per input line, one
/// `{"id","mentions":[…]}` per output line, in order; blank lines skipped. Returns the number
/// of objects answered; stops at the first line that is not such an object.
pub fn extract_json_lines(
    matcher: &Matcher,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<usize, ExtractError> {
    let mut answered = 0;
    for (index, line) in input.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let request: ExtractRequest =
            serde_json::from_str(&line).map_err(|e| ExtractError::BadLine {
                line: index + 1,
                reason: e.to_string(),
            })?;
        let response = ExtractResponse {
            mentions: adverse_reactions(matcher, &request.section, &request.text),
            id: request.id,
        };
        serde_json::to_writer(&mut output, &response).map_err(std::io::Error::from)?;
        output.write_all(b"\n")?;
        answered += 1;
    }
    output.flush()?;
    Ok(answered)
}
