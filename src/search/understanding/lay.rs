//! Everyday phrases and the label wording a question using them also searches: the curated
//! lay terms and the glosses the labels give their own clinical words, matched on the text
//! index's stems ("ankles swell" meets "swelling"). Pure; knows nothing of drugs or sections.

use std::cell::RefCell;

use tantivy::tokenizer::TextAnalyzer;

use super::phrase_positions;

/// Lay phrases (as stems) with their label wording.
#[derive(Default)]
pub(super) struct LayTerms {
    terms: Vec<(Vec<String>, String)>,
}

impl LayTerms {
    /// The curated lay terms and the mined label glosses (`crate::curated::lay_terms`).
    pub(super) fn curated() -> Self {
        let terms = crate::curated::lay_terms()
            .into_iter()
            .map(|t| (stems(&t.phrase), t.label_wording))
            .filter(|(phrase, _)| !phrase.is_empty())
            .collect();
        Self { terms }
    }

    /// Whether a lay phrase holds the stem of `word`.
    pub(super) fn uses(&self, word: &str) -> bool {
        let word = stems(word);
        !word.is_empty()
            && self
                .terms
                .iter()
                .any(|(phrase, _)| word.iter().all(|w| phrase.contains(w)))
    }

    /// The label wording of every lay phrase `text` holds, in table order.
    pub(super) fn wording_in<'a>(&'a self, text: &str) -> impl Iterator<Item = &'a str> {
        let words = stems(text);
        self.terms
            .iter()
            .filter(move |(phrase, _)| !phrase_positions(&words, phrase).is_empty())
            .map(|(_, wording)| wording.as_str())
    }
}

impl super::DrugVocabulary {
    /// The label wording of the everyday phrases `text` holds ("erectile" of "erection"): what
    /// a label says for the words a question uses.
    pub fn label_wording_of(&self, text: &str) -> Vec<&str> {
        self.lay_terms.wording_in(text).collect()
    }
}

/// The words of `text` as the text index analyses them (lowercased, ASCII-folded, stop words
/// removed, Porter-stemmed); one analyzer per thread, since the graph build understands every
/// sentence of the corpus.
pub(super) fn stems(text: &str) -> Vec<String> {
    thread_local! {
        static ANALYZER: RefCell<TextAnalyzer> = RefCell::new(crate::store::text_analyzer());
    }
    ANALYZER.with_borrow_mut(|analyzer| {
        let mut stream = analyzer.token_stream(text);
        let mut words = Vec::new();
        while let Some(token) = stream.next() {
            words.push(token.text.clone());
        }
        words
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_match_on_stems() {
        assert_eq!(
            stems("Ankle swelling in the mornings"),
            stems("ankles swell morning")
        );
        assert_eq!(stems("in the").len(), 0, "stop words go");
        let lay = LayTerms::curated();
        let wording = |q: &str| lay.wording_in(q).collect::<Vec<_>>().join(" ");
        assert!(wording("can it make my ankles swell").contains("edema"));
        assert!(wording("breast enlargement in men").contains("gynecomastia"));
        assert!(!wording("dose for older adults").contains("edema"));
    }
}
