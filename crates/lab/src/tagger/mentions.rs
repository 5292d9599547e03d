//! The tagger's shared terms: the six TAC 2017 mention types, a mention as byte fragments of
//! its text, a document split into words, the per-type BIO tags of a document and the mentions
//! a tag sequence spells. No file reading, no model, no scoring.

use std::ops::Range;

/// The mention types of the TAC 2017 ADR annotations, in the order of every per-type array.
pub const KINDS: [&str; 6] = [
    "AdverseReaction",
    "Severity",
    "Factor",
    "Negation",
    "DrugClass",
    "Animal",
];
/// Index of `AdverseReaction` in `KINDS`.
pub const AR: usize = 0;
pub const TYPES: usize = KINDS.len();
/// Tag values of one type's BIO layer.
pub const O: u8 = 0;
pub const B: u8 = 1;
pub const I: u8 = 2;

/// An annotated or predicted mention: its type (index in `KINDS`) and its byte fragments,
/// sorted, with fragments separated only by whitespace merged into one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mention {
    pub kind: usize,
    pub fragments: Vec<Range<usize>>,
}

impl Ord for Mention {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let key = |m: &Self| -> (usize, Vec<(usize, usize)>) {
            (
                m.kind,
                m.fragments.iter().map(|f| (f.start, f.end)).collect(),
            )
        };
        key(self).cmp(&key(other))
    }
}

impl PartialOrd for Mention {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Mention {
    /// The mention of `fragments` in `text`, normalised as the type's doc says.
    pub fn new(kind: usize, text: &str, mut fragments: Vec<Range<usize>>) -> Self {
        fragments.sort_by_key(|f| (f.start, f.end));
        let mut merged: Vec<Range<usize>> = Vec::new();
        for fragment in fragments {
            match merged.last_mut() {
                Some(last)
                    if fragment.start >= last.end
                        && text[last.end..fragment.start].trim().is_empty() =>
                {
                    last.end = last.end.max(fragment.end)
                }
                _ => merged.push(fragment),
            }
        }
        Self {
            kind,
            fragments: merged,
        }
    }

    pub fn is_contiguous(&self) -> bool {
        self.fragments.len() == 1
    }
}

/// One annotated section text and the words the tagger reads it in.
#[derive(Clone, Debug)]
pub struct Document {
    /// The label part of the file name ("ABIRATERONE").
    pub label: String,
    /// The section part ("adverse_reactions").
    pub section: String,
    pub text: String,
    /// Distinct annotated mentions, sorted.
    pub mentions: Vec<Mention>,
    /// Byte ranges of the words (see `words`).
    pub words: Vec<Range<usize>>,
}

/// The words of `text`: maximal runs of alphanumeric characters, and every other
/// non-whitespace character alone.
pub fn words(text: &str) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut run: Option<usize> = None;
    for (at, c) in text.char_indices() {
        if c.is_alphanumeric() {
            run.get_or_insert(at);
            continue;
        }
        if let Some(start) = run.take() {
            out.push(start..at);
        }
        if !c.is_whitespace() {
            out.push(at..at + c.len_utf8());
        }
    }
    if let Some(start) = run {
        out.push(start..text.len());
    }
    out
}

/// A document's training targets: per word and type a tag, and whether that tag is known
/// (a word inside a discontinuous mention only is neither taught as in nor as out).
#[derive(Clone, Debug, Default)]
pub struct Tags {
    pub tags: Vec<[u8; TYPES]>,
    pub known: Vec<[bool; TYPES]>,
}

/// What the tags could not say, counted over mentions.
#[derive(Clone, Copy, Debug, Default)]
pub struct TagStats {
    pub mentions: usize,
    pub discontinuous: usize,
    /// Contiguous mentions whose edges fall inside a word.
    pub misaligned: usize,
    /// Contiguous mentions sharing a word with an earlier (or longer) one of the same type.
    pub overlapping: usize,
}

impl TagStats {
    pub fn add(&mut self, other: TagStats) {
        self.mentions += other.mentions;
        self.discontinuous += other.discontinuous;
        self.misaligned += other.misaligned;
        self.overlapping += other.overlapping;
    }
}

