//! Values a question states of a clinical measurement ("K 5.8", "CrCl 15 mL/min", "heart rate
//! is about 38", "BP 185/110") and the findings they make as labels name them ("hyperkalemia",
//! "severe renal impairment"): `measurements.tsv` and `measurement-findings.tsv`. Pure text
//! work. A value outside every finding's range makes nothing: a normal value never reads as
//! the absence of a finding.

use std::ops::Range;
use std::sync::LazyLock;

use drugcite_core::text::{occurrences, WordEdge};
use regex::Regex;

use super::reading::is_filler;
use super::understanding::ReadAs;
use super::word_tables::{bad_row, items, parsed, words, WordClass};
use crate::tables::understand as tables;

/// One name of a measurement (`measurements.tsv`).
pub(super) struct MeasurementName {
    pub phrase: &'static str,
    pub measurement: &'static str,
    units: Vec<&'static str>,
    /// The measurement each number of a two-number value is ("185/110").
    parts: Vec<&'static str>,
}

/// A range of a measurement's values and the finding it makes (`measurement-findings.tsv`).
struct FindingRange {
    measurement: &'static str,
    from: f32,
    to: f32,
    finding: &'static str,
}

/// The names, longest first.
static NAMES: LazyLock<Vec<MeasurementName>> = LazyLock::new(|| {
    let table = parsed(&tables::MEASUREMENTS);
    let [phrase, measurement, units, parts] =
        ["phrase", "measurement", "units", "parts"].map(|c| table.column(c));
    let mut names: Vec<MeasurementName> = table
        .rows()
        .iter()
        .map(|row| MeasurementName {
            phrase: row.cell(phrase),
            measurement: row.cell(measurement),
            units: items(row.cell(units)).collect(),
            parts: items(row.cell(parts)).collect(),
        })
        .collect();
    names.sort_by_key(|name| std::cmp::Reverse(name.phrase.len()));
    names
});

static FINDINGS: LazyLock<Vec<FindingRange>> = LazyLock::new(|| {
    let source = &tables::MEASUREMENT_FINDINGS;
    let table = parsed(source);
    let [measurement, from, to, finding] =
        ["measurement", "from", "to", "finding"].map(|c| table.column(c));
    let known = |m: &str| NAMES.iter().any(|n| n.measurement == m);
    let bound = |row, cell: &str, open: f32| -> f32 {
        if cell.is_empty() {
            return open;
        }
        cell.parse()
            .unwrap_or_else(|_| bad_row(source, row, format!("{cell:?} is not a number")))
    };
    table
        .rows()
        .iter()
        .map(|row| {
            let name = row.cell(measurement);
            if !known(name) {
                bad_row(
                    source,
                    row,
                    format!("{name:?} is no measurement of measurements.tsv"),
                );
            }
            FindingRange {
                measurement: name,
                from: bound(row, row.cell(from), f32::NEG_INFINITY),
                to: bound(row, row.cell(to), f32::INFINITY),
                finding: row.cell(finding),
            }
        })
        .collect()
});

/// A number as people write it ("5.8", "1,400"), a second one after a slash ("185/110"), and
/// a unit of letters, slashes, digits and "%" ("mEq/L", "mL/min/1.73 m2", "mm Hg").
static VALUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?P<first>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s?/\s?(?P<second>\d+(?:\.\d+)?))?(?P<unit>\s?(?:[a-z%µ/][a-z%µ/0-9.]*(?:\s(?:hg|m2|minute))?))?",
    )
    .expect("measured value pattern")
});

/// A value a text states of a measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// From the measurement's name to the end of its value (and unit).
    pub span: Range<usize>,
    pub measurement: &'static str,
    pub values: Vec<f32>,
}

/// Every value `lower` states of a measurement, in text order.
pub fn measured(lower: &str) -> Vec<Measured> {
    let mut found: Vec<Measured> = Vec::new();
    for name in NAMES.iter() {
        for at in occurrences(lower, name.phrase, WordEdge::Whole) {
            let overlaps = |m: &Measured| m.span.start < at.end && at.start < m.span.end;
            if found.iter().any(overlaps) {
                continue;
            }
            let start = long_form_before(lower, at.start, name.measurement);
            found.extend(value_after(lower, at, name).map(|value| Measured {
                span: start..value.span.end,
                ..value
            }));
        }
    }
    found.sort_by_key(|m| m.span.start);
    found
}

