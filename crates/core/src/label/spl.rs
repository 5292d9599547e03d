//! DailyMed SPL XML (HL7 v3 Structured Product Labeling) → the openFDA record shape that
//! `LabelRecord::parse` reads: ids, version and effective time, the text of each LOINC-coded
//! section as openFDA extracts it, and an `openfda` block from the product data. Pure: a
//! document's text in, JSON out; never panics on input.
//!
//! The text of a section is every text node under its `<section>` element (title, paragraphs,
//! lists, tables and nested sections), in document order, with `<br/>` read as a space, each run
//! of whitespace collapsed to one space and the ends trimmed: the text openFDA's own SPL
//! conversion produces. A coded subsection is a section of its own as well (its text is also in
//! its parent's); an uncoded or unknown subsection is only part of its parent.

use std::collections::BTreeMap;

use roxmltree::{Document, Node, ParsingOptions};
use serde_json::{json, Map, Value};

use super::spl_product::product_data;
use super::spl_sections::section_key;
use super::spl_xml::{child, is, section_text};

/// openFDA's key for top-level sections whose code it does not classify.
const UNCLASSIFIED: &str = "spl_unclassified_section";

/// Why an SPL document could not be read; ingest reports it with the file's name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SplError {
    #[error("not well-formed XML: {0}")]
    Malformed(String),
    #[error("not an SPL document (root element <{0}>)")]
    NotSpl(String),
    #[error("no setId")]
    MissingSetId,
}

impl SplError {
    /// A stable short name for the ingest report's "skipped by reason" table.
    pub fn reason_key(&self) -> &'static str {
        match self {
            Self::Malformed(_) => "malformed_xml",
            Self::NotSpl(_) => "not_spl",
            Self::MissingSetId => "missing_set_id",
        }
    }
}

/// One SPL document read into the openFDA record shape.
#[derive(Clone, Debug, PartialEq)]
pub struct SplRecord {
    /// The openFDA-shaped record: give it to `LabelRecord::parse`.
    pub record: Value,
    /// Section codes that name no section openFDA knows, with how often each occurred.
    pub unknown_codes: BTreeMap<String, usize>,
}

/// Reads one SPL document.
pub fn read_spl(xml: &str) -> Result<SplRecord, SplError> {
    let options = ParsingOptions {
        allow_dtd: true,
        ..ParsingOptions::default()
    };
    let document = Document::parse_with_options(xml.trim_start_matches('\u{feff}'), options)
        .map_err(|e| SplError::Malformed(e.to_string()))?;
    let root = document.root_element();
    if root.tag_name().name() != "document" {
        return Err(SplError::NotSpl(root.tag_name().name().to_owned()));
    }
    let set_id = child(root, "setId")
        .and_then(|n| n.attribute("root"))
        .map(|id| id.trim().to_lowercase())
        .filter(|id| !id.is_empty())
        .ok_or(SplError::MissingSetId)?;
    let mut record = Map::new();
    record.insert("set_id".into(), json!(set_id));
    insert_attribute(&mut record, "id", child(root, "id"), "root");
    insert_attribute(
        &mut record,
        "version",
        child(root, "versionNumber"),
        "value",
    );
    insert_attribute(
        &mut record,
        "effective_time",
        child(root, "effectiveTime"),
        "value",
    );
    let mut unknown_codes = BTreeMap::new();
    for section in root.descendants().filter(|n| is(*n, "section")) {
        let Some(key) = classify(section, &mut unknown_codes) else {
            continue;
        };
        let entry = record.entry(key).or_insert_with(|| json!([]));
        if let Value::Array(texts) = entry {
            texts.push(json!(section_text(section)));
        }
    }
    record.insert("openfda".into(), Value::Object(product_data(root)));
    Ok(SplRecord {
        record: Value::Object(record),
        unknown_codes,
    })
}

/// The openFDA key of a section, or `None` for an unclassified subsection (coded as such,
/// uncoded or of an unknown code: part of its parent only). Unknown codes are counted.
fn classify(section: Node, unknown: &mut BTreeMap<String, usize>) -> Option<String> {
    let code = child(section, "code").and_then(|c| c.attribute("code"));
    let known = code.and_then(section_key);
    if let (Some(code), None) = (code, known) {
        *unknown.entry(code.to_owned()).or_default() += 1;
    }
    let key = known.unwrap_or(UNCLASSIFIED);
    let nested = section.ancestors().skip(1).any(|n| is(n, "section"));
    (key != UNCLASSIFIED || !nested).then(|| key.to_owned())
}

