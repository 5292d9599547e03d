//! DailyMed SPL XML as ingest input, over the shared real SPL files: every document reported,
//! zips ingest like bare XML, bad documents counted and skipped, upper-case setIds, and the
//! section texts compared with openFDA's record of the same label version (`spl/openfda.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};

use drugcite_core::label::spl::read_spl;
use drugcite_engine::ingest::{ingest, IngestMode, IngestOptions, IngestReport, ProgressMode};
use drugcite_store::{DataDir, Snapshot};

use crate::helpers::{corpus_lines, scratch_dir, shared_data, write_jsonl};

mod openfda;

const INOMAX_SET_ID: &str = "762b51be-1893-4cd1-9511-e645fc420d3a";

fn spl_dir() -> PathBuf {
    shared_data().join("labels/spl")
}

fn versions_dir() -> PathBuf {
    shared_data().join("labels/spl-versions")
}

fn xml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    files.sort();
    files
}

/// A lexical-only ingest into a fresh data dir under `dir`.
fn run(dir: &Path, inputs: &[PathBuf]) -> (PathBuf, IngestReport) {
    let data_dir = dir.join("data");
    let options = IngestOptions {
        progress: ProgressMode::Silent,
        mode: IngestMode::Full,
        embedder: None,
        vocabulary: &[],
    };
    let report = ingest(&DataDir::new(&data_dir), inputs, &options).expect("ingest");
    (data_dir, report)
}

/// (fingerprint, set id, section key, text) of every stored segment.
fn stored_segments(data_dir: &Path) -> BTreeSet<(String, String, String, String)> {
    let snapshot = Snapshot::open_current(&DataDir::new(data_dir)).unwrap();
    let mut stored = BTreeSet::new();
    for (_, address) in snapshot.fingerprints().unwrap() {
        let s = snapshot.segment(address).unwrap();
        stored.insert((
            s.fingerprint.to_string(),
            s.label.set_id.clone(),
            s.section_key,
            s.text,
        ));
    }
    stored
}

/// Labels by set id: (version, drug name, manufacturer).
/// The current version of every label: set id → (version, drug name, manufacturer).
fn stored_labels(data_dir: &Path) -> BTreeMap<String, (String, String, String)> {
    let snapshot = Snapshot::open_current(&DataDir::new(data_dir)).unwrap();
    let labels = snapshot.current_labels().map(|(_, label)| {
        let drug = &label.drug;
        let value = (
            label.version.clone(),
            drug.name.clone(),
            drug.manufacturer.clone(),
        );
        (label.set_id.clone(), value)
    });
    labels.collect()
}

fn skipped_total(report: &IngestReport) -> u64 {
    report.labels_skipped.values().sum()
}

/// The setId attribute as the file spells it, found without an XML parser.
fn raw_set_id(xml: &str) -> &str {
    let start = xml.find("<setId root=\"").expect("setId") + "<setId root=\"".len();
    let end = start + xml[start..].find('"').unwrap();
    &xml[start..end]
}

fn version_of(xml: &str) -> u64 {
    let start = xml.find("<versionNumber value=\"").unwrap() + "<versionNumber value=\"".len();
    let end = start + xml[start..].find('"').unwrap();
    xml[start..end].parse().unwrap()
}

#[test]
fn every_shared_spl_document_is_reported_and_its_segments_are_exact_substrings() {
    let dir = scratch_dir();
    let (data_dir, report) = run(dir.path(), &[spl_dir(), versions_dir()]);
    let files: Vec<PathBuf> = [xml_files(&spl_dir()), xml_files(&versions_dir())].concat();
    assert_eq!(report.labels_read, files.len() as u64, "{report}");
    let accounted = report.labels_indexed + skipped_total(&report);
    assert_eq!(accounted, report.labels_read, "{report}");
    let set_ids: BTreeSet<String> = files
        .iter()
        .map(|f| raw_set_id(&std::fs::read_to_string(f).unwrap()).to_lowercase())
        .collect();
    let labels = stored_labels(&data_dir);
    assert_eq!(labels.keys().cloned().collect::<BTreeSet<_>>(), set_ids);
    assert_eq!(
        report.labels_indexed,
        files.len() as u64,
        "every version is kept"
    );
    assert_eq!(report.history.label_sets, set_ids.len());

    let mut sections: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for file in &files {
        let record = read_spl(&std::fs::read_to_string(file).unwrap())
            .unwrap()
            .record;
        for (key, value) in record.as_object().unwrap() {
            let Some(strings) = value.as_array() else {
                continue;
            };
            let set_id = record["set_id"].as_str().unwrap().to_owned();
            let texts = strings.iter().filter_map(|s| s.as_str().map(str::to_owned));
            sections
                .entry((set_id, key.clone()))
                .or_default()
                .extend(texts);
        }
    }
    let stored = stored_segments(&data_dir);
    assert_eq!(stored.len() as u64, report.history.segment_docs_written);
    for (_, set_id, section, text) in &stored {
        let strings = &sections[&(set_id.clone(), section.clone())];
        assert!(
            strings.iter().any(|s| s.contains(text.as_str())),
            "not an exact substring of {set_id}/{section}: {text:.80}"
        );
    }
}

