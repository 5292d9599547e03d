//! Which texts also get the transformer's vector of their opening words — an Indications
//! text's first words, a patient section's answer to "What is (drug)?" — and the row key that
//! vector is stored under in `vectors.bin` beside the text's own (distilled) row. Definitions
//! only: ingest computes these vectors, search reads them; neither ranks with them here.

use std::sync::LazyLock;

use crate::tables::search as tables;
use drugcite_core::domain::TextHash;
use drugcite_core::text::name_words;

/// Sections whose texts get an opening vector: an Indications text names what a drug treats
/// in its first words, and a condition named in lay words ("overactive thyroid") matches it
/// by meaning where BM25 and the distilled table, a bag of token vectors, cannot (role
/// `opening` of `tables/search/section-roles.tsv`).
static FIRST_WORDS_SECTIONS: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| tables::sections_with_role("opening"));

/// Sections written for patients whose answer to "What is (drug)?" says in everyday words
/// what the drug is and treats ("LYRICA is a prescription medicine used to treat pain from
/// damaged nerves"), matched as an Indications opening is (role `self_description`).
static SELF_DESCRIPTION_SECTIONS: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| tables::sections_with_role("self_description"));

/// Every section some of whose texts get an opening vector.
pub static OPENING_SECTIONS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let both = FIRST_WORDS_SECTIONS
        .iter()
        .chain(SELF_DESCRIPTION_SECTIONS.iter());
    both.copied().collect()
});

/// Words of a text that make its opening (Indications name their conditions first; fewer
/// tokens keep the transformer's cost at ingest low; `opening_words`).
pub static OPENING_WORDS: LazyLock<usize> =
    LazyLock::new(|| tables::threshold("opening_words") as usize);

/// Tag hashed with a text's hash into its opening's row key, so no text's own row can collide.
const OPENING_TAG: &str = "drugcite.opening.v1";

/// The row key of the opening vector of the text hashed `text`.
pub fn opening_key(text: TextHash) -> TextHash {
    TextHash::of(&format!("{OPENING_TAG}:{text}"))
}

/// The words of `text`, met in section `section_key`, embedded as its opening, joined by
/// single spaces: an Indications text's first words; a patient section's answer to "What is
/// (drug)?" when the text holds one; `None` for any other text.
pub fn opening_of(section_key: &str, text: &str) -> Option<String> {
    if FIRST_WORDS_SECTIONS.contains(&section_key) {
        Some(first_words(text))
    } else if SELF_DESCRIPTION_SECTIONS.contains(&section_key) {
        self_description(text).map(first_words)
    } else {
        None
    }
}

/// The first `OPENING_WORDS` words of `text`, joined by single spaces.
fn first_words(text: &str) -> String {
    text.split_whitespace()
        .take(*OPENING_WORDS)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The text after the first "What is NAME?" (or "What are NAME?") of `text` whose answer
/// starts with NAME's first word ("What is EUCRISA? EUCRISA is a prescription medicine used
/// on the skin to treat…"): "What is the most important information I should know about
/// EUCRISA?" is answered otherwise and is passed over.
fn self_description(text: &str) -> Option<&str> {
    let mut asked = ASKS.iter().flat_map(|ask| {
        text.match_indices(ask.as_str())
            .map(move |(at, _)| &text[at + ask.len()..])
    });
    asked.find_map(|rest| {
        let (name, answer) = rest.split_once('?')?;
        let answer = answer.trim_start();
        let first = |words: &str| name_words(words).next().map(str::to_lowercase);
        let named = first(name)?;
        (name.split_whitespace().count() <= *MAX_NAME_WORDS && first(answer) == Some(named))
            .then_some(answer)
    })
}

/// The questions a patient section asks of the drug, each with the space before the name
/// (`tables/search/self-description-questions.tsv`).
static ASKS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let table = tables::SELF_DESCRIPTION_QUESTIONS.rows();
    let question = table.column("question");
    let rows = table.rows().iter();
    rows.map(|row| format!("{} ", row.cell(question))).collect()
});

/// Words a drug's name takes in "What is NAME?" at most (`self_description_max_name_words`).
static MAX_NAME_WORDS: LazyLock<usize> =
    LazyLock::new(|| tables::threshold("self_description_max_name_words") as usize);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opening_has_its_own_key_and_at_most_its_words() {
        let text = TextHash::of("indicated for hyperthyroidism");
        assert_ne!(opening_key(text), text);
        assert_eq!(opening_key(text), opening_key(text));
        let long = "word ".repeat(*OPENING_WORDS + 5);
        let indications = |text| opening_of("indications_and_usage", text);
        assert_eq!(
            indications(&long).unwrap().split(' ').count(),
            *OPENING_WORDS
        );
        assert_eq!(indications(" a  b\nc ").as_deref(), Some("a b c"));
        assert_eq!(
            opening_of("adverse_reactions", "What is X? X is a pill."),
            None
        );
    }

    #[test]
    fn a_patient_section_opens_with_its_answer_to_what_the_drug_is() {
        let guide = "What is the most important information I should know about EUCRISA? \
            EUCRISA may cause allergic reactions. What is EUCRISA®? EUCRISA is a prescription \
            medicine used on the skin to treat eczema. Who should not use EUCRISA?";
        assert_eq!(
            opening_of("spl_medguide", guide).as_deref(),
            Some("EUCRISA is a prescription medicine used on the skin to treat eczema. Who should not use EUCRISA?")
        );
        let plural = "What are Carvedilol capsules? Carvedilol capsules are a beta-blocker.";
        assert_eq!(
            opening_of("spl_patient_package_insert", plural).as_deref(),
            Some("Carvedilol capsules are a beta-blocker.")
        );
        let unanswered = "What is the most important information I should know about X? Call.";
        assert_eq!(opening_of("spl_medguide", unanswered), None);
        assert_eq!(opening_of("spl_medguide", "Take X with food."), None);
    }
}
