//! The form of a question, read from its wording alone: a yes/no question ("Is X contraindicated
//! with Y?", "Can X be taken with Y?", also after a sentence or clause of context: "My father is
//! 70 and takes X. Can he take Y?"), a request for the common side effects ("most common adverse
//! reactions"), or an open question (lists, "which drugs …"). Pure text work.

use std::sync::LazyLock;

use regex::Regex;

use super::word_tables::{alternatives, threshold, WordClass};

/// A sentence or clause opening with an auxiliary verb ("Can X be taken with Y?"): at the start,
/// after a sentence's end or after a comma or semicolon ("She is pregnant, can she take X?").
static YES_NO: LazyLock<Regex> = LazyLock::new(|| {
    let verbs = alternatives(WordClass::Auxiliary);
    Regex::new(&format!(
        r"(?i)(?:^|[.!?;,]\s)\s*(?:and\s+|but\s+|so\s+)?(?:{verbs})\b"
    ))
    .expect("yes/no pattern")
});
/// A sentence or clause opening with a word that asks for a list or an account ("What …",
/// "List …", "How …").
static OPEN: LazyLock<Regex> = LazyLock::new(|| {
    let words = alternatives(WordClass::OpenQuestion);
    Regex::new(&format!(
        r"(?i)(?:^|[.!?;,]\s)\s*(?:and\s+|but\s+|so\s+)?(?:{words})\b"
    ))
    .expect("open question pattern")
});
/// A frequency word (or its adverb, "-ly") before the effects it asks for, or the effects
/// before one, at most `common_form_gap` characters apart.
static COMMON: LazyLock<Regex> = LazyLock::new(|| {
    let gap = threshold("common_form_gap");
    let frequency = alternatives(WordClass::Frequency);
    let effect = alternatives(WordClass::FrequencyEffect);
    let effect_before = alternatives(WordClass::EffectFrequency);
    let frequency_after = alternatives(WordClass::FrequencyAfter);
    Regex::new(&format!(
        r"(?i)\b(?:{frequency})(?:ly)?\b.{{0,{gap}}}\b(?:{effect})|\b(?:{effect_before})\b.{{0,{gap}}}\b(?:{frequency_after})"
    ))
    .expect("common pattern")
});

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QuestionForm {
    /// A yes/no question: the answer is a verdict with the evidence that states it.
    YesNo,
    /// The common side effects: ordered by how often the label says they occur.
    CommonSideEffects,
    #[default]
    Open,
}

/// The form of `question`.
pub fn question_form(question: &str) -> QuestionForm {
    if YES_NO.is_match(question) {
        QuestionForm::YesNo
    } else if COMMON.is_match(question) {
        QuestionForm::CommonSideEffects
    } else {
        QuestionForm::Open
    }
}

/// Whether `question` asks for a list or an account anywhere ("What …", "…, and how …"): a
/// terse question without one ("Kerendia + itraconazole?", "X in pt w/ CrCl 15?") asks
/// whether the two go together.
pub fn asks_open(question: &str) -> bool {
    OPEN.is_match(question)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yes_no_common_and_open_questions_are_told_apart() {
        assert_eq!(
            question_form("Is sertraline contraindicated with pimozide?"),
            QuestionForm::YesNo
        );
        assert_eq!(
            question_form("Can celecoxib be taken with warfarin?"),
            QuestionForm::YesNo
        );
        assert_eq!(
            question_form("What are the most common side effects of donepezil?"),
            QuestionForm::CommonSideEffects
        );
        assert_eq!(
            question_form("Which drugs are contraindicated in pregnancy?"),
            QuestionForm::Open
        );
    }

    #[test]
    fn a_yes_no_question_after_sentences_of_context_is_yes_no() {
        let asked = [
            "My father is 70 and takes sildenafil. Can he take nitroglycerin?",
            "She is pregnant, is atorvastatin ok?",
            "I have liver failure; should I avoid acetaminophen?",
        ];
        for question in asked {
            assert_eq!(question_form(question), QuestionForm::YesNo, "{question}");
        }
        assert_eq!(
            question_form("My father takes sildenafil. What interacts with it?"),
            QuestionForm::Open
        );
    }

    #[test]
    fn terse_questions_ask_nothing_open_and_wh_questions_do() {
        assert!(!asks_open("Kerendia + itraconazole?"));
        assert!(!asks_open(
            "oxybutynin syrup in pt with urinary retention - ok?"
        ));
        assert!(asks_open("What are the contraindications of metformin?"));
        assert!(asks_open("She takes warfarin. List its interactions"));
    }
}