#[test]
fn the_label_without_a_title_and_the_otc_cough_product_are_indexed_sensibly() {
    let dir = scratch_dir();
    let inputs = [spl_dir().join("no-title.xml"), spl_dir().join("cough.xml")];
    let (data_dir, report) = run(dir.path(), &inputs);
    assert_eq!(report.labels_indexed, 2, "{report}");
    let labels = stored_labels(&data_dir);
    let untitled = &labels["0027b8a3-73bf-4005-a7e3-b035f451a861"];
    assert_eq!(untitled.0, "1");
    assert_eq!(untitled.1, "haloperidol");
    assert_eq!(untitled.2, "Contract Pharmacy Services-PA");
    let cough = &labels["00f66f25-3469-4c16-9baf-fba21e9628bd"];
    assert_eq!(cough.1, "diphenhydramine hcl, phenylephrine hcl");
    assert_eq!(cough.2, "Novartis Consumer Health, Inc.");
    let cough_sections: BTreeSet<String> = stored_segments(&data_dir)
        .into_iter()
        .filter(|s| s.1 == "00f66f25-3469-4c16-9baf-fba21e9628bd")
        .map(|s| s.2)
        .collect();
    for otc in [
        "active_ingredient",
        "purpose",
        "do_not_use",
        "stop_use",
        "when_using",
    ] {
        assert!(cough_sections.contains(otc), "{otc} in {cough_sections:?}");
    }
}

