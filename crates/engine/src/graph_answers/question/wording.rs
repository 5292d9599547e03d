//! The wording of a graph question apart from what it names: the relation words and which
//! condition each governs, the connectors that introduce a class's example, the question words
//! that carry no content. Pure text rules; no graph nodes and no vocabularies here.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::graph::enzymes::enzyme_classes;
use crate::graph::model::RelationType;
use crate::understand::DrugMention;
use drugcite_core::text::{occurrences, words, WordEdge};

/// Relation words, each with the relation types it asks for.
static INTENTS: LazyLock<Vec<(Regex, &'static [RelationType])>> = LazyLock::new(|| {
    let intent = |pattern: &str, kinds: &'static [RelationType]| {
        (
            Regex::new(&format!(r"\b(?:{pattern})")).expect("intent pattern"),
            kinds,
        )
    };
    vec![
        intent(
            r"contraindicat\w*|should not (?:be )?(?:take|use|give)\w*|must not",
            &[RelationType::Contraindication],
        ),
        intent(
            r"interact\w*|(?:taken|take|used|use|given|give|safe)(?: together)? with|combined with|together with|in combination with|co-?administ\w*|concomitant\w*",
            &[RelationType::Interaction],
        ),
        intent(
            r"side effects?|adverse (?:reactions?|effects?|events?)|caus\w*|reactions?|lead to|leads to",
            &[RelationType::AdverseReaction, RelationType::Warning],
        ),
        intent(
            r"boxed|black[- ]box|warn\w*|precautions?|risks? of",
            &[RelationType::Warning],
        ),
        intent(
            r"treat\w*|indicated|indications?|used (?:for|to)|approved for|therapy for",
            &[RelationType::Indication],
        ),
    ]
});
/// What introduces an example right after a class name.
static EXAMPLE_OF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[\s,]*\(?\s*(?:like|such as|e\.g\.,?|including|for example,?|for instance,?)\s+")
        .expect("example pattern")
});
static BOXED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(?:boxed|black[- ]box)").expect("boxed pattern"));
static SHARED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:share\w*|in common|common to|both)\b").expect("shared pattern")
});
static ASKS_WHICH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:which|what)\s+(?:\w+\s+){0,1}(?:drugs?|medicines?|medications?|products?|agents?)\b",
    )
    .expect("which pattern")
});

/// Question words that carry no content of their own.
const FILLER: &[&str] = &[
    "a",
    "about",
    "also",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "both",
    "by",
    "can",
    "carry",
    "carries",
    "common",
    "do",
    "does",
    "drug",
    "drugs",
    "for",
    "from",
    "have",
    "has",
    "how",
    "i",
    "if",
    "in",
    "is",
    "it",
    "its",
    "me",
    "medication",
    "medications",
    "medicine",
    "medicines",
    "my",
    "of",
    "on",
    "or",
    "other",
    "same",
    "severe",
    "share",
    "shared",
    "that",
    "the",
    "their",
    "them",
    "there",
    "these",
    "they",
    "this",
    "those",
    "to",
    "was",
    "were",
    "what",
    "when",
    "which",
    "who",
    "why",
    "with",
    "you",
    "your",
];

/// The words that introduce a drug as an example of the class just before it ("strong CYP1A2
/// inhibitors like fluvoxamine", "a PPI such as omeprazole", "MAO inhibitors (e.g.,
/// selegiline)"), each ending where the example starts. Such a drug asks about the class, not
/// about a second partner.
pub(super) fn example_connectors(lower: &str, mentions: &[DrugMention]) -> Vec<Range<usize>> {
    let class_ends = enzyme_classes(lower)
        .into_iter()
        .map(|class| class.span.end)
        .chain(
            mentions
                .iter()
                .filter(|m| m.class.is_some())
                .filter_map(|m| lower.find(&m.word).map(|at| at + m.word.len())),
        );
    class_ends
        .filter_map(|end| EXAMPLE_OF.find(&lower[end..]).map(|m| end..end + m.end()))
        .collect()
}

/// The span of the word starting at `start` (letters, digits and hyphens).
pub(super) fn word_at(lower: &str, start: usize) -> Range<usize> {
    let length = lower[start..]
        .find(|c: char| !c.is_alphanumeric() && c != '-')
        .unwrap_or(lower.len() - start);
    start..start + length
}

pub(super) fn intent_spans(lower: &str) -> Vec<(Range<usize>, &'static [RelationType])> {
    let mut spans: Vec<(Range<usize>, &'static [RelationType])> = INTENTS
        .iter()
        .flat_map(|(pattern, kinds)| pattern.find_iter(lower).map(move |m| (m.range(), *kinds)))
        .collect();
    spans.sort_by_key(|(span, _)| span.start);
    spans
}

/// The relation types of the relation word nearest before the condition, else nearest after;
/// adverse reactions and warnings when the question has none.
pub(super) fn governing_relations(
    intents: &[(Range<usize>, &'static [RelationType])],
    span: &Range<usize>,
) -> Vec<RelationType> {
    let before = intents.iter().rev().find(|(r, _)| r.end <= span.start);
    let after = intents.iter().find(|(r, _)| r.start >= span.end);
    before
        .or(after)
        .map(|(_, kinds)| kinds.to_vec())
        .unwrap_or_else(|| vec![RelationType::AdverseReaction, RelationType::Warning])
}

/// Where `phrase` occurs in `lower` on word boundaries (a plural `s` allowed).
pub(super) fn phrase_spans(lower: &str, phrase: &str) -> Vec<Range<usize>> {
    occurrences(lower, phrase, WordEdge::WholeOrPlural).collect()
}

pub(super) fn unrecognized(lower: &str, covered: &[Range<usize>]) -> Vec<String> {
    words(lower)
        .into_iter()
        .filter(|w| {
            !covered
                .iter()
                .any(|r| r.start <= w.span.start && w.span.end <= r.end)
        })
        .map(|w| lower[w.span].to_owned())
        .filter(|w| !FILLER.contains(&w.as_str()) && w.chars().any(char::is_alphabetic))
        .collect()
}

/// Whether the question asks for boxed warnings only.
pub(super) fn asks_boxed_only(lower: &str) -> bool {
    BOXED.is_match(lower)
}

/// Whether the question asks what several drugs share.
pub(super) fn asks_shared(lower: &str) -> bool {
    SHARED.is_match(lower)
}

/// Whether the question asks "which drugs …".
pub(super) fn asks_which(lower: &str) -> bool {
    ASKS_WHICH.is_match(lower)
}

/// Whether a word is a question word with no content of its own.
pub(super) fn is_filler(word: &str) -> bool {
    FILLER.contains(&word)
}
