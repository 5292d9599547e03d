//! Parsing one openFDA `drug/label` JSON object into label metadata and text sections.
//! Decides what is a text section and how the drug object is derived; never panics on input.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::text::alphanumeric_words;

/// Fields that are identifiers or metadata, not label text. Part of the openFDA record's format
/// (every other non-`_table` field is a text section), so it stays beside the parser rather
/// than in a knowledge table.
const NON_TEXT_FIELDS: &[&str] = &[
    "set_id",
    "id",
    "version",
    "effective_time",
    "openfda",
    "route",
    "spl_product_data_elements",
    "spl_indexing_data_elements",
];

/// The drug object of the spec (§2.4), from the record's `openfda` block.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Drug {
    /// Generic name, lowercase.
    pub name: String,
    pub brand_names: Vec<String>,
    pub manufacturer: String,
    /// Product NDCs.
    pub ndc: Vec<String>,
    /// Administration routes, uppercase.
    pub route: Vec<String>,
}

/// Where `Drug::name` came from; records without an `openfda` block get a derived name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NameSource {
    GenericName,
    SubstanceName,
    BrandName,
    ProductData,
}

/// What the store keeps about one label version.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelMeta {
    /// The SPL document id of this version (`id`).
    pub label_id: String,
    pub set_id: String,
    pub version: String,
    pub effective_time: String,
    pub drug: Drug,
    pub name_source: NameSource,
    /// Lowercase names a question may use for this drug: generic, brands, substances.
    pub search_names: Vec<String>,
    /// FDA Established Pharmacologic Classes and Mechanisms of Action from openFDA
    /// `pharm_class_epc` and `pharm_class_moa`, without their "[EPC]"/"[MoA]" tags.
    #[serde(default)]
    pub classes: Vec<String>,
    /// The class the label's own Indications states, lowercase ("JARDIANCE is a
    /// sodium-glucose co-transporter 2 (SGLT2) inhibitor indicated …"; `stated_class`).
    #[serde(default)]
    pub stated_class: Option<String>,
}

/// One text section: the openFDA field key and its strings, verbatim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub key: String,
    pub strings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelRecord {
    pub meta: LabelMeta,
    pub sections: Vec<Section>,
    /// `*_table` fields: raw HTML whose text also appears in the section text; never indexed.
    pub html_tables: usize,
}

/// Why a record could not be indexed; reported by ingest with the record's position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("not a JSON object")]
    NotAnObject,
    #[error("missing or empty set_id")]
    MissingSetId,
    #[error("no drug name in openfda block or product data")]
    NoDrugName,
    #[error("no text sections")]
    NoTextSections,
}

impl RecordError {
    /// A stable short name for the ingest report's "skipped by reason" table.
    pub fn reason_key(&self) -> &'static str {
        match self {
            Self::NotAnObject => "not_an_object",
            Self::MissingSetId => "missing_set_id",
            Self::NoDrugName => "no_drug_name",
            Self::NoTextSections => "no_text_sections",
        }
    }
}

impl LabelRecord {
    pub fn parse(value: &Value) -> Result<Self, RecordError> {
        let object = value.as_object().ok_or(RecordError::NotAnObject)?;
        let set_id = non_empty_str(object, "set_id").ok_or(RecordError::MissingSetId)?;
        let empty = Map::new();
        let openfda = object
            .get("openfda")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let (drug, name_source) = drug_from(openfda, object).ok_or(RecordError::NoDrugName)?;
        let (sections, html_tables) = text_sections(object);
        if sections.is_empty() {
            return Err(RecordError::NoTextSections);
        }
        let search_names = search_names(&drug, openfda);
        let meta = LabelMeta {
            label_id: non_empty_str(object, "id").unwrap_or(set_id).to_owned(),
            set_id: set_id.to_owned(),
            version: scalar_text(object.get("version")),
            effective_time: scalar_text(object.get("effective_time")),
            stated_class: indications_class(&sections, &search_names),
            search_names,
            classes: established_classes(openfda),
            drug,
            name_source,
        };
        Ok(Self {
            meta,
            sections,
            html_tables,
        })
    }
}

