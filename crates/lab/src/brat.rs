//! Brat standoff annotations of the TAC 2017 adverse-reaction labels (`txt/<LABEL>_<section>.txt`
//! beside `brat/<LABEL>_<section>.ann`): each annotated reaction with the severity and negation
//! spans that modify it, and the file pairs themselves for readers of other spans (`tagger/`).
//! Reading only; scoring and learning live in `agreement.rs` and `cues.rs`.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The sections the annotated files cover, as their file names spell them.
const SECTIONS: &[&str] = &[
    "adverse_reactions",
    "warnings_and_precautions",
    "boxed_warnings",
];

#[derive(Debug, thiserror::Error)]
pub enum BratError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} line {line}: {message}")]
    Line {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

/// One annotated section text.
#[derive(Clone, Debug)]
pub struct Document {
    /// The label part of the file name ("ABIRATERONE").
    pub label: String,
    /// The section part ("adverse_reactions").
    pub section: String,
    pub text: String,
    pub reactions: Vec<Reaction>,
}

/// An annotated adverse reaction and what modifies it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reaction {
    /// Byte range in the text, from its earliest fragment's start to its latest fragment's end.
    pub span: Range<usize>,
    /// Text of the Severity spans attached to it ("Grade 3", "severe").
    pub severities: Vec<String>,
    /// Text of the Negation spans attached to it ("no", "without").
    pub negations: Vec<String>,
}

impl Reaction {
    pub fn is_negated(&self) -> bool {
        !self.negations.is_empty()
    }
}

/// One annotated section as read from disk: its text and its annotation file, unparsed.
pub struct AnnotatedFile {
    /// The label part of the file name ("ABIRATERONE").
    pub label: String,
    /// The section part ("adverse_reactions").
    pub section: String,
    pub text: String,
    pub ann: String,
    /// Where `ann` was read from, for errors naming a line of it.
    pub ann_path: PathBuf,
}

/// Every annotated file pair under `dir` (which holds `txt/` and `brat/`) of a known section,
/// sorted by file name; each reader parses the `ann` lines it needs.
pub fn annotated_files(dir: &Path) -> Result<Vec<AnnotatedFile>, BratError> {
    let brat = dir.join("brat");
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| BratError::Io { path, source }
    };
    let mut names: Vec<String> = std::fs::read_dir(&brat)
        .map_err(io(&brat))?
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter_map(|name| name.strip_suffix(".ann").map(str::to_owned))
        .collect();
    names.sort();
    names
        .into_iter()
        .filter_map(|stem| split_stem(&stem).map(|(l, s)| (stem.clone(), l, s)))
        .map(|(stem, label, section)| {
            let ann_path = brat.join(format!("{stem}.ann"));
            let txt_path = dir.join("txt").join(format!("{stem}.txt"));
            let ann = std::fs::read_to_string(&ann_path).map_err(io(&ann_path))?;
            let text = std::fs::read_to_string(&txt_path).map_err(io(&txt_path))?;
            Ok(AnnotatedFile {
                label,
                section,
                text,
                ann,
                ann_path,
            })
        })
        .collect()
}

/// Every annotated file pair under `dir` with its reactions, sorted by file name.
pub fn read_dir(dir: &Path) -> Result<Vec<Document>, BratError> {
    annotated_files(dir)?
        .into_iter()
        .map(|file| {
            let AnnotatedFile {
                label,
                section,
                text,
                ann,
                ann_path,
            } = file;
            parse(label, section, text, &ann).map_err(|(line, message)| BratError::Line {
                path: ann_path,
                line,
                message,
            })
        })
        .collect()
}

/// "ABIRATERONE_adverse_reactions" → ("ABIRATERONE", "adverse_reactions").
fn split_stem(stem: &str) -> Option<(String, String)> {
    SECTIONS.iter().find_map(|section| {
        let label = stem.strip_suffix(section)?.strip_suffix('_')?;
        Some((label.to_owned(), (*section).to_owned()))
    })
}

/// A text span (`T` line): its type and byte range.
struct Span {
    kind: String,
    range: Range<usize>,
}