/// Where another name of the same measurement right before `at` starts (the acronym reader's
/// "creatinine clearance crcl"), else `at`.
fn long_form_before(lower: &str, at: usize, measurement: &str) -> usize {
    let before = lower[..at].trim_end();
    NAMES
        .iter()
        .filter(|n| n.measurement == measurement)
        .find(|n| {
            before.ends_with(n.phrase)
                && !before[..before.len() - n.phrase.len()].ends_with(char::is_alphanumeric)
        })
        .map_or(at, |n| before.len() - n.phrase.len())
}

/// The value right after a measurement's name at `name_at`, past linking words ("level is
/// about"); none when a unit of another measurement follows it.
fn value_after(lower: &str, name_at: Range<usize>, name: &MeasurementName) -> Option<Measured> {
    let rest = &lower[name_at.end..];
    let digit = rest.find(|c: char| c.is_ascii_digit())?;
    let gap = &rest[..digit];
    if gap.contains([',', '.', ';', '?', '!', '(', ')']) || !gap.split(' ').all(links) {
        return None;
    }
    let value = VALUE.captures(&rest[digit..])?;
    let unit = value.name("unit").filter(|u| !u.as_str().trim().is_empty());
    let end = match unit.map(|u| (u, unit_kind(u.as_str().trim(), &name.units))) {
        Some((_, UnitKind::Count | UnitKind::Other)) => return None,
        Some((written, UnitKind::Own)) => written.end(),
        None | Some((_, UnitKind::NoUnit)) => value.name("second").or(value.name("first"))?.end(),
    };
    let values = numbers(&value);
    Some(Measured {
        span: name_at.start..name_at.end + digit + end,
        measurement: name.measurement,
        values,
    })
}

/// Whether a word between a measurement's name and its value only links the two.
fn links(word: &str) -> bool {
    let word = word.trim_matches(['=', ':', '~', '-']);
    word.is_empty() || is_filler(word) || words(WordClass::MeasureLink).contains(&word)
}

/// What the words after a value are.
enum UnitKind {
    /// One of the measurement's units.
    Own,
    /// Another measurement's unit ("mmol/L" after a value of glucose in mg/dL).
    Other,
    /// A dose, count or duration ("mg", "tablets", "hours"): the number is no measured value.
    Count,
    /// No unit ("right now").
    NoUnit,
}

fn unit_kind(unit: &str, units: &[&str]) -> UnitKind {
    let compact = |u: &str| u.replace(' ', "");
    let written = compact(unit);
    let first_word = unit.split([' ', '/']).next().unwrap_or_default();
    if units.iter().any(|u| compact(u) == written) {
        UnitKind::Own
    } else if words(WordClass::CountUnit).contains(&first_word) {
        UnitKind::Count
    } else if written.contains(['/', '%'])
        || NAMES
            .iter()
            .flat_map(|n| &n.units)
            .any(|u| compact(u) == written)
    {
        UnitKind::Other
    } else {
        UnitKind::NoUnit
    }
}

/// The findings a stated value makes, in file order.
pub fn findings(measured: &Measured) -> Vec<&'static str> {
    let each = parts_of(measured.measurement, &measured.values);
    let mut out: Vec<&'static str> = Vec::new();
    for range in FINDINGS.iter() {
        let made = each
            .iter()
            .any(|(m, v)| *m == range.measurement && range.from <= *v && *v <= range.to);
        if made && !out.contains(&range.finding) {
            out.push(range.finding);
        }
    }
    out
}

/// The names of every measurement, longest first.
pub(super) fn measurement_names() -> &'static [MeasurementName] {
    &NAMES
}

