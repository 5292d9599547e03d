//! An openFDA drug-label record turned into what drugcite indexes: label metadata, the drug
//! object, and text sections cut into fingerprinted segments. Pure functions; no I/O.

mod record;
mod section_names;
mod segment;

pub use record::{Drug, LabelMeta, LabelRecord, NameSource, RecordError, Section};
pub use section_names::section_name;
pub use segment::{segment_label, Segment};

/// Public DailyMed page of a label's set id: where anyone can check the official text.
pub fn dailymed_url(set_id: &str) -> String {
    format!("https://dailymed.nlm.nih.gov/dailymed/drugInfo.cfm?setid={set_id}")
}
