//! An openFDA drug-label record turned into what drugcite indexes: label metadata, the drug
//! object, and text sections cut into fingerprinted segments. Pure functions; no I/O.

mod brand_mentions;
mod record;
mod section_names;
mod segment;
pub mod spl;
mod spl_product;
mod spl_sections;
mod spl_xml;
mod stated_class;

pub use brand_mentions::{brand_mentions, BrandMention};
pub use record::{Drug, LabelMeta, LabelRecord, NameSource, RecordError, Section};
pub use section_names::{section_keys, section_name};
pub use segment::{segment_label, Segment};
pub use stated_class::stated_class;

use std::sync::LazyLock;

use crate::tables;

/// Second-person words in a segment from which it reads as addressed to the patient
/// (`patient_voice_words` of `tables/thresholds.tsv`).
pub static PATIENT_VOICE_WORDS: LazyLock<usize> =
    LazyLock::new(|| tables::THRESHOLDS.rows().number("patient_voice_words") as usize);
/// The words of that voice, matched whole and in any case (`tables/patient-voice.tsv`).
pub static PATIENT_VOICE: LazyLock<Vec<String>> = LazyLock::new(|| {
    let table = tables::PATIENT_VOICE.rows();
    table.values("word").map(str::to_owned).collect()
});

/// Whether `text` speaks to the patient ("Tell your healthcare provider if you…"), as medication
/// guides do; professional label text never says "you". Words are split where the index's
/// tokenizer splits them (at every character neither letter nor digit), so the same count is
/// read from the index's postings (`Snapshot::catalog`) without the text.
pub fn addresses_patient(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| PATIENT_VOICE.iter().any(|v| w.eq_ignore_ascii_case(v)))
        .nth(*PATIENT_VOICE_WORDS - 1)
        .is_some()
}

/// Public DailyMed page of a label's set id: where anyone can check the official text.
pub fn dailymed_url(set_id: &str) -> String {
    format!("https://dailymed.nlm.nih.gov/dailymed/drugInfo.cfm?setid={set_id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medication_guide_voice_is_told_from_professional_text() {
        assert!(addresses_patient(
            "Tell your healthcare provider if you have kidney problems."
        ));
        assert!(!addresses_patient(
            "Monitor renal function in patients with renal impairment."
        ));
        assert!(
            !addresses_patient("Ask you once."),
            "one word is not a voice"
        );
    }
}
