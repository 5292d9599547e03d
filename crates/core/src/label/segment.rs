//! Cutting a label's sections into passage-sized segments, each an exact substring of one
//! section string, each with its fingerprint. Text is never rewritten; only boundaries are chosen.
//!
//! Sizes: about 100 words (at most 160) per segment, cut at sentence ends and numbered
//! subsection headings. 100 words is the passage size BM25 is strongest at on this corpus and
//! stays within the 256-token window of small sentence-embedding models (≈1.4 tokens a word).
//! Text that a label repeats verbatim in a more specific section (e.g. "8.1 Pregnancy" inside
//! "Use in Specific Populations") is segmented once, under the more specific section; a section
//! that is only its parent's general part ("General Precautions") is not more specific.

use std::sync::LazyLock;

use memchr::memmem;

use super::{LabelRecord, Section};
use crate::domain::Fingerprint;
use crate::tables;
use crate::text::whitespace_spans;

const TARGET_WORDS: usize = 100;
const MAX_WORDS: usize = 160;
/// A last piece shorter than this joins the previous segment (when that stays within MAX).
const MIN_TAIL_WORDS: usize = 30;
/// A section string at least this long, found inside a longer one, is masked out of it.
const MIN_REPEAT_BYTES: usize = 200;
/// What is left of a string around masked repeats is kept only from this many words up.
const MIN_REMAINDER_WORDS: usize = 8;

/// Sections that are only the untitled general part of their parent (`tables/general-parts.tsv`):
/// openFDA's `general_precautions` is the "General:" paragraph of Precautions. Such text says
/// nothing more specific than its parent does, so while the parent holds it, it is indexed there,
/// under the section readers (and question rules: "Warnings or Precautions") know.
static GENERAL_PARTS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let table = tables::GENERAL_PARTS.rows();
    table.values("section").map(str::to_owned).collect()
});

/// Abbreviations whose full stop ends no sentence, lowercase (`tables/abbreviations.tsv`).
static ABBREVIATIONS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let table = tables::ABBREVIATIONS.rows();
    table.values("abbreviation").map(str::to_owned).collect()
});

fn is_general_part(key: &str) -> bool {
    GENERAL_PARTS.iter().any(|part| part == key)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub section_key: String,
    pub text: String,
    pub fingerprint: Fingerprint,
}

/// All segments of a label, in section-key order then text order, without duplicates.
pub fn segment_label(record: &LabelRecord) -> Vec<Segment> {
    let mut seen = std::collections::HashSet::new();
    let mut segments = Vec::new();
    for section in &record.sections {
        let parts = section.strings.iter();
        for string in parts.filter(|string| !held_by_parent(string, section, &record.sections)) {
            for (start, end) in segment_spans(string, section, &record.sections) {
                let text = &string[start..end];
                let fingerprint = Fingerprint::of_segment(&record.meta.set_id, &section.key, text);
                if seen.insert(fingerprint) {
                    segments.push(Segment {
                        section_key: section.key.clone(),
                        text: text.to_owned(),
                        fingerprint,
                    });
                }
            }
        }
    }
    segments
}

/// Byte ranges of the segments of one section string.
fn segment_spans(string: &str, own: &Section, all: &[Section]) -> Vec<(usize, usize)> {
    let masked = repeated_elsewhere(string, own, all);
    let words = whitespace_spans(string);
    if masked.is_empty() {
        return pack(string, &words);
    }
    let mut spans = Vec::new();
    let mut region: Vec<(usize, usize)> = Vec::new();
    let mut flush = |region: &mut Vec<(usize, usize)>| {
        if region.len() >= MIN_REMAINDER_WORDS {
            spans.extend(pack(string, region));
        }
        region.clear();
    };
    for word in words {
        if masked.iter().any(|&(s, e)| word.0 < e && word.1 > s) {
            flush(&mut region);
        } else {
            region.push(word);
        }
    }
    flush(&mut region);
    spans
}

/// Whether `string` of a `GENERAL_PARTS` section is repeated verbatim in another section's.
fn held_by_parent(string: &str, own: &Section, all: &[Section]) -> bool {
    is_general_part(&own.key)
        && all
            .iter()
            .filter(|other| other.key != own.key)
            .flat_map(|other| &other.strings)
            .any(|parent| {
                parent.len() > string.len()
                    && memmem::find(parent.as_bytes(), string.as_bytes()).is_some()
            })
}

