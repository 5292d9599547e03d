//! One question's reading for both of its readers: the `Understanding` the vocabulary makes of
//! it (drugs, classes, sections, queries: what search reads) and the wording the graph reads
//! besides: the relation words and the relation types each asks, which condition each governs,
//! "which drugs", boxed warnings only, what drugs share, the connectors before a class's
//! example, the question's form and the words with no content. All from the reader's tables;
//! no graph nodes here.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::cues::{self, cues};
use super::form::{question_form, QuestionForm};
use super::word_tables::{alternatives, words, WordClass};
use super::{DrugVocabulary, ReadAs, Understanding};
use drugcite_core::domain::RelationType;
use drugcite_core::text::words as text_words;

/// A question as both readers read it.
#[derive(Clone, Debug)]
pub(crate) struct Reading {
    /// The question lowercased, its contractions written out and its unknown words read as
    /// label words: the text every span of the reading is in.
    pub text: String,
    /// Question words no label uses and the label words they were read as.
    pub read_as: Vec<ReadAs>,
    /// What the vocabulary understands of `text`: drugs, classes, sections asked, queries.
    pub understanding: Understanding,
    /// The relation words of `text` (`question-cues.tsv`, column `relations`), in text order.
    pub relation_cues: Vec<RelationCue>,
    pub form: QuestionForm,
    /// "Which drugs …": the understanding's open subject, or a "which" before a drug noun.
    pub asks_which: bool,
    /// A cue asks for boxed warnings only ("black box").
    pub boxed_only: bool,
    /// A cue asks what several drugs share ("in common").
    pub shared: bool,
    /// The connectors that introduce an example right after a class phrase of the
    /// understanding ("statins such as …"), each ending where the example starts.
    pub example_connectors: Vec<Range<usize>>,
}

/// A relation word of a question and the relation types it asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RelationCue {
    pub span: Range<usize>,
    pub relations: &'static [RelationType],
}

/// The cases of `default-relations.tsv`: what a question asks when its wording names no
/// relation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unasked {
    /// A condition no relation word governs.
    NoRelationWord,
    /// A yes/no question naming two drugs, no condition and no relation word.
    TwoDrugsYesNo,
}

/// The relation types a question asks in `case`.
pub(crate) fn default_relations(case: Unasked) -> Vec<RelationType> {
    let name = match case {
        Unasked::NoRelationWord => "no-relation-word",
        Unasked::TwoDrugsYesNo => "two-drugs-yes-no",
    };
    cues::default_relations(name).to_vec()
}

impl DrugVocabulary {
    /// `question` read for the graph: its text respelled, what the vocabulary understands of
    /// it and its wording.
    pub(crate) fn read(&self, question: &str) -> Reading {
        let (text, read_as) = self.respelled(question);
        let understanding = self.understand(&text);
        let class_ends = understanding
            .drugs
            .iter()
            .filter(|m| m.class.is_some())
            .filter_map(|m| text.find(&m.word).map(|at| at + m.word.len()));
        let example_connectors = class_ends
            .filter_map(|end| example_connector(&text, end))
            .collect();
        let cues = cues();
        Reading {
            relation_cues: relation_cues(&text),
            form: question_form(question),
            asks_which: understanding.subject_open || asks_which(&text),
            boxed_only: cues.boxed_only.is_match(&text),
            shared: cues.shared.is_match(&text),
            example_connectors,
            understanding,
            read_as,
            text,
        }
    }
}

impl Reading {
    /// Every relation type a relation word asks for, in text order, each once.
    pub(crate) fn relation_types(&self) -> Vec<RelationType> {
        let mut kinds = Vec::new();
        for kind in self.relation_cues.iter().flat_map(|cue| cue.relations) {
            if !kinds.contains(kind) {
                kinds.push(*kind);
            }
        }
        kinds
    }