/// The BIO tags of `doc`, one layer per type. Contiguous mentions are tagged earliest first,
/// the longer first at one start; one that shares a word with an already tagged mention of its
/// type is left out. Words covered only by discontinuous mentions are marked unknown.
pub fn tags(doc: &Document) -> (Tags, TagStats) {
    let n = doc.words.len();
    let mut tags = Tags {
        tags: vec![[O; TYPES]; n],
        known: vec![[true; TYPES]; n],
    };
    let mut stats = TagStats::default();
    let mut contiguous: Vec<&Mention> = doc.mentions.iter().filter(|m| m.is_contiguous()).collect();
    contiguous.sort_by_key(|m| (m.fragments[0].start, usize::MAX - m.fragments[0].end));
    for mention in &doc.mentions {
        stats.mentions += 1;
        if !mention.is_contiguous() {
            stats.discontinuous += 1;
            for fragment in &mention.fragments {
                for w in covered(&doc.words, fragment) {
                    if tags.tags[w][mention.kind] == O {
                        tags.known[w][mention.kind] = false;
                    }
                }
            }
        }
    }
    for mention in contiguous {
        let span = &mention.fragments[0];
        let inside = covered(&doc.words, span);
        let aligned = inside
            .clone()
            .next()
            .is_some_and(|w| doc.words[w].start == span.start)
            && inside
                .clone()
                .last()
                .is_some_and(|w| doc.words[w].end == span.end);
        if !aligned {
            stats.misaligned += 1;
        }
        if inside.clone().any(|w| tags.tags[w][mention.kind] != O) {
            stats.overlapping += 1;
            continue;
        }
        for (i, w) in inside.enumerate() {
            tags.tags[w][mention.kind] = if i == 0 { B } else { I };
            tags.known[w][mention.kind] = true;
        }
    }
    (tags, stats)
}

/// Indices of the words overlapping `span`.
fn covered(words: &[Range<usize>], span: &Range<usize>) -> Range<usize> {
    let first = words.partition_point(|w| w.end <= span.start);
    let end = words.partition_point(|w| w.start < span.end);
    first..end.max(first)
}

/// The mentions of type `kind` a BIO sequence over `words` spells: a B starts one, each I
/// right after continues it; an I with nothing open starts one.
pub fn spans(text: &str, words: &[Range<usize>], kind: usize, tags: &[u8]) -> Vec<Mention> {
    let mut out = Vec::new();
    let mut open: Option<Range<usize>> = None;
    for (word, &tag) in words.iter().zip(tags) {
        match (tag, open.as_mut()) {
            (I, Some(span)) => span.end = word.end,
            (B, _) | (I, None) => {
                out.extend(open.take());
                open = Some(word.clone());
            }
            _ => out.extend(open.take()),
        }
    }
    out.extend(open);
    out.into_iter()
        .map(|span| Mention::new(kind, text, vec![span]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str, mentions: Vec<Mention>) -> Document {
        Document {
            label: "X".into(),
            section: "adverse_reactions".into(),
            text: text.into(),
            mentions,
            words: words(text),
        }
    }

    #[test]
    fn words_are_alphanumeric_runs_and_single_marks() {
        let text = "Grade 3/4 rash (≥5%).";
        let got: Vec<&str> = words(text).into_iter().map(|w| &text[w]).collect();
        assert_eq!(
            got,
            ["Grade", "3", "/", "4", "rash", "(", "≥", "5", "%", ")", "."]
        );
    }

    #[test]
    fn bio_tags_from_spans_with_a_discontinuous_mention_left_unknown() {
        // "joint swelling or discomfort": joint swelling (contiguous), joint … discomfort (not).
        let text = "fatigue, joint swelling or discomfort";
        let m = |kind, frags: &[(usize, usize)]| {
            Mention::new(kind, text, frags.iter().map(|&(a, b)| a..b).collect())
        };
        let d = doc(
            text,
            vec![
                m(AR, &[(0, 7)]),
                m(AR, &[(9, 23)]),
                m(AR, &[(9, 14), (27, 37)]),
            ],
        );
        let (tags, stats) = tags(&d);
        let ar: Vec<u8> = tags.tags.iter().map(|t| t[AR]).collect();
        // fatigue , joint swelling or discomfort
        assert_eq!(ar, [B, O, B, I, O, O]);
        let known: Vec<bool> = tags.known.iter().map(|k| k[AR]).collect();
        assert_eq!(known, [true, true, true, true, true, false]);
        assert_eq!(stats.discontinuous, 1);
        assert_eq!(stats.overlapping, 0);
        let back = spans(text, &d.words, AR, &ar);
        assert_eq!(back, vec![m(AR, &[(0, 7)]), m(AR, &[(9, 23)])]);
    }

    #[test]
    fn fragments_split_by_whitespace_only_are_one_and_overlaps_are_counted() {
        let text = "severe\n  rash and severe rash";
        let joined = Mention::new(AR, text, vec![9..13, 0..6]);
        assert_eq!(joined.fragments, vec![0..13]);
        let m = |a, b| Mention::new(AR, text, std::iter::once(a..b).collect());
        let d = doc(text, vec![m(0, 13), m(9, 13), m(25, 29)]);
        let (tags, stats) = tags(&d);
        assert_eq!(stats.overlapping, 1, "rash inside severe rash");
        let ar: Vec<u8> = tags.tags.iter().map(|t| t[AR]).collect();
        assert_eq!(ar, [B, I, O, O, B]);
    }
}