/// Each number of a value with the measurement it is of: the measurement itself for one
/// number, its parts in order for a value written as two ("185/110": systolic, diastolic).
pub(super) fn parts_of(measurement: &'static str, values: &[f32]) -> Vec<(&'static str, f32)> {
    let name = NAMES.iter().find(|n| n.measurement == measurement);
    let parts = name.map_or(&[][..], |n| n.parts.as_slice());
    if parts.is_empty() {
        values.iter().take(1).map(|v| (measurement, *v)).collect()
    } else {
        parts.iter().copied().zip(values.iter().copied()).collect()
    }
}

/// The numbers of a value at the start of `text` ("5.5", "180/110", "1,400") and where the
/// value ends: after its unit when a measurement's unit follows it ("30 ml/min").
pub(super) fn number_at(text: &str) -> Option<(Vec<f32>, usize)> {
    let value = VALUE.captures(text)?;
    let values = numbers(&value);
    let unit = value.name("unit").filter(|u| {
        let written = u.as_str().trim();
        !written.is_empty() && matches!(unit_kind(written, &[]), UnitKind::Other)
    });
    let end = match unit {
        Some(u) => u.end(),
        None => value.name("second").or(value.name("first"))?.end(),
    };
    Some((values, end))
}

/// The first number of a value and its second, if written ("185/110").
fn numbers(value: &regex::Captures) -> Vec<f32> {
    ["first", "second"]
        .iter()
        .filter_map(|group| value.name(group)?.as_str().replace(',', "").parse().ok())
        .collect()
}

/// `lower` with the findings of each value it states written after the value in parentheses
/// ("k 5.8 (hyperkalemia)"), and the readings.
pub(super) fn with_findings(lower: &str) -> (String, Vec<ReadAs>) {
    let mut text = String::with_capacity(lower.len());
    let mut readings = Vec::new();
    let mut from = 0;
    for stated in measured(lower) {
        let made = findings(&stated);
        if made.is_empty() {
            continue;
        }
        let asked = &lower[stated.span.clone()];
        let read = format!("{asked} ({})", made.join(", "));
        text.push_str(&lower[from..stated.span.start]);
        text.push_str(&read);
        from = stated.span.end;
        readings.push(ReadAs {
            asked: asked.to_owned(),
            read,
        });
    }
    text.push_str(&lower[from..]);
    (text, readings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn made(text: &str) -> Vec<&'static str> {
        measured(text).iter().flat_map(findings).collect()
    }

    #[test]
    fn a_stated_value_makes_the_finding_labels_name() {
        assert_eq!(made("amiloride with k+ 5.9?"), ["hyperkalemia"]);
        assert_eq!(made("k citrate er w/ k 5.8?"), ["hyperkalemia"]);
        assert_eq!(made("my sodium level is 128"), ["hyponatremia"]);
        assert_eq!(
            made("lithostat in pt with crcl 15 ml/min?"),
            ["severe renal impairment"]
        );
        assert_eq!(
            made("heart rate is about 38 and he gets dizzy"),
            ["bradycardia"]
        );
        assert_eq!(
            made("his blood pressure is 185/110 even on"),
            ["hypertension"]
        );
        assert_eq!(
            made("perikabiven w/ tg 1,400 mg/dl?"),
            ["hypertriglyceridemia"]
        );
        assert_eq!(made("my blood sugar is 52 right now"), ["hypoglycemia"]);
    }

    #[test]
    fn normal_values_other_units_and_other_numbers_make_nothing() {
        assert!(made("potassium 4.2").is_empty());
        assert!(made("blood sugar 5.2 mmol/l").is_empty());
        assert!(made("my blood pressure medicine for 3 weeks").is_empty());
        assert!(made("take 2 tablets of potassium chloride").is_empty());
        assert!(made("pulse 8 hours later, k, 2 doses").is_empty());
        assert!(made("with vitamin k 10 mg daily").is_empty());
    }

    #[test]
    fn the_findings_are_written_after_the_value() {
        let (text, read) = with_findings("amiloride with k+ 5.9?");
        assert_eq!(text, "amiloride with k+ 5.9 (hyperkalemia)?");
        assert_eq!(read[0].asked, "k+ 5.9");
        let spelled = measured("in pt with creatinine clearance crcl 15 ml/min?");
        assert!(spelled[0].span.start == "in pt with ".len());
    }
}
