//! Reads the TAC 2017 brat standoff files (`txt/<LABEL>_<section>.txt` beside
//! `brat/<LABEL>_<section>.ann`) into documents with every mention type (`T` lines); events,
//! relations and normalisations are not read. No tagging, no scoring.

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::Path;

use anyhow::Context;

use super::mentions::{words, Document, Mention, KINDS};

/// The sections the annotated files cover, as their file names spell them.
const SECTIONS: &[&str] = &[
    "adverse_reactions",
    "warnings_and_precautions",
    "boxed_warnings",
];

/// Every annotated file pair under `dir` (holding `txt/` and `brat/`), sorted by file name.
pub fn read_dir(dir: &Path) -> anyhow::Result<Vec<Document>> {
    let brat = dir.join("brat");
    let mut stems: Vec<String> = std::fs::read_dir(&brat)
        .with_context(|| format!("reading {}", brat.display()))?
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter_map(|name| name.strip_suffix(".ann").map(str::to_owned))
        .collect();
    stems.sort();
    let mut documents = Vec::new();
    for stem in stems {
        let Some((label, section)) = split_stem(&stem) else {
            continue;
        };
        let ann_path = brat.join(format!("{stem}.ann"));
        let txt_path = dir.join("txt").join(format!("{stem}.txt"));
        let ann = std::fs::read_to_string(&ann_path)
            .with_context(|| format!("reading {}", ann_path.display()))?;
        let text = std::fs::read_to_string(&txt_path)
            .with_context(|| format!("reading {}", txt_path.display()))?;
        let mentions = parse(&text, &ann).map_err(|(line, message)| {
            anyhow::anyhow!("{}:{line}: {message}", ann_path.display())
        })?;
        documents.push(Document {
            label,
            section,
            words: words(&text),
            text,
            mentions,
        });
    }
    Ok(documents)
}

/// "ABIRATERONE_adverse_reactions" → ("ABIRATERONE", "adverse_reactions").
fn split_stem(stem: &str) -> Option<(String, String)> {
    SECTIONS.iter().find_map(|section| {
        let label = stem.strip_suffix(section)?.strip_suffix('_')?;
        Some((label.to_owned(), (*section).to_owned()))
    })
}

/// The distinct mentions of the `T` lines of `ann` over `text` (character offsets, fragments
/// separated by `;`), sorted; an error is (line number, message).
pub fn parse(text: &str, ann: &str) -> Result<Vec<Mention>, (usize, String)> {
    let bytes: Vec<usize> = text
        .char_indices()
        .map(|(at, _)| at)
        .chain([text.len()])
        .collect();
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
        assert_eq!(
            split_stem("A_B_boxed_warnings"),
            Some(("A_B".into(), "boxed_warnings".into()))
        );
    }
}
