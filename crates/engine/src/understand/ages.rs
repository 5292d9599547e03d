//! Ages, read the same way from questions and from label sentences: the age of the person a
//! question is about ("my daughter is 9 and …", "a 16 yo", "our 3 month old") and the age
//! limits a label sentence sets ("children younger than 12 years of age", "65 years and
//! older", "2 to 17 years"). In years. Pure text work; the grammar is here, no word lists.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::word_tables::{words, WordClass};

/// The ages a label sentence limits what it says to: `from` inclusive, `below` exclusive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgeLimit {
    pub from: f32,
    pub below: f32,
}

impl AgeLimit {
    pub fn includes(&self, age: f32) -> bool {
        self.from <= age && age < self.below
    }
}

/// How a question states a person's age: "N years old" / "N-year-old" / "N yo" / "N months
/// old", "aged N", or "is N" / "I'm N" ending a clause ("she is 9 and", "I'm 28.").
static QUESTION_AGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)\b(?:
            (?P<n1>\d{1,3})[-\s]?(?P<unit1>years?|yrs?|months?|mos?)[-\s]old
          | (?P<n2>\d{1,3})\s?(?:yo|y/o|y\.o\.)
          | (?:aged|age)\s(?P<n3>\d{1,3})
          | (?:is|am|i'm|he's|she's)\s(?P<n4>\d{1,3})(?:\s?(?:years?|yrs?))?(?:\s?old)?\s*(?:[,;?!]|\.(?:\s|$)|\sand\b|$)
        )",
    )
    .expect("question age pattern")
});

/// Where `text` (lowercase) states the age of the person it is about ("9 year old", or the
/// number of "is 9 and"), and the age in years.
pub fn question_age(text: &str) -> Option<(Range<usize>, f32)> {
    let found = QUESTION_AGE.captures(text)?;
    let number = ["n1", "n2", "n3", "n4"]
        .iter()
        .find_map(|name| found.name(name))?;
    let years: f32 = number.as_str().parse().ok()?;
    let in_months = found
        .name("unit1")
        .is_some_and(|unit| unit.as_str().starts_with("mo"));
    let whole = found.get(0)?.range();
    let span = if found.name("n4").is_some() {
        number.range()
    } else {
        whole
    };
    Some((span, if in_months { years / 12.0 } else { years }))
}

/// Whether a person of `years` is of the pediatric population (`thresholds.tsv`:
/// `pediatric_below_years`).
pub fn is_pediatric(years: f32) -> bool {
    years < super::word_tables::threshold("pediatric_below_years") as f32
}

/// The limits of "younger than / less than / under / below N years|months", "N years (of age)
/// and|or older|over|above", "older than N years", "N to|through N years".
static LIMIT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
            (?:younger|less|under|below)\s(?:than\s)?(?P<below>\d{1,3})\s(?P<u1>years?|months?)
          | (?P<from>\d{1,3})\s(?P<u2>years?|months?)\s(?:of\sage\s)?(?:and|or)\s(?:older|over|above)
          | older\sthan\s(?P<above>\d{1,3})\s(?P<u3>years?|months?)
          | (?P<lo>\d{1,3})\s(?:to|through)\s(?P<hi>\d{1,3})\s(?P<u4>years?|months?)
        ",
    )
    .expect("age limit pattern")
});

