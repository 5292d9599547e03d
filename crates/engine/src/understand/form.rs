//! The form of a question, read from its wording alone: a yes/no question ("Is X contraindicated
//! with Y?", "Can X be taken with Y?"), a request for the common side effects ("most common
//! adverse reactions"), or an open question (lists, "which drugs …"). Pure text work.

use std::sync::LazyLock;

use regex::Regex;

use super::word_tables::{alternatives, threshold, WordClass};

/// A question opening with an auxiliary verb ("Can X be taken with Y?").
static YES_NO: LazyLock<Regex> = LazyLock::new(|| {
    let verbs = alternatives(WordClass::Auxiliary);
    Regex::new(&format!(r"(?i)^\s*(?:{verbs})\b")).expect("yes/no pattern")
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
}
