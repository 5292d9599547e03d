//! The pharmacologic class a label states for its drug in Indications and Usage ("JARDIANCE is a
//! sodium-glucose co-transporter 2 (SGLT2) inhibitor indicated …"), the statement 21 CFR
//! 201.57(a)(6) asks of the Highlights. Text only: matching it to other classes is the reader's.

use std::sync::LazyLock;

use regex::Regex;

use crate::tables;
use crate::text::alphanumeric_words;

/// Most words a stated class may have; a longer phrase is a description, not a class name.
static MAX_WORDS: LazyLock<usize> =
    LazyLock::new(|| tables::THRESHOLDS.rows().number("stated_class_max_words") as usize);

/// The words of `stated-class-words.tsv` with `role`.
fn words_of(role: &str) -> Vec<String> {
    let table = tables::STATED_CLASS_WORDS.rows();
    let (word, of_role) = (table.column("word"), table.column("role"));
    let rows = table.rows().iter().filter(|row| row.cell(of_role) == role);
    rows.map(|row| row.cell(word).to_owned()).collect()
}

/// "… is a CLASS indicated", "… are CLASS that is indicated" (Highlights often drop the article).
static STATEMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:is|are)\s+(?:(?:an?|the)\s+)?([^.;:]{3,160}?)\s+(?:(?:that|which)\s+is\s+)?indicated\b",
    )
    .expect("valid regex")
});

/// A parenthesis or bracket and the space before it ("(SGLT2)", "[PTHrP]").
static PARENTHESIS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\s*(?:\([^()]*\)|\[[^\[\]]*\])").expect("valid regex"));

/// The class, lowercase, that an Indications text (a string of the section: the section, or in
/// SPL its Highlights) states its drug is a member of: the first sentence saying "… is a CLASS
/// indicated" after one of `names` (the drug's own name words, lowercase: the sentence is about
/// this drug, not a partner). Abbreviations in parentheses are left out; the class ends before
/// a clause saying what for ("contrast agent for MRI" → "contrast agent").
pub fn stated_class(indications: &str, names: &[&str]) -> Option<String> {
    indications
        .split(". ")
        .find_map(|sentence| sentence_class(sentence, names))
}

/// The class `sentence` states for the drug `names` name, trying each "is"/"are" in turn.
fn sentence_class(sentence: &str, names: &[&str]) -> Option<String> {
    let mut at = 0;
    while let Some(found) = STATEMENT.captures_at(sentence, at) {
        let (statement, class) = (found.get(0)?, found.get(1)?);
        let subject = sentence[..statement.start()].to_lowercase();
        let about_drug = alphanumeric_words(&subject).any(|word| names.contains(&word));
        match class_name(class.as_str()) {
            Some(name) if about_drug => return Some(name),
            _ => at = class.start(),
        }
    }
    None
}

/// `found` as a class name: lowercase, without parentheses, cut before a clause; `None` for
/// the parts of a combination, a description, an adverb ("is not indicated") or a phrase that
/// ends in no noun ("are recommended for each type of block indicated").
fn class_name(found: &str) -> Option<String> {
    static CUT: LazyLock<Vec<String>> = LazyLock::new(|| words_of("cut"));
    static NOT_CLASS: LazyLock<Vec<String>> = LazyLock::new(|| words_of("not-class"));
    static NOT_CLASS_ENDING: LazyLock<Vec<String>> = LazyLock::new(|| words_of("not-class-ending"));
    let mut plain = found.to_lowercase();
    while let std::borrow::Cow::Owned(outer) = PARENTHESIS.replace_all(&plain, "") {
        plain = outer; // nested parentheses ("analog (PTH(1-34))") go from the inside out
    }
    let words: Vec<&str> = plain.split_whitespace().collect();
    let end = words.iter().position(|w| CUT.iter().any(|c| c == w));
    let words = &words[..end.unwrap_or(words.len())];
    let clause = ["is", "are", "indicated"];
    let described = (words.iter()).any(|w| w.ends_with(',') || clause.contains(w));
    let parts = words
        .first()
        .is_some_and(|w| NOT_CLASS.iter().any(|n| n == w));
    let no_noun = words
        .last()
        .is_some_and(|w| NOT_CLASS_ENDING.iter().any(|e| w.ends_with(e.as_str())));
    let fits = !words.is_empty() && words.len() <= *MAX_WORDS;
    (fits && !described && !parts && !no_noun).then(|| words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_class_of_the_first_sentence_without_its_abbreviations() {
        let jardiance = "JARDIANCE is a sodium-glucose co-transporter 2 (SGLT2) inhibitor \
                         indicated to reduce the risk of cardiovascular death.";
        assert_eq!(
            stated_class(jardiance, &["jardiance"]).as_deref(),
            Some("sodium-glucose co-transporter 2 inhibitor")
        );
        let contrast = "GADAVIST is a gadolinium-based contrast agent for diagnostic magnetic \
                        resonance imaging (MRI) indicated in adults.";
        assert_eq!(
            stated_class(contrast, &["gadavist"]).as_deref(),
            Some("gadolinium-based contrast agent")
        );
        let that_is = "Sertraline is a selective serotonin reuptake inhibitor (SSRI) that is \
                       indicated for the treatment of MDD.";
        assert_eq!(
            stated_class(that_is, &["sertraline"]).as_deref(),
            Some("selective serotonin reuptake inhibitor")
        );
    }

    #[test]
    fn combinations_descriptions_and_other_drugs_state_no_class() {
        let parts = "ZOSYN is a combination of piperacillin, a penicillin-class antibacterial and \
                     tazobactam, a beta-lactamase inhibitor, indicated for infections.";
        assert_eq!(stated_class(parts, &["zosyn"]), None);
        let nested = "X is a parathyroid hormone analog (PTH(1-34)) indicated for osteoporosis.";
        let class = stated_class(nested, &["x"]);
        assert_eq!(class.as_deref(), Some("parathyroid hormone analog"));
        let partner = "Xdrug is indicated with metformin. Metformin is a biguanide indicated for …";
        assert_eq!(
            stated_class(partner, &["xdrug"]),
            None,
            "another drug's class"
        );
        assert_eq!(
            stated_class("Indicated for the relief of pain.", &["x"]),
            None
        );
        let not = "X is not indicated for use in children.";
        assert_eq!(stated_class(not, &["x"]), None);
        let participle = "Specific concentrations of lidocaine injection are recommended for \
                          each type of block indicated to produce anesthesia.";
        assert_eq!(stated_class(participle, &["lidocaine"]), None, "no noun");
        let adverb = "Sulfasalazine tablets are particularly indicated in patients who …";
        assert_eq!(stated_class(adverb, &["sulfasalazine"]), None, "an adverb");
    }

    #[test]
    fn a_later_sentence_about_the_drug_states_its_class_too() {
        let section = "1 INDICATIONS AND USAGE Warfarin sodium tablets are indicated for: \
                       prophylaxis. Warfarin sodium tablets are vitamin K antagonist indicated for: …";
        assert_eq!(
            stated_class(section, &["warfarin", "coumadin"]).as_deref(),
            Some("vitamin k antagonist")
        );
        let second_verb = "Celecoxib is indicated for pain; celecoxib capsules are nonsteroidal \
                           anti-inflammatory drug indicated for arthritis.";
        assert_eq!(
            stated_class(second_verb, &["celecoxib"]).as_deref(),
            Some("nonsteroidal anti-inflammatory drug")
        );
    }
}
