//! The form of a question, read from its wording alone: a yes/no question ("Is X contraindicated
//! with Y?", "Can X be taken with Y?"), a request for the common side effects ("most common
//! adverse reactions"), or an open question (lists, "which drugs …"). Pure text work.

use std::sync::LazyLock;

use regex::Regex;

/// The verbs that open a yes/no question ("Can X be taken with Y?").
pub const AUXILIARY_VERBS: &[&str] = &[
    "is", "are", "can", "could", "does", "do", "should", "may", "will", "would", "must",
];

static YES_NO: LazyLock<Regex> = LazyLock::new(|| {
    let verbs = AUXILIARY_VERBS.join("|");
    Regex::new(&format!(r"(?i)^\s*(?:{verbs})\b")).expect("yes/no pattern")
});
static COMMON: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:most )?(?:common|frequent|usual|typical)(?:ly)?\b.{0,30}\b(?:side effects?|adverse|reactions?|effects?)|\b(?:side effects?|adverse reactions?)\b.{0,30}\b(?:common|frequent)",
    )
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