fn non_empty_str<'a>(object: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    object
        .get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// `version` is a string in openFDA but numbers occur in hand-made files; keep either as text.
fn scalar_text(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(s)) => s.trim().to_owned(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

/// The strings of an array field, skipping non-string items; a bare string counts as one item.
fn strings(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        Some(Value::String(s)) if !s.trim().is_empty() => vec![s.trim().to_owned()],
        _ => Vec::new(),
    }
}

fn unique_sorted(mut items: Vec<String>) -> Vec<String> {
    items.sort();
    items.dedup();
    items
}

fn drug_from(
    openfda: &Map<String, Value>,
    record: &Map<String, Value>,
) -> Option<(Drug, NameSource)> {
    let name_field = |key| strings(openfda.get(key)).join(", ").to_lowercase();
    let (name, source) = [
        ("generic_name", NameSource::GenericName),
        ("substance_name", NameSource::SubstanceName),
        ("brand_name", NameSource::BrandName),
    ]
    .into_iter()
    .map(|(key, source)| (name_field(key), source))
    .find(|(name, _)| !name.is_empty())
    .or_else(|| {
        let product = strings(record.get("spl_product_data_elements"));
        name_from_product_data(product.first()?).map(|n| (n, NameSource::ProductData))
    })?;
    let drug = Drug {
        name,
        brand_names: unique_sorted(strings(openfda.get("brand_name"))),
        manufacturer: strings(openfda.get("manufacturer_name")).join(", "),
        ndc: unique_sorted(strings(openfda.get("product_ndc"))),
        route: unique_sorted(
            strings(openfda.get("route"))
                .into_iter()
                .map(|r| r.to_uppercase())
                .collect(),
        ),
    };
    Some((drug, source))
}

/// SPL product data reads "<proprietary> <nonproprietary> <ACTIVE INGREDIENTS> <inactive…>"
/// and states the drug's name twice in a row (proprietary = nonproprietary for generics,
/// nonproprietary = active ingredient otherwise). The first phrase of up to six words that
/// repeats immediately (case-insensitively) within the first 24 words is taken as the name.
/// On this corpus it gives the generic name, or brand + generic, for 85% of records.
fn name_from_product_data(product: &str) -> Option<String> {
    let words: Vec<String> = product
        .split_whitespace()
        .take(24)
        .map(str::to_lowercase)
        .collect();
    (0..words.len()).find_map(|start| {
        (1..=6).find_map(|len| {
            let repeated = start + 2 * len <= words.len()
                && words[start..start + len] == words[start + len..start + 2 * len];
            repeated.then(|| words[start..start + len].join(" "))
        })
    })
}

fn text_sections(record: &Map<String, Value>) -> (Vec<Section>, usize) {
    let mut sections = Vec::new();
    let mut html_tables = 0;
    for (key, value) in record {
        if key.ends_with("_table") {
            html_tables += 1;
            continue;
        }
        if NON_TEXT_FIELDS.contains(&key.as_str()) {
            continue;
        }
        let section_strings = strings(Some(value));
        if !section_strings.is_empty() {
            sections.push(Section {
                key: key.clone(),
                strings: section_strings,
            });
        }
    }
    sections.sort_by(|a, b| a.key.cmp(&b.key));
    (sections, html_tables)
}

fn search_names(drug: &Drug, openfda: &Map<String, Value>) -> Vec<String> {
    let mut names = vec![drug.name.clone()];
    names.extend(drug.brand_names.iter().map(|b| b.to_lowercase()));
    names.extend(
        strings(openfda.get("substance_name"))
            .into_iter()
            .map(|s| s.to_lowercase()),
    );
    unique_sorted(names)
}

/// The class the Indications and Usage section (or its Highlights, a section of the same key in
/// SPL) states for the drug (`stated_class`): the first string that states one.
/// `names` are the drug's search names: a sentence about it names one of their first words.
fn indications_class(sections: &[Section], names: &[String]) -> Option<String> {
    let first_words: Vec<&str> = (names.iter())
        .filter_map(|name| alphanumeric_words(name).next())
        .collect();
    let indications = sections.iter().filter(|s| s.key == "indications_and_usage");
    let strings = indications.flat_map(|section| &section.strings);
    strings
        .into_iter()
        .find_map(|text| super::stated_class(text, &first_words))
}