/// A zip holding `entries` (name, bytes), as DailyMed packs a label (the XML and its images).
fn zip_bytes(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for (name, bytes) in entries {
        zip.start_file(name.as_str(), options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// One DailyMed-style zip per document: `<stem>.zip` holding `<stem>.xml` and an image.
fn label_zips(files: &[PathBuf]) -> Vec<(String, Vec<u8>)> {
    let image = (String::from("carton.jpg"), vec![0xff, 0xd8, 0xff, 0xe0]);
    files
        .iter()
        .map(|file| {
            let stem = file.file_stem().unwrap().to_str().unwrap();
            let xml = (format!("{stem}.xml"), std::fs::read(file).unwrap());
            (format!("{stem}.zip"), zip_bytes(&[xml, image.clone()]))
        })
        .collect()
}

#[test]
fn a_zip_per_label_and_a_zip_of_zips_ingest_the_same_as_the_bare_xml() {
    let dir = scratch_dir();
    let files = xml_files(&spl_dir());
    let zips_dir = dir.path().join("zips");
    std::fs::create_dir(&zips_dir).unwrap();
    let zips = label_zips(&files);
    for (name, bytes) in &zips {
        std::fs::write(zips_dir.join(name), bytes).unwrap();
    }
    let zip_of_zips = dir.path().join("dm_spl_release_human_rx.zip");
    std::fs::write(&zip_of_zips, zip_bytes(&zips)).unwrap();

    let bare = run(&dir.path().join("bare"), &[spl_dir()]);
    let per_label = run(&dir.path().join("per-label"), &[zips_dir]);
    let nested = run(&dir.path().join("nested"), &[zip_of_zips]);
    let expected = stored_segments(&bare.0);
    assert!(!expected.is_empty());
    for (data_dir, report) in [&per_label, &nested] {
        assert_eq!(report.labels_read, files.len() as u64, "{report}");
        assert_eq!(report.labels_indexed, bare.1.labels_indexed);
        assert_eq!(report.segments, bare.1.segments);
        assert_eq!(stored_segments(data_dir), expected);
    }
}

#[test]
fn a_directory_mixing_json_lines_and_nested_spl_is_read_recursively() {
    let dir = scratch_dir();
    let inputs = dir.path().join("inputs");
    let nested = inputs.join("dailymed/2024");
    std::fs::create_dir_all(&nested).unwrap();
    write_jsonl(&inputs, "openfda.jsonl", &corpus_lines(2));
    std::fs::copy(spl_dir().join("humira.xml"), nested.join("humira.xml")).unwrap();
    let (data_dir, report) = run(dir.path(), &[inputs]);
    assert_eq!(report.labels_read, 3, "{report}");
    assert_eq!(report.labels_indexed, 3, "{report}");
    assert!(stored_labels(&data_dir).contains_key("608d4f0d-b19f-46d3-749a-7159aa5f933d"));
}

#[test]
fn malformed_xml_a_missing_set_id_and_unknown_codes_are_counted_and_ingest_goes_on() {
    let dir = scratch_dir();
    let inputs = dir.path().join("inputs");
    std::fs::create_dir(&inputs).unwrap();
    let lipitor = std::fs::read_to_string(spl_dir().join("lipitor-orig.xml")).unwrap();
    let half: String = lipitor.chars().take(lipitor.chars().count() / 2).collect();
    std::fs::write(inputs.join("truncated.xml"), half).unwrap();
    let set_id_element = format!("<setId root=\"{}\"", raw_set_id(&lipitor));
    let without_set_id = lipitor.replace(&set_id_element, "<setIdRemoved root=\"\"");
    std::fs::write(inputs.join("no-set-id.xml"), without_set_id).unwrap();
    let cough = std::fs::read_to_string(spl_dir().join("cough.xml")).unwrap();
    assert_eq!(
        cough.matches("code=\"50570-1\"").count(),
        1,
        "one Do Not Use section"
    );
    let unknown_code = cough.replace("code=\"50570-1\"", "code=\"99999-9\"");
    std::fs::write(inputs.join("unknown-code.xml"), unknown_code).unwrap();
    let label_zip = zip_bytes(&label_zips(&[spl_dir().join("humira.xml")]));
    let corrupt_zip = label_zip[..label_zip.len() - 30].to_vec();
    let outer = zip_bytes(&[("corrupt.zip".into(), corrupt_zip)]);
    std::fs::write(inputs.join("release.zip"), outer).unwrap();

    let (data_dir, report) = run(dir.path(), &[inputs]);
    let skipped = BTreeMap::from([
        ("malformed_xml".to_owned(), 1),
        ("missing_set_id".to_owned(), 1),
        ("unreadable_zip_entry".to_owned(), 1),
    ]);
    assert_eq!(report.labels_skipped, skipped, "{report}");
    assert_eq!(report.labels_read, 4);
    assert_eq!(report.labels_indexed, 1);
    let unknown = BTreeMap::from([("99999-9".to_owned(), 1)]);
    assert_eq!(report.unknown_section_codes, unknown);
    let shown = report.to_string();
    for expected in [
        "malformed_xml: 1",
        "missing_set_id: 1",
        "unreadable_zip_entry: 1",
        "truncated.xml: not well-formed XML",
        "no-set-id.xml: no setId",
        "release.zip!corrupt.zip: unreadable zip",
        "unknown SPL section codes (text kept in the parent section, or unclassified): 99999-9 ×1",
    ] {
        assert!(shown.contains(expected), "{expected:?} in:\n{shown}");
    }
    let stored = stored_segments(&data_dir);
    assert!(
        stored.iter().all(|s| s.2 != "do_not_use"),
        "the recoded section has no key"
    );
    let in_warnings = stored
        .iter()
        .any(|s| s.2 == "warnings" && s.3.contains("Do not use in a child under 4 years of age"));
    assert!(
        in_warnings,
        "an unknown subsection's text stays in its parent section"
    );
}

/// Every version of one set id is kept, in version order, whatever the spelling of its setId.
fn assert_every_version_is_kept(data_dir: &Path, versions: &[u64]) {
    let snapshot = Snapshot::open_current(&DataDir::new(data_dir)).unwrap();
    let set = snapshot
        .history()
        .get(INOMAX_SET_ID)
        .expect("one lower-case set id");
    let kept: Vec<u64> = set
        .versions
        .iter()
        .map(|v| v.version.parse().unwrap())
        .collect();
    let mut expected = versions.to_vec();
    expected.sort_unstable();
    assert_eq!(kept, expected);
    assert_eq!(snapshot.history().len(), 1);
}

#[test]
fn the_upper_case_inomax_set_ids_are_the_same_label_as_the_lower_case_versions() {
    let files = xml_files(&versions_dir());
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let upper = texts
        .iter()
        .filter(|t| raw_set_id(t) == INOMAX_SET_ID.to_uppercase())
        .count();
    assert_eq!(upper, 2, "versions 1 and 2 spell the setId in upper case");
    let versions: Vec<u64> = texts.iter().map(|t| version_of(t)).collect();

    let dir = scratch_dir();
    let (data_dir, report) = run(dir.path(), &[versions_dir()]);
    assert_eq!(report.labels_skipped.get("no_drug_name"), None, "{report}");
    let labels = stored_labels(&data_dir);
    assert_eq!(labels.keys().collect::<Vec<_>>(), [INOMAX_SET_ID]);
    let newest = versions.iter().max().unwrap().to_string();
    assert_eq!(labels[INOMAX_SET_ID].0, newest);
    assert_eq!(labels[INOMAX_SET_ID].1, "nitric oxide");
    assert_eq!(report.labels_indexed, versions.len() as u64, "{report}");
    assert_every_version_is_kept(&data_dir, &versions);

    let first_three = files[..3].to_vec();
    let (data_dir, report) = run(&dir.path().join("first-three"), &first_three);
    assert_eq!(
        stored_labels(&data_dir).keys().collect::<Vec<_>>(),
        [INOMAX_SET_ID]
    );
    assert_eq!(report.labels_indexed, 3, "{report}");
    assert_every_version_is_kept(&data_dir, &versions[..3]);
}