/// The document of `text` and its annotation file `ann`; an error is (line number, message).
pub fn parse(
    label: String,
    section: String,
    text: String,
    ann: &str,
) -> Result<Document, (usize, String)> {
    let bytes = char_to_byte(&text);
    let mut spans: HashMap<&str, Span> = HashMap::new();
    let mut events: Vec<(&str, Vec<&str>)> = Vec::new();
    let mut event_spans: HashMap<&str, &str> = HashMap::new();
    for (at, line) in ann.lines().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        match line.chars().next() {
            Some('T') => {
                let span = text_span(fields.get(1).copied().unwrap_or_default(), &bytes)
                    .ok_or_else(|| (at + 1, format!("bad text span: {line}")))?;
                spans.insert(fields[0], span);
            }
            Some('E') => {
                let mut parts = fields
                    .get(1)
                    .copied()
                    .unwrap_or_default()
                    .split_whitespace();
                let head = parts.next().and_then(|p| p.split_once(':'));
                let Some((_, span_id)) = head else {
                    return Err((at + 1, format!("bad event: {line}")));
                };
                event_spans.insert(fields[0], span_id);
                let args = parts.filter_map(|p| p.split_once(':')).map(|(_, e)| e);
                events.push((span_id, args.collect()));
            }
            _ => {}
        }
    }
    let modifier = |event: &str, kind: &str| {
        let span = spans.get(event_spans.get(event)?)?;
        (span.kind == kind).then(|| text[span.range.clone()].to_owned())
    };
    let mut reactions: Vec<Reaction> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (span_id, args) in events {
        let Some(span) = spans.get(span_id).filter(|s| s.kind == "AdverseReaction") else {
            continue;
        };
        let at = *index.entry(span_id).or_insert_with(|| {
            reactions.push(Reaction {
                span: span.range.clone(),
                severities: Vec::new(),
                negations: Vec::new(),
            });
            reactions.len() - 1
        });
        let reaction = &mut reactions[at];
        for event in args {
            reaction.severities.extend(modifier(event, "Severity"));
            reaction.negations.extend(modifier(event, "Negation"));
        }
    }
    reactions.sort_by_key(|r| (r.span.start, r.span.end));
    Ok(Document {
        label,
        section,
        text,
        reactions,
    })
}

/// "AdverseReaction 432 437;450 460" → the type and the byte range from 432 to 460 (fragments
/// may come in any order).
fn text_span(field: &str, bytes: &[usize]) -> Option<Span> {
    let (kind, ranges) = field.split_once(' ')?;
    let offsets: Vec<usize> = ranges
        .split([' ', ';'])
        .map(|n| n.parse().ok().and_then(|c: usize| bytes.get(c).copied()))
        .collect::<Option<_>>()?;
    let (start, end) = (*offsets.iter().min()?, *offsets.iter().max()?);
    offsets.len().is_multiple_of(2).then(|| Span {
        kind: kind.to_owned(),
        range: start..end,
    })
}

/// The byte offset of every character offset of `text`, and of its end.
pub(crate) fn char_to_byte(text: &str) -> Vec<usize> {
    text.char_indices()
        .map(|(at, _)| at)
        .chain([text.len()])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "Grade 3 rash and no édema; joint swelling or discomfort.";
    const ANN: &str = "T1\tAdverseReaction 8 12\trash\n\
        T2\tSeverity 0 7\tGrade 3\n\
        T3\tAdverseReaction 20 25\tédema\n\
        T4\tNegation 17 19\tno\n\
        T5\tAdverseReaction 27 32;45 55\tjoint discomfort\n\
        E1\tAdverseReaction:T1 Effect:E2\n\
        E2\tSeverity:T2\n\
        E3\tAdverseReaction:T3 Negated:E4\n\
        E4\tNegation:T4\n\
        E5\tAdverseReaction:T5 \n\
        A1\tCUI E1 C0015230\n";

    #[test]
    fn reactions_carry_their_severity_and_negation_at_byte_offsets() {
        let doc = parse("X".into(), "adverse_reactions".into(), TEXT.into(), ANN).unwrap();
        let texts: Vec<&str> = doc
            .reactions
            .iter()
            .map(|r| &TEXT[r.span.clone()])
            .collect();
        assert_eq!(texts, ["rash", "édema", "joint swelling or discomfort"]);
        assert_eq!(doc.reactions[0].severities, ["Grade 3"]);
        assert!(!doc.reactions[0].is_negated());
        assert_eq!(doc.reactions[1].negations, ["no"]);
        assert!(doc.reactions[2].severities.is_empty());
    }

    #[test]
    fn a_span_past_the_text_is_an_error_with_its_line() {
        let bad = "T1\tAdverseReaction 8 999\trash\n";
        let err = parse("X".into(), "s".into(), TEXT.into(), bad).unwrap_err();
        assert_eq!(err.0, 1);
        assert_eq!(
            split_stem("A_B_boxed_warnings"),
            Some(("A_B".into(), "boxed_warnings".into()))
        );
    }
}