/// Ranges of `string` that are verbatim copies of shorter strings of other, more specific
/// sections.
fn repeated_elsewhere(string: &str, own: &Section, all: &[Section]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let specific = |s: &&Section| s.key != own.key && !is_general_part(&s.key);
    for other in all.iter().filter(specific) {
        for needle in &other.strings {
            if needle.len() < MIN_REPEAT_BYTES || needle.len() >= string.len() {
                continue;
            }
            spans.extend(
                memmem::find_iter(string.as_bytes(), needle.as_bytes())
                    .map(|at| (at, at + needle.len())),
            );
        }
    }
    spans
}

/// Groups consecutive words into segments, preferring to cut where a sentence ends; a
/// sentence longer than MAX_WORDS is cut into TARGET_WORDS windows.
fn pack(text: &str, words: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut chunks: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    let mut sentence_start = 0;
    for end in sentence_ends(text, words) {
        if end - start > MAX_WORDS {
            if sentence_start > start {
                chunks.push((start, sentence_start));
                start = sentence_start;
            }
            while end - start > MAX_WORDS {
                chunks.push((start, start + TARGET_WORDS));
                start += TARGET_WORDS;
            }
        }
        if end - start >= TARGET_WORDS {
            chunks.push((start, end));
            start = end;
        }
        sentence_start = end;
    }
    if start < words.len() {
        let tail = words.len() - start;
        match chunks.last_mut() {
            Some(last) if tail < MIN_TAIL_WORDS && words.len() - last.0 <= MAX_WORDS => {
                last.1 = words.len()
            }
            _ => chunks.push((start, words.len())),
        }
    }
    chunks
        .into_iter()
        .map(|(first, end)| (words[first].0, words[end - 1].1))
        .collect()
}

/// Word indices (exclusive ends) after which a sentence ends, plus the final word.
fn sentence_ends(text: &str, words: &[(usize, usize)]) -> Vec<usize> {
    let word = |i: usize| &text[words[i].0..words[i].1];
    let mut ends: Vec<usize> = (0..words.len().saturating_sub(1))
        .filter(|&i| ends_sentence(word(i), word(i + 1)) || starts_heading(words, text, i + 1))
        .map(|i| i + 1)
        .collect();
    if !words.is_empty() {
        ends.push(words.len());
    }
    ends
}

fn ends_sentence(word: &str, next: &str) -> bool {
    let core = word.trim_end_matches(['"', '\'', ')', ']', '”', '’']);
    if !core.ends_with(['.', '?', '!']) {
        return false;
    }
    let lower = core.trim_start_matches(['(', '[', '"']).to_lowercase();
    let single_letter = lower.chars().filter(|c| c.is_alphabetic()).count() == 1;
    if single_letter || ABBREVIATIONS.contains(&lower) {
        return false;
    }
    next.chars()
        .next()
        .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit() || "([•\"“".contains(c))
}

