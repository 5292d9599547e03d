//! The segment catalog a server opens with (read from the index's columns and postings) holds
//! for every live segment exactly what reading the segment's stored fields and text gives.

use drugcite_core::label::addresses_patient;
use drugcite_store::{DataDir, Snapshot};

use crate::helpers::subset_index;

#[test]
fn the_catalog_read_from_the_index_is_what_the_stored_segments_say() {
    let snapshot = Snapshot::open_current(&DataDir::new(&subset_index().data_dir)).unwrap();
    let catalog = snapshot.catalog().unwrap();
    let (mut visited, mut patient_voiced) = (0, 0);
    snapshot
        .visit_segments(|segment| {
            let info = catalog.get(segment.fingerprint).unwrap();
            assert_eq!(info.address, segment.address);
            assert_eq!((info.label, info.current), (segment.label, segment.current));
            assert_eq!(&*info.section_key, segment.section_key);
            assert_eq!(info.text_hash, segment.text_hash);
            let voiced = addresses_patient(segment.text);
            assert_eq!(info.addresses_patient, voiced, "{}", segment.text);
            patient_voiced += usize::from(voiced);
            visited += 1;
        })
        .unwrap();
    assert_eq!(catalog.len(), visited);
    assert!(patient_voiced > 0, "the subset holds medication guides");
}
