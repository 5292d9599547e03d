//! Reads the TAC 2017 brat files (found and read by `crate::brat`) into documents with every
//! mention type (`T` lines, each fragment); events, relations and normalisations are not read.
//! No tagging, no scoring.

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::Path;

use super::mentions::{words, Document, Mention, KINDS};
use crate::brat::{annotated_files, char_to_byte};

/// Every annotated file pair under `dir` (holding `txt/` and `brat/`), sorted by file name.
pub fn read_dir(dir: &Path) -> anyhow::Result<Vec<Document>> {
    let mut documents = Vec::new();
    for file in annotated_files(dir)? {
        let mentions = parse(&file.text, &file.ann).map_err(|(line, message)| {
            anyhow::anyhow!("{}:{line}: {message}", file.ann_path.display())
        })?;
        documents.push(Document {
            label: file.label,
            section: file.section,
            words: words(&file.text),
            text: file.text,
            mentions,
        });
    }
    Ok(documents)
}

/// The distinct mentions of the `T` lines of `ann` over `text` (character offsets, fragments
/// separated by `;`), sorted; an error is (line number, message).
pub fn parse(text: &str, ann: &str) -> Result<Vec<Mention>, (usize, String)> {
    let bytes = char_to_byte(text);
    let mut mentions = BTreeSet::new();
    for (at, line) in ann.lines().enumerate() {
        if !line.starts_with('T') {
            continue;
        }
        let bad = || (at + 1, format!("bad text span: {line}"));
        let field = line.split('\t').nth(1).ok_or_else(bad)?;
        let (kind, ranges) = field.split_once(' ').ok_or_else(bad)?;
        let Some(kind) = KINDS.iter().position(|k| *k == kind) else {
            return Err((at + 1, format!("unknown mention type {kind:?}")));
        };
        let fragments = ranges
            .split(';')
            .map(|pair| fragment(pair, &bytes))
            .collect::<Option<Vec<Range<usize>>>>()
            .ok_or_else(bad)?;
        mentions.insert(Mention::new(kind, text, fragments));
    }
    Ok(mentions.into_iter().collect())
}

/// "432 437" in characters → its byte range.
fn fragment(pair: &str, bytes: &[usize]) -> Option<Range<usize>> {
    let (start, end) = pair.trim().split_once(' ')?;
    let at = |n: &str| n.parse::<usize>().ok().and_then(|c| bytes.get(c).copied());
    let (start, end) = (at(start)?, at(end)?);
    (start < end).then_some(start..end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagger::mentions::{tags, AR, B, I, O};

    const TEXT: &str = "Grade 3 rash and no édema; joint swelling or discomfort.";
    const ANN: &str = "T1\tAdverseReaction 8 12\trash\n\
        T2\tSeverity 0 7\tGrade 3\n\
        T3\tAdverseReaction 20 25\tédema\n\
        T4\tNegation 17 19\tno\n\
        T5\tAdverseReaction 27 32;45 55\tjoint discomfort\n\
        T6\tAdverseReaction 27 41\tjoint swelling\n\
        E1\tAdverseReaction:T1 Effect:E2\n\
        A1\tCUI E1 C0015230\n";

    #[test]
    fn every_type_is_read_at_byte_offsets_with_fragments() {
        let mentions = parse(TEXT, ANN).unwrap();
        let shown: Vec<(usize, Vec<&str>)> = mentions
            .iter()
            .map(|m| {
                (
                    m.kind,
                    m.fragments.iter().map(|f| &TEXT[f.clone()]).collect(),
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                (0, vec!["rash"]),
                (0, vec!["édema"]),
                (0, vec!["joint", "discomfort"]),
                (0, vec!["joint swelling"]),
                (1, vec!["Grade 3"]),
                (3, vec!["no"]),
            ]
        );
    }

    #[test]
    fn the_tags_of_a_read_document_spell_its_contiguous_mentions() {
        let mentions = parse(TEXT, ANN).unwrap();
        let doc = Document {
            label: "X".into(),
            section: "adverse_reactions".into(),
            text: TEXT.into(),
            mentions,
            words: words(TEXT),
        };
        let (tags, stats) = tags(&doc);
        let ar: Vec<u8> = tags.tags.iter().map(|t| t[AR]).collect();
        // Grade 3 rash and no édema ; joint swelling or discomfort .
        assert_eq!(ar, [O, O, B, O, O, B, O, B, I, O, O, O]);
        assert!(
            !tags.known[10][AR],
            "discomfort: only in the discontinuous mention"
        );
        assert_eq!(stats.discontinuous, 1);
        let severity: Vec<u8> = tags.tags.iter().map(|t| t[1]).collect();
        assert_eq!(&severity[..3], [B, I, O]);
    }

    #[test]
    fn a_bad_span_or_type_is_an_error_with_its_line() {
        assert_eq!(
            parse(TEXT, "T1\tAdverseReaction 8 999\trash\n")
                .unwrap_err()
                .0,
            1
        );
        assert_eq!(parse(TEXT, "E1\tx\nT1\tDisease 0 4\tx\n").unwrap_err().0, 2);
    }
}
