//! Acronyms a question writes in capitals, read as the long form the labels define for them
//! ("VKA": vitamin K antagonist), and the endings clinicians add to them ("ACEi": ACE
//! inhibitor). Case-sensitive on purpose: "PE" is pulmonary embolism, "pe" is nothing. Reads
//! `graph/label-acronyms.tsv` (mined) and `acronym-endings.tsv`; knows nothing of drugs.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::understanding::{rewritten, ReadAs};
use super::word_tables::{items, parsed};

/// The mined acronyms (as written) → their long forms, and the endings a question adds.
pub(super) struct Acronyms {
    long_forms: HashMap<&'static str, &'static str>,
    /// Ending → the words it stands for, longest ending first.
    endings: Vec<(&'static str, &'static str)>,
}

/// An acronym word of a question: its acronym, the long form (if the labels define one) and
/// the words its ending stands for.
struct AcronymWord<'q> {
    acronym: &'q str,
    long_form: Option<&'static str>,
    ending: &'static str,
}

impl Acronyms {
    /// The tables' acronyms and endings, parsed once.
    pub(super) fn mined() -> &'static Self {
        static ACRONYMS: LazyLock<Acronyms> = LazyLock::new(|| {
            let acronyms = parsed(&crate::tables::graph::LABEL_ACRONYMS);
            let (acronym, long_form) = (acronyms.column("acronym"), acronyms.column("long_form"));
            let long_forms = acronyms
                .rows()
                .iter()
                .map(|row| (row.cell(acronym), row.cell(long_form)));
            let endings = parsed(&crate::tables::understand::ACRONYM_ENDINGS);
            let (ending, reads_as) = (endings.column("ending"), endings.column("reads_as"));
            let mut endings: Vec<(&str, &str)> = endings
                .rows()
                .iter()
                .map(|row| {
                    (
                        row.cell(ending),
                        items(row.cell(reads_as)).next().unwrap_or(""),
                    )
                })
                .collect();
            endings.sort_by_key(|(ending, _)| std::cmp::Reverse(ending.len()));
            Acronyms {
                long_forms: long_forms.collect(),
                endings,
            }
        });
        &ACRONYMS
    }

    /// `question` with its acronym words spelled out, and what each was read as: the long form,
    /// the letters (label text uses them too) and the ending's words ("VKAs" → "vitamin K
    /// antagonist VKA"). An acronym `known` reads (lowercase: a drug or class word such as
    /// "ssri") keeps its letters and only an ending with words is spelled out. A question
    /// without a lowercase letter is left as written: shouted, every word would look like one.
    pub(super) fn spelled_out(
        &self,
        question: &str,
        known: impl Fn(&str) -> bool,
    ) -> (String, Vec<ReadAs>) {
        if !question.chars().any(char::is_lowercase) {
            return (question.to_owned(), Vec::new());
        }
        let spans = WORD.find_iter(question).map(|word| word.range());
        rewritten(question, spans, |word| self.read(word, &known))
    }

    /// What one word is read as, `None` when it is no acronym or reads as written.
    fn read(&self, word: &str, known: &impl Fn(&str) -> bool) -> Option<String> {
        let found = self.acronym_word(word, known)?;
        if found.long_form.is_none() && found.ending.is_empty() {
            return None;
        }
        let mut read: Vec<&str> = Vec::new();
        match found.long_form {
            Some(long_form) => read.extend([long_form, found.acronym]),
            None => read.push(found.acronym),
        }
        read.extend(Some(found.ending).filter(|e| !e.is_empty()));
        Some(read.join(" "))
    }

    /// `word` as an acronym with an ending: the whole word when the labels define it, else
    /// the word less its longest ending whose rest the labels define or `known` reads.
    fn acronym_word<'q>(
        &self,
        word: &'q str,
        known: &impl Fn(&str) -> bool,
    ) -> Option<AcronymWord<'q>> {
        let long_form = |acronym: &str| {
            let defined = self.long_forms.get(acronym).copied();
            defined.filter(|_| !known(&acronym.to_lowercase()))
        };
        if let Some(long) = long_form(word) {
            let found = AcronymWord {
                acronym: word,
                long_form: Some(long),
                ending: "",
            };
            return Some(found);
        }
        self.endings.iter().find_map(|(ending, reads_as)| {
            let acronym = word.strip_suffix(ending).filter(|a| is_acronym(a))?;
            let defined = self.long_forms.contains_key(acronym);
            (defined || known(&acronym.to_lowercase())).then(|| AcronymWord {
                acronym,
                long_form: long_form(acronym),
                ending: reads_as,
            })
        })
    }
}

/// Whether `word` is written as an acronym: at least two capitals and no lowercase letter.
fn is_acronym(word: &str) -> bool {
    word.chars().filter(char::is_ascii_uppercase).count() >= 2
        && !word.chars().any(char::is_lowercase)
}

/// A word of a question: letters and digits, joined by inner hyphens ("DPP-4i", "TNF-i").
static WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*").expect("valid regex"));

#[cfg(test)]
mod tests {
    use super::*;

    fn read(question: &str) -> String {
        let known = |word: &str| ["ssri", "ace", "nsaid"].contains(&word);
        Acronyms::mined().spelled_out(question, known).0
    }

    #[test]
    fn acronyms_in_capitals_read_as_the_labels_long_form() {
        assert_eq!(
            read("warfarin and INR?"),
            "warfarin and international normalized ratio INR?"
        );
        assert_eq!(
            read("inr on warfarin"),
            "inr on warfarin",
            "only as written in capitals"
        );
        assert_eq!(
            read("WARFARIN AND INR"),
            "WARFARIN AND INR",
            "a shouted question is left alone"
        );
    }

    #[test]
    fn endings_read_as_what_clinicians_mean() {
        assert_eq!(read("ACEi in pregnancy"), "ACE inhibitor in pregnancy");
        assert_eq!(
            read("SSRIs and bleeding"),
            "SSRIs and bleeding",
            "a known plural reads itself"
        );
        assert_eq!(read("on two PPIs?"), "on two proton pump inhibitor PPI?");
        assert_eq!(
            read("TNF-i boxed"),
            "tumor necrosis factor TNF inhibitor boxed"
        );
        assert_eq!(read("Hi there"), "Hi there", "one capital is no acronym");
    }

    #[test]
    fn initials_of_a_vocabulary_term_the_labels_name_read_as_the_term() {
        assert_eq!(
            read("metoprolol in SSS w/o pacer?"),
            "metoprolol in sick sinus syndrome SSS w/o pacer?"
        );
        assert_eq!(
            read("Symlin in T1DM?"),
            "Symlin in type 1 diabetes mellitus T1DM?"
        );
    }

    #[test]
    fn a_word_known_as_written_is_left_alone() {
        assert_eq!(read("SSRI and bleeding"), "SSRI and bleeding");
        let (_, read_as) = Acronyms::mined().spelled_out("ACEi", |_| false);
        assert_eq!(read_as[0].asked, "ACEi");
        assert!(read_as[0]
            .read
            .starts_with("angiotensin converting enzyme ACE inhibitor"));
    }
}