/// The age limits a label sentence (lowercase) states. A limit counts only when it is an age:
/// "of age", "old" or "older" in or right after it, or a person noun (`age-subject` in
/// `question-words.tsv`) among the three words before it and no `duration-before` word ("for")
/// right before it
/// ("treated for less than 2 years" is a duration). A limit not read leaves the sentence applying to the whole population it names,
/// the more cautious reading.
pub fn age_limits(sentence: &str) -> Vec<AgeLimit> {
    LIMIT
        .captures_iter(sentence)
        .filter(|found| {
            found
                .get(0)
                .is_some_and(|whole| is_an_age(sentence, whole.range()))
        })
        .filter_map(|found| {
            let years = |number: &str, unit: &str| -> Option<f32> {
                let n: f32 = found.name(number)?.as_str().parse().ok()?;
                let months = found.name(unit)?.as_str().starts_with("month");
                Some(if months { n / 12.0 } else { n })
            };
            if let Some(below) = years("below", "u1") {
                return Some(AgeLimit { from: 0.0, below });
            }
            if let Some(from) = years("from", "u2") {
                return Some(AgeLimit {
                    from,
                    below: f32::INFINITY,
                });
            }
            if let Some(above) = years("above", "u3") {
                return Some(AgeLimit {
                    from: above + 1.0,
                    below: f32::INFINITY,
                });
            }
            let (lo, hi) = (years("lo", "u4")?, years("hi", "u4")?);
            Some(AgeLimit {
                from: lo,
                below: hi + 1.0,
            })
        })
        .collect()
}

/// Whether the limit at `range` of `sentence` is of a person's age, not a duration.
fn is_an_age(sentence: &str, range: Range<usize>) -> bool {
    let limit = &sentence[range.clone()];
    let after = sentence[range.end..].trim_start_matches([' ', '-']);
    let age_words = words(WordClass::AgeAfter);
    if limit.contains("of age")
        || limit.ends_with("older")
        || age_words.iter().any(|word| after.starts_with(word))
    {
        return true;
    }
    let subjects = words(WordClass::AgeSubject);
    let before: Vec<&str> = sentence[..range.start]
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .rev()
        .take(3)
        .collect();
    let duration = before
        .first()
        .is_some_and(|word| words(WordClass::DurationBefore).contains(word));
    !duration && before.iter().any(|word| subjects.contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn age(text: &str) -> Option<f32> {
        question_age(text).map(|(_, years)| years)
    }

    #[test]
    fn a_question_states_an_age_in_the_ways_people_write_it() {
        assert_eq!(age("my daughter is 9 and has a bad toothache."), Some(9.0));
        let text = "my daughter is 9 and has a bad toothache.";
        assert_eq!(&text[question_age(text).unwrap().0], "9");
        assert_eq!(age("our 3 year old needs tb treatment."), Some(3.0));
        assert_eq!(
            age("somapacitan in a 16 yo w/ closed epiphyses?"),
            Some(16.0)
        );
        assert_eq!(age("my 4-year-old has a vp shunt"), Some(4.0));
        assert_eq!(age("our 6 month old has a fever"), Some(0.5));
        assert_eq!(age("i'm 28 and get yeast infections"), Some(28.0));
        assert_eq!(age("the dose is 500 mg twice a day"), None);
        assert_eq!(age("my potassium is 5.8"), None);
        assert_eq!(age("he takes 2 tablets a day"), None);
    }

    #[test]
    fn a_label_sentence_limits_by_age_in_the_ways_labels_write_it() {
        let limits = age_limits("contraindicated in children younger than 12 years of age");
        assert_eq!(
            limits,
            [AgeLimit {
                from: 0.0,
                below: 12.0
            }]
        );
        assert!(limits[0].includes(9.0) && !limits[0].includes(16.0));
        let older = age_limits("in patients 65 years of age and older");
        assert!(older[0].includes(70.0) && !older[0].includes(40.0));
        let range = age_limits("adolescents 12 to 18 years of age who are obese");
        assert!(range[0].includes(18.0) && !range[0].includes(11.0));
        assert!(age_limits("use in pediatric patients has not been established").is_empty());
        let adults = age_limits("not for use in patients under 18 years");
        assert!(adults[0].includes(9.0) && !adults[0].includes(30.0));
    }

    #[test]
    fn a_duration_is_not_an_age_limit() {
        let sentence = "bone loss in children treated for less than 2 years";
        assert!(age_limits(sentence).is_empty());
        assert!(age_limits("use for 2 to 4 months in children is not recommended").is_empty());
        assert!(age_limits("in children 2 to 4 years old").len() == 1);
    }
}