    /// The relation types of the relation word nearest before `span`, else nearest after; those
    /// of `Unasked::NoRelationWord` when the question has none.
    pub(crate) fn governing_relations(&self, span: &Range<usize>) -> Vec<RelationType> {
        let cues = &self.relation_cues;
        let before = cues.iter().rev().find(|cue| cue.span.end <= span.start);
        let after = cues.iter().find(|cue| cue.span.start >= span.end);
        before
            .or(after)
            .map(|cue| cue.relations.to_vec())
            .unwrap_or_else(|| default_relations(Unasked::NoRelationWord))
    }

    /// The words of the text outside every span of `covered` that carry content: not filler,
    /// with a letter.
    pub(crate) fn unrecognized(&self, covered: &[Range<usize>]) -> Vec<String> {
        text_words(&self.text)
            .into_iter()
            .filter(|w| {
                !covered
                    .iter()
                    .any(|r| r.start <= w.span.start && w.span.end <= r.end)
            })
            .map(|w| self.text[w.span].to_owned())
            .filter(|w| !is_filler(w) && w.chars().any(char::is_alphabetic))
            .collect()
    }

    /// The runs of words outside every span of `covered` that nothing but spaces, hyphens or
    /// apostrophes separate, each from its first to its last content word: the phrases of
    /// the question nothing above read ("existing tracheoesophageal fistula").
    pub(crate) fn unrecognized_runs(&self, covered: &[Range<usize>]) -> Vec<Range<usize>> {
        let content = |span: &Range<usize>| {
            let word = &self.text[span.clone()];
            !is_filler(word) && word.chars().any(char::is_alphabetic)
        };
        let mut runs: Vec<Vec<Range<usize>>> = Vec::new();
        let mut last_end: Option<usize> = None;
        for word in text_words(&self.text) {
            let span = word.span;
            if covered
                .iter()
                .any(|r| r.start < span.end && span.start < r.end)
            {
                last_end = None;
                continue;
            }
            let joined = last_end.is_some_and(|end| {
                self.text[end..span.start]
                    .chars()
                    .all(|c| c == ' ' || c == '-' || c == '\'')
            });
            match runs.last_mut() {
                Some(run) if joined => run.push(span.clone()),
                _ => runs.push(vec![span.clone()]),
            }
            last_end = Some(span.end);
        }
        runs.into_iter()
            .filter_map(|run| {
                let first = run.iter().find(|w| content(w))?;
                let last = run.iter().rev().find(|w| content(w))?;
                Some(first.start..last.end)
            })
            .collect()
    }
}

/// The relation words of `text`: each set of relation types' cues tried as one alternation,
/// leftmost first; sorted by where they start (at one start, in the table's order of the sets).
fn relation_cues(text: &str) -> Vec<RelationCue> {
    let mut found: Vec<RelationCue> = cues()
        .relations
        .iter()
        .flat_map(|(pattern, kinds)| {
            pattern.find_iter(text).map(move |m| RelationCue {
                span: m.range(),
                relations: kinds.as_slice(),
            })
        })
        .collect();
    found.sort_by_key(|cue| cue.span.start);
    found
}

/// Whether `text` asks "which drugs …": a "which" word, at most one word, a drug noun.
fn asks_which(text: &str) -> bool {
    static ASKS_WHICH: LazyLock<Regex> = LazyLock::new(|| {
        let (which, nouns) = (
            alternatives(WordClass::Which),
            alternatives(WordClass::WhichNoun),
        );
        Regex::new(&format!(r"\b(?:{which})\s+(?:\w+\s+){{0,1}}(?:{nouns})\b"))
            .expect("which pattern")
    });
    ASKS_WHICH.is_match(text)
}

/// The connector introducing an example right after a class ending at `end` of `text`
/// ("strong CYP1A2 inhibitors like fluvoxamine", "a PPI such as omeprazole", "MAO inhibitors
/// (e.g., selegiline)"), ending where the example starts. Such a drug asks about the class,
/// not about a second partner.
pub(crate) fn example_connector(text: &str, end: usize) -> Option<Range<usize>> {
    static EXAMPLE_OF: LazyLock<Regex> = LazyLock::new(|| {
        let connectors = alternatives(WordClass::ExampleConnector);
        Regex::new(&format!(r"^[\s,]*\(?\s*(?:{connectors})\s+")).expect("example pattern")
    });
    EXAMPLE_OF.find(&text[end..]).map(|m| end..end + m.end())
}

