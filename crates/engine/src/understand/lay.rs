//! Everyday phrases and the label wording a question using them also searches: the curated
//! lay terms and the glosses the labels give their own clinical words, matched on the text
//! index's stems ("ankles swell" meets "swelling"). Pure; knows nothing of drugs or sections.

use std::cell::RefCell;

use tantivy::tokenizer::TextAnalyzer;

use super::class_phrases::phrase_positions;

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

    /// The label wording of every lay phrase `text` holds, in table order, each once (phrases
    /// with the same stems, "kidney" and "kidneys", share theirs: twice would weigh it double).
    pub(super) fn wording_in(&self, text: &str) -> Vec<&str> {
        let words = stems(text);
        let mut wording: Vec<&str> = Vec::new();
        for (phrase, said) in &self.terms {
            if !phrase_positions(&words, phrase).is_empty() && !wording.contains(&said.as_str()) {
                wording.push(said);
            }
        }
        wording
    }
}

/// The words of `text` as the text index analyses them (lowercased, ASCII-folded, stop words
/// removed, Porter-stemmed); one analyzer per thread, since the graph build understands every
/// sentence of the corpus.
pub(super) fn stems(text: &str) -> Vec<String> {
    thread_local! {
        static ANALYZER: RefCell<TextAnalyzer> = RefCell::new(drugcite_store::text_analyzer());
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
        let wording = |q: &str| lay.wording_in(q).join(" ");
        assert!(wording("can it make my ankles swell").contains("edema"));
        assert!(wording("breast enlargement in men").contains("gynecomastia"));
        assert!(!wording("dose for older adults").contains("edema"));
        assert_eq!(
            lay.wording_in("my kidneys"),
            ["renal"],
            "'kidney' and 'kidneys' have the same stems: their wording once"
        );
    }
}