/// FDA established pharmacologic classes and mechanisms of action, without the "[EPC]" /
/// "[MoA]" tags.
fn established_classes(openfda: &Map<String, Value>) -> Vec<String> {
    let epc = strings(openfda.get("pharm_class_epc"));
    let moa = strings(openfda.get("pharm_class_moa"));
    let classes = epc
        .into_iter()
        .chain(moa)
        .map(|c| {
            c.trim_end_matches("[EPC]")
                .trim_end_matches("[MoA]")
                .trim()
                .to_owned()
        })
        .filter(|c| !c.is_empty());
    unique_sorted(classes.collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record(openfda: Value) -> Value {
        json!({
            "set_id": "s-1", "id": "v-1", "version": "3", "effective_time": "20240101",
            "openfda": openfda,
            "spl_product_data_elements": ["Zoloft sertraline hydrochloride SERTRALINE HYDROCHLORIDE SERTRALINE HYDROCHLORIDE"],
            "contraindications": ["4 CONTRAINDICATIONS Pimozide use is contraindicated."],
            "contraindications_table": ["<table><tr><td>x</td></tr></table>"],
            "boxed_warning": [" ", 7],
        })
    }

    #[test]
    fn drug_object_follows_the_openfda_block() {
        let parsed = LabelRecord::parse(&record(json!({
            "generic_name": ["SERTRALINE HYDROCHLORIDE"], "brand_name": ["Zoloft"],
            "manufacturer_name": ["Viatris"], "product_ndc": ["0049-4900", "0049-4910"],
            "route": ["oral"], "substance_name": ["SERTRALINE HYDROCHLORIDE"],
            "pharm_class_epc": ["Serotonin Reuptake Inhibitor [EPC]"],
            "pharm_class_moa": ["Serotonin Uptake Inhibitors [MoA]"],
        })))
        .unwrap();
        assert_eq!(
            parsed.meta.classes,
            [
                "Serotonin Reuptake Inhibitor",
                "Serotonin Uptake Inhibitors"
            ]
        );
        let drug = &parsed.meta.drug;
        assert_eq!(drug.name, "sertraline hydrochloride");
        assert_eq!(drug.brand_names, ["Zoloft"]);
        assert_eq!(drug.manufacturer, "Viatris");
        assert_eq!(drug.ndc, ["0049-4900", "0049-4910"]);
        assert_eq!(drug.route, ["ORAL"]);
        assert_eq!(parsed.meta.name_source, NameSource::GenericName);
        assert_eq!(
            parsed.meta.search_names,
            ["sertraline hydrochloride", "zoloft"]
        );
        assert_eq!(parsed.meta.version, "3");
        assert_eq!(parsed.html_tables, 1);
        assert_eq!(
            parsed.sections.len(),
            1,
            "blank and non-string items are dropped"
        );
    }

    #[test]
    fn empty_openfda_block_derives_the_name_from_product_data() {
        let parsed = LabelRecord::parse(&record(json!({}))).unwrap();
        assert_eq!(parsed.meta.drug.name, "sertraline hydrochloride");
        assert_eq!(parsed.meta.name_source, NameSource::ProductData);
        assert!(parsed.meta.drug.ndc.is_empty());
    }

    #[test]
    fn unusable_records_say_why() {
        assert_eq!(
            LabelRecord::parse(&json!([1])),
            Err(RecordError::NotAnObject)
        );
        assert_eq!(
            LabelRecord::parse(&json!({"id": "x"})),
            Err(RecordError::MissingSetId)
        );
        assert_eq!(
            LabelRecord::parse(&json!({"set_id": "s", "openfda": {}, "warnings": ["w"]})),
            Err(RecordError::NoDrugName)
        );
        assert_eq!(
            LabelRecord::parse(&json!({"set_id": "s", "openfda": {"generic_name": ["x"]}})),
            Err(RecordError::NoTextSections)
        );
    }
}