/// A numbered subsection heading such as "5.2 Hepatotoxicity" starts at word `i`.
fn starts_heading(words: &[(usize, usize)], text: &str, i: usize) -> bool {
    let Some(&(s, e)) = words.get(i) else {
        return false;
    };
    let number = &text[s..e];
    let numbered = number.contains('.')
        && number.len() <= 6
        && number
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    numbered
        && words
            .get(i + 1)
            .is_some_and(|&(s, _)| text[s..].starts_with(|c: char| c.is_uppercase()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::label::{Drug, LabelMeta, NameSource};

    fn label(set_id: &str, sections: &[(&str, &str)]) -> LabelRecord {
        LabelRecord {
            meta: LabelMeta {
                label_id: format!("{set_id}-v"),
                set_id: set_id.into(),
                version: "1".into(),
                effective_time: "20240101".into(),
                drug: Drug::default(),
                name_source: NameSource::GenericName,
                search_names: vec![],
                classes: vec![],
                stated_class: None,
            },
            sections: sections
                .iter()
                .map(|(k, t)| Section {
                    key: (*k).into(),
                    strings: vec![(*t).into()],
                })
                .collect(),
            html_tables: 0,
        }
    }

    fn sentence(n: usize, words: usize) -> String {
        let body: Vec<String> = (0..words - 1).map(|w| format!("w{n}x{w}")).collect();
        format!("Sentence{n} {}.", body.join(" "))
    }

    #[test]
    fn segments_are_exact_substrings_within_size_bounds() {
        let text: String = (0..40)
            .map(|n| sentence(n, 7 + n % 13))
            .collect::<Vec<_>>()
            .join("  ");
        let record = label("s", &[("adverse_reactions", &text)]);
        let segments = segment_label(&record);
        assert!(segments.len() > 3);
        for seg in &segments {
            assert!(text.contains(&seg.text));
            assert_eq!(seg.text.trim(), seg.text);
            let words = seg.text.split_whitespace().count();
            assert!(words <= MAX_WORDS, "{words}");
            assert!(
                seg.text.ends_with('.'),
                "cut at a sentence end: {}",
                seg.text
            );
        }
        let total: usize = segments
            .iter()
            .map(|s| s.text.split_whitespace().count())
            .sum();
        assert_eq!(
            total,
            text.split_whitespace().count(),
            "no word lost or repeated"
        );
    }

    #[test]
    fn an_overlong_sentence_is_windowed() {
        let text = sentence(1, 400);
        let segments = segment_label(&label("s", &[("warnings", &text)]));
        assert!(segments.len() >= 3);
        assert!(segments
            .iter()
            .all(|s| s.text.split_whitespace().count() <= MAX_WORDS));
    }

    #[test]
    fn abbreviations_and_initials_do_not_end_sentences() {
        let text = "Avoid NSAIDs, e.g. Ibuprofen, in patients. J. Smith reported it. Next one.";
        let words = whitespace_spans(text);
        let ends = sentence_ends(text, &words);
        let cut_after: Vec<&str> = ends
            .iter()
            .map(|&e| &text[words[e - 1].0..words[e - 1].1])
            .collect();
        assert_eq!(cut_after, ["patients.", "it.", "one."]);
    }

    #[test]
    fn numbered_headings_start_a_sentence() {
        let text = "risk of bleeding 5.2 Hepatotoxicity Monitor liver tests";
        let words = whitespace_spans(text);
        assert_eq!(sentence_ends(text, &words), [3, words.len()]);
    }

    /// The texts of `segments` in the section `key`, in order.
    fn texts_of<'a>(segments: &'a [Segment], key: &str) -> Vec<&'a str> {
        segments
            .iter()
            .filter(|s| s.section_key == key)
            .map(|s| s.text.as_str())
            .collect()
    }

    #[test]
    fn text_repeated_in_a_more_specific_section_is_indexed_once_there() {
        let child = format!("8.1 Pregnancy {}", sentence(1, 60));
        let lactation = format!("8.2 Lactation {}", sentence(2, 30));
        let parent = format!("8 USE IN SPECIFIC POPULATIONS {child} {lactation}");
        let record = label(
            "s",
            &[
                ("pregnancy", &child),
                ("use_in_specific_populations", &parent),
            ],
        );
        let segments = segment_label(&record);
        let of = |key: &str| texts_of(&segments, key);
        assert_eq!(of("pregnancy"), [child.as_str()]);
        assert_eq!(of("use_in_specific_populations"), [lactation.as_str()]);
    }

    #[test]
    fn a_general_part_repeated_in_its_parent_is_indexed_in_the_parent() {
        let general = format!("General: {}", sentence(1, 60));
        let patients = format!("Information for Patients: {}", sentence(2, 60));
        let parent = format!("PRECAUTIONS {general} {patients}");
        let record = label(
            "s",
            &[
                ("general_precautions", &general),
                ("information_for_patients", &patients),
                ("precautions", &parent),
            ],
        );
        let segments = segment_label(&record);
        let of = |key: &str| texts_of(&segments, key);
        assert!(of("general_precautions").is_empty());
        assert_eq!(
            of("precautions"),
            [format!("PRECAUTIONS {general}").as_str()]
        );
        assert_eq!(of("information_for_patients"), [patients.as_str()]);
        let alone = label("s", &[("general_precautions", &general)]);
        assert_eq!(
            segment_label(&alone)[0].section_key,
            "general_precautions",
            "without a parent holding it, the general part is indexed as itself"
        );
    }

    #[test]
    fn unchanged_text_keeps_its_fingerprint_in_a_new_label_version() {
        let old = label(
            "set-a",
            &[
                ("boxed_warning", "Old warning text."),
                ("contraindications", "None."),
            ],
        );
        let mut new = label(
            "set-a",
            &[
                ("boxed_warning", "New warning text."),
                ("contraindications", "None."),
            ],
        );
        new.meta.version = "2".into();
        new.meta.label_id = "set-a-v2".into();
        let fp = |r: &LabelRecord, key: &str| {
            segment_label(r)
                .into_iter()
                .find(|s| s.section_key == key)
                .unwrap()
                .fingerprint
        };
        assert_eq!(fp(&old, "contraindications"), fp(&new, "contraindications"));
        assert_ne!(fp(&old, "boxed_warning"), fp(&new, "boxed_warning"));
    }

    #[test]
    fn repeated_text_in_one_section_yields_one_segment() {
        let record = LabelRecord {
            sections: vec![Section {
                key: "warnings".into(),
                strings: vec!["Same.".into(), "Same.".into()],
            }],
            ..label("s", &[])
        };
        assert_eq!(segment_label(&record).len(), 1);
    }
}