fn insert_attribute(
    record: &mut Map<String, Value>,
    key: &str,
    node: Option<Node>,
    attribute: &str,
) {
    if let Some(value) = node.and_then(|n| n.attribute(attribute)) {
        record.insert(key.to_owned(), json!(value.trim()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPL: &str = r#"<?xml version="1.0"?>
<document xmlns="urn:hl7-org:v3">
  <id root="doc-1"/>
  <setId root="ABC-DEF"/>
  <effectiveTime value="20240102"/>
  <versionNumber value="7"/>
  <author><assignedEntity><representedOrganization><name>Repack  Inc.</name>
  </representedOrganization></assignedEntity></author>
  <component><structuredBody>
    <component><section><code code="48780-1"/>
      <subject><manufacturedProduct><manufacturedProduct>
        <code code="1234-5678" codeSystem="2.16.840.1.113883.6.69"/>
        <name>Zapitor</name>
        <asEntityWithGeneric><genericMedicine><name>zapastatin calcium</name></genericMedicine></asEntityWithGeneric>
        <ingredient classCode="ACTIM"><ingredientSubstance><name>ZAPASTATIN</name></ingredientSubstance></ingredient>
        <ingredient classCode="IACT"><ingredientSubstance><name>WATER</name></ingredientSubstance></ingredient>
      </manufacturedProduct>
      <consumedIn><substanceAdministration><routeCode displayName="oral"/></substanceAdministration></consumedIn>
      </manufacturedProduct></subject></section></component>
    <component><section><code code="34070-3"/>
      <title>4 CONTRAINDICATIONS</title>
      <text><paragraph>Active liver   disease<br/>and <content styleCode="bold">pregnancy</content>.</paragraph></text>
      <component><section><code code="42229-5"/><title>4.1 Nested</title>
      <text>uncoded part</text></section></component>
      <component><section><code code="34080-2"/><title>Nursing</title></section></component>
    </section></component>
    <component><section><code code="99999-9"/><text>odd</text></section></component>
  </structuredBody></component>
</document>"#;

    #[test]
    fn an_spl_document_reads_into_the_openfda_shape() {
        let read = read_spl(SPL).unwrap();
        let record = &read.record;
        assert_eq!(record["set_id"], "abc-def");
        assert_eq!(record["id"], "doc-1");
        assert_eq!(record["version"], "7");
        assert_eq!(record["effective_time"], "20240102");
        assert_eq!(
            record["contraindications"][0],
            "4 CONTRAINDICATIONS Active liver disease and pregnancy. 4.1 Nested uncoded part Nursing"
        );
        assert_eq!(record["nursing_mothers"][0], "Nursing");
        assert_eq!(record["spl_unclassified_section"][0], "odd");
        assert_eq!(
            read.unknown_codes,
            BTreeMap::from([("99999-9".to_owned(), 1)])
        );
        let openfda = &record["openfda"];
        assert_eq!(openfda["brand_name"], json!(["Zapitor"]));
        assert_eq!(openfda["generic_name"], json!(["zapastatin calcium"]));
        assert_eq!(openfda["product_ndc"], json!(["1234-5678"]));
        assert_eq!(openfda["substance_name"], json!(["ZAPASTATIN"]));
        assert_eq!(openfda["route"], json!(["ORAL"]));
        assert_eq!(openfda["manufacturer_name"], json!(["Repack Inc."]));
    }

    #[test]
    fn unreadable_documents_say_why() {
        assert!(matches!(
            read_spl("<document><x></document>"),
            Err(SplError::Malformed(_))
        ));
        assert!(matches!(read_spl("<html/>"), Err(SplError::NotSpl(_))));
        let with_bom = format!("\u{feff}{SPL}");
        assert_eq!(read_spl(&with_bom).unwrap(), read_spl(SPL).unwrap());
        assert_eq!(
            read_spl("<document><setId root=' '/></document>"),
            Err(SplError::MissingSetId)
        );
    }
}
