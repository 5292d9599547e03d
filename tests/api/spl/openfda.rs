//! openFDA's record and our SPL reading of the same label version: the four DailyMed archive
//! documents whose set id and version are also records of the openFDA versions file give the
//! same section strings (or the differences listed here, each explained in the README).

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Command;

use drugcite_core::label::spl::read_spl;
use serde_json::Value;

use crate::helpers::{scratch_dir, shared_data};

/// The DailyMed archive documents whose set id and version are also records of the openFDA
/// versions file (`/work/notes/spl-openfda-same-version.txt`): (document, set id, version).
const OPENFDA_TWINS: [(&str, &str, &str); 4] = [
    (
        "a427cdfd-7e1f-4f7c-ba6a-167e56d9d340",
        "05cf80f2-12a0-46b0-bcb7-1c982ed7bd3e",
        "2",
    ),
    (
        "68b14b0a-7d32-41fd-85b6-ce8ebfb782b1",
        "70be7d33-bc8b-4f48-84c6-a8e3d1476e97",
        "7",
    ),
    (
        "41cb3602-0974-48c4-8355-696de5f87fc4",
        "12c2b345-bf1c-4661-85a8-257c4af2bda5",
        "7",
    ),
    (
        "10395f5c-48bc-8a8a-7ebb-d8220e3bbd98",
        "676e73fb-51d2-449a-8749-1a7bcc257b11",
        "17",
    ),
];

/// Where our SPL text and openFDA's record of the same version differ: (section key, why).
/// Empty: on these four documents every section string is identical.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[];

/// The twins' SPL documents, extracted from the archive with the system `tar`.
fn extract_twins(dir: &Path) -> Vec<PathBuf> {
    let archive = shared_data().join("labels/dailymed-spl-2521.tar.xz");
    let members: Vec<String> = OPENFDA_TWINS
        .iter()
        .map(|(document, ..)| format!("./xml-files-archive/{document}.xml"))
        .collect();
    let status = Command::new("tar")
        .arg("-xJf")
        .arg(&archive)
        .arg("-C")
        .arg(dir)
        .args(&members)
        .status()
        .expect("tar");
    assert!(status.success());
    members.iter().map(|m| dir.join(m)).collect()
}

/// The openFDA records of the twins' set id and version, by set id.
fn openfda_twins() -> BTreeMap<String, Value> {
    let path = shared_data().join("labels/openfda-label-versions.jsonl.gz");
    let file = std::fs::File::open(path).unwrap();
    let mut records = BTreeMap::new();
    for line in BufReader::new(flate2::read::MultiGzDecoder::new(file)).lines() {
        let line = line.unwrap();
        let Some((_, set_id, version)) = OPENFDA_TWINS.iter().find(|t| line.contains(t.1)) else {
            continue;
        };
        let record: Value = serde_json::from_str(&line).unwrap();
        if record["set_id"] == *set_id && record["version"] == *version {
            records.insert(set_id.to_string(), record);
        }
    }
    records
}

/// The text sections of a record: string arrays other than `*_table` HTML.
fn text_sections(record: &Value) -> BTreeMap<String, Vec<String>> {
    let object = record.as_object().unwrap();
    let strings = |v: &Value| -> Option<Vec<String>> {
        v.as_array()?
            .iter()
            .map(|s| s.as_str().map(str::to_owned))
            .collect()
    };
    object
        .iter()
        .filter(|(key, _)| !key.ends_with("_table"))
        .filter_map(|(key, value)| Some((key.clone(), strings(value)?)))
        .collect()
}

#[test]
fn openfda_and_spl_of_the_same_label_version_give_the_same_section_texts() {
    let dir = scratch_dir();
    let openfda = openfda_twins();
    assert_eq!(openfda.len(), OPENFDA_TWINS.len());
    let mut differences = BTreeSet::new();
    let mut compared = 0;
    for document in extract_twins(dir.path()) {
        let spl = read_spl(&std::fs::read_to_string(&document).unwrap())
            .unwrap()
            .record;
        let twin = &openfda[spl["set_id"].as_str().unwrap()];
        for field in ["id", "version", "effective_time"] {
            assert_eq!(spl[field], twin[field], "{field} of {}", document.display());
        }
        let (ours, theirs) = (text_sections(&spl), text_sections(twin));
        let keys: BTreeSet<&String> = ours.keys().chain(theirs.keys()).collect();
        for key in keys {
            compared += 1;
            if ours.get(key) != theirs.get(key) {
                differences.insert(key.clone());
            }
        }
    }
    assert_eq!(
        compared, 121,
        "section keys compared over the four documents"
    );
    let known: BTreeSet<String> = KNOWN_DIFFERENCES.iter().map(|d| d.0.to_owned()).collect();
    assert_eq!(differences, known);
}
