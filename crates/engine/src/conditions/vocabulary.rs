//! The open condition vocabularies (Disease Ontology, Symptom Ontology): reads their OBO and
//! TSV releases into terms with ids, names and exact synonyms, and keeps a compiled copy in a
//! generation so that the server never reads the source files. No matching here.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Where a generation keeps the vocabulary it was built with.
pub const COMPILED_FILE: &str = "conditions.jsonl";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VocabularyTerm {
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub synonyms: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum VocabularyError {
    #[error("{path}: {reason}")]
    Read { path: String, reason: String },
    #[error("{0}: no .obo or .tsv vocabulary files in it")]
    Empty(String),
}

fn read_error(path: &Path, reason: impl std::fmt::Display) -> VocabularyError {
    VocabularyError::Read {
        path: path.display().to_string(),
        reason: reason.to_string(),
    }
}

/// Every term of the `.obo` and `.tsv` files (optionally gzipped) in `dir`: OBO files first (they
/// carry synonyms), then TSV name lists, each group in file-name order.
pub fn read_dir(dir: &Path) -> Result<Vec<VocabularyTerm>, VocabularyError> {
    let entries = std::fs::read_dir(dir).map_err(|e| read_error(dir, e))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| format_of(p).is_some())
        .collect();
    files.sort_by_key(|p| (format_of(p), p.file_name().map(|n| n.to_owned())));
    if files.is_empty() {
        return Err(VocabularyError::Empty(dir.display().to_string()));
    }
    let mut terms = Vec::new();
    for file in &files {
        let text = read_text(file)?;
        match format_of(file) {
            Some(Format::Obo) => terms.extend(parse_obo(&text)),
            Some(Format::Tsv) => terms.extend(parse_tsv(&text)),
            None => {}
        }
    }
    Ok(terms)
}

/// The vocabulary of `dir` when given, else the one compiled into the live generation of
/// `data_dir` (what `extract` reads label text with); an index built without one is an error.
pub fn given_or_live(
    data_dir: &drugcite_store::DataDir,
    dir: Option<&Path>,
) -> anyhow::Result<Vec<VocabularyTerm>> {
    if let Some(dir) = dir {
        return Ok(read_dir(dir)?);
    }
    let generation = data_dir.current_generation().map_err(|e| {
        anyhow::anyhow!("no condition vocabulary: pass --vocab DIR (or DRUGCITE_VOCAB_DIR), or ingest first ({e})")
    })?;
    let terms = read_compiled(&generation)?;
    anyhow::ensure!(
        !terms.is_empty(),
        "the live index was built without a condition vocabulary: pass --vocab DIR"
    );
    Ok(terms)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Format {
    Obo,
    Tsv,
}

fn format_of(path: &Path) -> Option<Format> {
    let name = path.file_name()?.to_str()?;
    let name = name.strip_suffix(".gz").unwrap_or(name);
    if name.ends_with(".obo") {
        Some(Format::Obo)
    } else if name.ends_with(".tsv") {
        Some(Format::Tsv)
    } else {
        None
    }
}

fn read_text(path: &Path) -> Result<String, VocabularyError> {
    let file = std::fs::File::open(path).map_err(|e| read_error(path, e))?;
    let mut reader: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut text = String::new();
    reader
        .read_to_string(&mut text)
        .map_err(|e| read_error(path, e))?;
    Ok(text)
}

/// `[Term]` stanzas with an id and a name, not obsolete; EXACT synonyms only (RELATED ones
/// are often broader or narrower conditions).
pub fn parse_obo(text: &str) -> Vec<VocabularyTerm> {
    let mut terms = Vec::new();
    for stanza in text.split("\n[").filter(|s| s.starts_with("Term]")) {
        let mut id = None;
        let mut name = None;
        let mut synonyms = Vec::new();
        let mut obsolete = false;
        for line in stanza.lines() {
            if let Some(v) = line.strip_prefix("id: ") {
                id = Some(v.trim().to_owned());
            } else if let Some(v) = line.strip_prefix("name: ") {
                name = Some(v.trim().to_owned());
            } else if let Some(v) = line.strip_prefix("synonym: \"") {
                if let Some((synonym, rest)) = v.split_once('"') {
                    if rest.trim_start().starts_with("EXACT") {
                        synonyms.push(synonym.to_owned());
                    }
                }
            } else if line.trim() == "is_obsolete: true" {
                obsolete = true;
            }
        }
        if let (Some(id), Some(name), false) = (id, name, obsolete) {
            terms.push(VocabularyTerm { id, name, synonyms });
        }
    }
    terms
}

/// A TSV with a header whose first two columns are id and label, fields optionally quoted.
pub fn parse_tsv(text: &str) -> Vec<VocabularyTerm> {
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let mut fields = line.split('\t').map(|f| f.trim().trim_matches('"'));
            let id = fields.next().filter(|f| !f.is_empty())?;
            let name = fields.next().filter(|f| !f.is_empty())?;
            Some(VocabularyTerm {
                id: id.to_owned(),
                name: name.to_owned(),
                synonyms: Vec::new(),
            })
        })
        .collect()
}

/// Writes the compiled vocabulary into a generation directory.
pub fn write_compiled(dir: &Path, terms: &[VocabularyTerm]) -> std::io::Result<()> {
    let file = std::fs::File::create(dir.join(COMPILED_FILE))?;
    let mut out = std::io::BufWriter::new(file);
    for term in terms {
        serde_json::to_writer(&mut out, term)?;
        out.write_all(b"\n")?;
    }
    out.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// The vocabulary a generation was built with; empty if it was built without one.
pub fn read_compiled(dir: &Path) -> Result<Vec<VocabularyTerm>, VocabularyError> {
    let path = dir.join(COMPILED_FILE);
    let file = match std::fs::File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(read_error(&path, e)),
    };
    BufReader::new(file)
        .lines()
        .map(|line| {
            let line = line.map_err(|e| read_error(&path, e))?;
            serde_json::from_str(&line).map_err(|e| read_error(&path, e))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const OBO: &str = "format-version: 1.2\n\n[Term]\nid: SYMP:0000001\nname: abdominal cramp\n\
        synonym: \"stomach cramp\" EXACT []\nsynonym: \"belly ache\" RELATED []\n\n[Term]\n\
        id: SYMP:0000003\nname: obsolete acute enteritis\nis_obsolete: true\n\n[Typedef]\nid: part_of\nname: part of\n";

    #[test]
    fn obo_terms_keep_exact_synonyms_and_drop_obsolete_terms() {
        let terms = parse_obo(OBO);
        assert_eq!(
            terms,
            [VocabularyTerm {
                id: "SYMP:0000001".into(),
                name: "abdominal cramp".into(),
                synonyms: vec!["stomach cramp".into()],
            }]
        );
    }

    #[test]
    fn tsv_rows_skip_the_header_and_unquote() {
        let terms = parse_tsv("id\tlabel\tsubClassOf\n\"DOID:9352\"\t\"type 2 diabetes mellitus\"\t\"diabetes mellitus\"\n");
        assert_eq!(terms[0].id, "DOID:9352");
        assert_eq!(terms[0].name, "type 2 diabetes mellitus");
    }

    #[test]
    fn the_compiled_copy_round_trips_and_is_optional() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read_compiled(dir.path()).unwrap().is_empty());
        let terms = parse_obo(OBO);
        write_compiled(dir.path(), &terms).unwrap();
        assert_eq!(read_compiled(dir.path()).unwrap(), terms);
    }
}