/// Whether a word is a question word with no content of its own (`question-words.tsv`,
/// `filler`).
pub(crate) fn is_filler(word: &str) -> bool {
    words(WordClass::Filler).contains(&word)
}

#[cfg(test)]
mod tests {
    use super::super::tests::vocabulary;
    use super::*;
    use RelationType::*;

    #[test]
    fn relation_words_ask_their_types_and_govern_the_nearest_condition() {
        let v = vocabulary();
        let reading = v.read("Is sertraline contraindicated in pregnancy or does it cause rash?");
        assert_eq!(
            reading.relation_types(),
            [Contraindication, AdverseReaction, Warning]
        );
        let at = |word: &str| {
            let start = reading.text.find(word).unwrap();
            start..start + word.len()
        };
        assert_eq!(
            reading.governing_relations(&at("pregnancy")),
            [Contraindication]
        );
        assert_eq!(
            reading.governing_relations(&at("rash")),
            [AdverseReaction, Warning]
        );
        let bare = v.read("sertraline and rash");
        assert_eq!(
            bare.governing_relations(&(15..19)),
            default_relations(Unasked::NoRelationWord),
            "no relation word"
        );
        assert_eq!(reading.form, QuestionForm::YesNo);
    }

    #[test]
    fn a_whole_word_relation_cue_is_not_read_in_a_longer_phrase() {
        let reading = vocabulary().read("can sertraline be used together with pimozide");
        assert_eq!(
            reading.relation_types(),
            [Interaction],
            "\"used to\" is whole words: not read in \"used together\""
        );
        assert_eq!(reading.relation_cues[0].span, 18..36, "used together with");
        let both = vocabulary().read("is sertraline used to treat pain together with pimozide");
        assert_eq!(both.relation_types(), [Indication, Interaction]);
    }

    #[test]
    fn flags_which_drugs_boxed_only_and_shared_are_read_from_the_wording() {
        let v = vocabulary();
        assert!(
            v.read("Which other medications interact with pimozide?")
                .asks_which
        );
        assert!(v.read("drugs contraindicated with pimozide").asks_which);
        assert!(!v.read("sertraline drug interactions").asks_which);
        assert!(v.read("does pimozide have a black-box warning").boxed_only);
        assert!(!v.read("pimozide warnings").boxed_only);
        assert!(
            v.read("what do sertraline and pimozide have in common")
                .shared
        );
        assert!(!v.read("most common side effects of pimozide").shared);
    }

    #[test]
    fn an_example_connector_ends_where_the_example_starts() {
        let text = "mao inhibitors (e.g., selegiline)";
        assert_eq!(example_connector(text, 14), Some(14..22));
        assert_eq!(example_connector("statins such as x", 7), Some(7..16));
        assert_eq!(example_connector("statins and x", 7), None);
    }

    #[test]
    fn words_outside_what_was_read_are_reported_unless_filler() {
        let reading = vocabulary().read("does sertraline carry a risk of zebras");
        let sertraline = reading.text.find("sertraline").unwrap();
        let covered = sertraline..sertraline + "sertraline".len();
        let unrecognized = reading.unrecognized(std::slice::from_ref(&covered));
        assert_eq!(unrecognized, ["risk", "zebras"]);
        assert!(is_filler("carry") && !is_filler("zebras"));
    }

    #[test]
    fn unread_words_form_runs_that_punctuation_and_read_words_break() {
        let question = "sertraline w/ existing tracheo-esophageal fistula, or St. John's wort?";
        let reading = vocabulary().read(question);
        let sertraline = reading.text.find("sertraline").unwrap();
        let covered = sertraline..sertraline + "sertraline".len();
        let runs: Vec<&str> = reading
            .unrecognized_runs(std::slice::from_ref(&covered))
            .into_iter()
            .map(|run| &reading.text[run])
            .collect();
        assert_eq!(
            runs,
            ["existing tracheo-esophageal fistula", "st", "john's wort"]
        );
    }
}
