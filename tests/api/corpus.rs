//! The whole shared corpus (1,130 labels), segmented without indexing: every segment is an
//! exact substring of its section string, within the documented size bound.

use drugcite_core::label::{segment_label, LabelRecord};
use serde_json::Value;

use crate::helpers::corpus_lines;

#[test]
fn every_segment_of_the_corpus_is_an_exact_substring_of_its_section() {
    let lines = corpus_lines(usize::MAX);
    assert_eq!(lines.len(), 1_130);
    let mut segments = 0;
    for line in &lines {
        let value: Value = serde_json::from_str(line).unwrap();
        let record = LabelRecord::parse(&value).expect("every corpus record is usable");
        for segment in segment_label(&record) {
            let strings = value[&segment.section_key].as_array().unwrap();
            assert!(
                strings
                    .iter()
                    .any(|s| s.as_str().unwrap().contains(&segment.text)),
                "{}/{}: {:.80}",
                record.meta.set_id,
                segment.section_key,
                segment.text
            );
            assert!(segment.text.split_whitespace().count() <= 160);
            assert_eq!(segment.text.trim(), segment.text);
            segments += 1;
        }
    }
    assert!(segments > 90_000, "{segments}");
}
