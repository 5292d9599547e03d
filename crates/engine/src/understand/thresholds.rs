//! Limits a label sentence sets on a clinical measurement ("LVEF < 55%", "creatinine clearance
//! less than 30 mL/min", "serum potassium > 5.5 mEq/L", "FEV1 of 60% predicted or less") and
//! whether a value a question states meets one. A value at the limit meets it: the cautious
//! reading. Pure text work; the names are `measurements.tsv`'s, the comparison words
//! `question-words.tsv`'s.

use super::measurements::{measurement_names, number_at, parts_of, Measured};
use super::word_tables::{words, WordClass};
use drugcite_core::text::{occurrences, WordEdge};

/// Which side of a limit a sentence speaks of.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Side {
    Below,
    Above,
}

/// One limit a sentence sets: the measurement, the side and the limit's numbers.
#[derive(Clone, Debug, PartialEq)]
struct Limit {
    measurement: &'static str,
    side: Side,
    values: Vec<f32>,
}

/// Whether `measured` (a question's value) meets a limit `sentence` (lowercase) sets on the
/// same measurement, or on a part of it ("systolic blood pressure > 180" for "BP 185/110").
pub fn meets_a_limit(measured: &Measured, sentence: &str) -> bool {
    let asked = parts_of(measured.measurement, &measured.values);
    limits(sentence).iter().any(|limit| {
        let set = parts_of(limit.measurement, &limit.values);
        set.iter().any(|(part, bound)| {
            asked.iter().any(|(asked_part, value)| {
                asked_part == part
                    && match limit.side {
                        Side::Below => value <= bound,
                        Side::Above => value >= bound,
                    }
            })
        })
    })
}

/// Every limit `sentence` sets: a measurement's name, a few words, a comparison word
/// and a number ("lvef < 55%"), or the name, a number and a comparison after it ("30 ml/min
/// or less").
fn limits(sentence: &str) -> Vec<Limit> {
    let mut found = Vec::new();
    for name in measurement_names() {
        for at in occurrences(sentence, name.phrase, WordEdge::Whole) {
            found.extend(limit_after(&sentence[at.end..], name.measurement));
        }
    }
    found
}

/// The limit stated right after a measurement's name.
fn limit_after(rest: &str, measurement: &'static str) -> Option<Limit> {
    let digit = rest.find(|c: char| c.is_ascii_digit())?;
    let gap = rest[..digit].trim_end();
    if gap.contains([',', '.', ';', ')']) || gap.split_whitespace().count() > 6 {
        return None;
    }
    let (values, end) = number_at(&rest[digit..])?;
    let after = rest[digit + end..].trim_start();
    let before = |class| {
        words(class)
            .iter()
            .any(|w| gap.ends_with(w) && word_edge_before(gap, w))
    };
    let after_is = |class| {
        let mut rest = after;
        (0..3).any(|_| {
            let found = words(class).iter().any(|w| rest.starts_with(w));
            rest = rest.split_once(' ').map_or("", |(_, r)| r);
            found
        })
    };
    let side = if before(WordClass::LessThan) || after_is(WordClass::LessThanAfter) {
        Side::Below
    } else if before(WordClass::MoreThan) || after_is(WordClass::MoreThanAfter) {
        Side::Above
    } else {
        return None;
    };
    Some(Limit {
        measurement,
        side,
        values,
    })
}

/// Whether `word` at the end of `gap` starts a word (a symbol always does).
fn word_edge_before(gap: &str, word: &str) -> bool {
    let start = gap.len() - word.len();
    !word.starts_with(char::is_alphanumeric) || !gap[..start].ends_with(char::is_alphanumeric)
}

#[cfg(test)]
mod tests {
    use super::super::measurements::measured;
    use super::*;

    fn meets(question: &str, sentence: &str) -> bool {
        let stated = measured(question);
        assert!(!stated.is_empty(), "no value read in {question:?}");
        meets_a_limit(&stated[0], sentence)
    }

    #[test]
    fn a_value_meets_the_limits_labels_write() {
        let camzyos = "initiation in patients with lvef <55% is not recommended.";
        assert!(meets("started with an lvef of 50%?", camzyos));
        assert!(!meets("started with an lvef of 60%?", camzyos));
        let lithostat = "creatinine clearance less than 50 ml/min";
        assert!(meets("lithostat in pt with crcl 15 ml/min?", lithostat));
        assert!(meets(
            "amiloride with k+ 5.9?",
            "serum potassium greater than 5.5 meq/l"
        ));
        let amiloride = "elevated serum potassium levels (greater than 5.5 meq per liter)";
        assert!(meets("potassium is 5.9", amiloride));
        let triamterene = "potassium levels (greater than or equal to 5.5 meq per liter)";
        assert!(meets("potassium is 5.9", triamterene));
        assert!(meets(
            "crcl 25",
            "creatinine clearance [crcl] less than 30 ml per minute"
        ));
        assert!(!meets(
            "amiloride with k+ 5.2?",
            "serum potassium > 5.5 meq/l"
        ));
        assert!(meets(
            "methacholine w/ baseline fev1 55% predicted?",
            "baseline fev1 of 60% predicted or less"
        ));
        assert!(meets(
            "bp 185/110 today",
            "systolic blood pressure above 180 mm hg or diastolic above 110"
        ));
    }

    #[test]
    fn a_limit_needs_a_comparison_and_the_same_measurement() {
        assert!(!meets(
            "crcl 15 ml/min",
            "creatinine clearance of 15 ml/min was studied"
        ));
        assert!(!meets("k 5.9", "serum sodium > 5 meq/l"));
    }
}
