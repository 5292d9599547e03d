//! The `openfda` block of an SPL document, built from its own product data (names, NDCs,
//! routes, active substances, labeler) in both SPL product schemas: the current one and the
//! pre-2009 one (`manufacturedMedicine`, `activeIngredient`). Pure; knows nothing of sections.

use std::collections::BTreeMap;

use roxmltree::Node;
use serde_json::{json, Map, Value};

use super::spl_xml::{child, collapse_whitespace, is, section_text};

/// The FDA's NDC code system.
const NDC_SYSTEM: &str = "2.16.840.1.113883.6.69";
/// Ingredient class codes of active ingredients (by moiety, basis of strength, reference).
const ACTIVE_CLASSES: &[&str] = &["ACTIM", "ACTIB", "ACTIR"];

/// The `openfda` block: brand and generic names, product NDCs, routes, active substances and
/// the labeler, each list without repeats in document order.
pub fn product_data(root: Node) -> Map<String, Value> {
    let mut fields: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for product in root.descendants().filter(|n| is_product(*n)) {
        let mut add = |field, value: Option<String>| {
            if let Some(value) = value.filter(|v| !v.is_empty()) {
                let values = fields.entry(field).or_default();
                if !values.contains(&value) {
                    values.push(value);
                }
            }
        };
        add("brand_name", child(product, "name").map(product_name));
        let generic = child(product, "asEntityWithGeneric")
            .and_then(|n| child(n, "genericMedicine"))
            .and_then(|n| child(n, "name"));
        add("generic_name", generic.map(section_text));
        let ndc = child(product, "code")
            .filter(|c| c.attribute("codeSystem") == Some(NDC_SYSTEM))
            .and_then(|c| c.attribute("code"));
        add("product_ndc", ndc.map(str::to_owned));
        for substance in active_substances(product) {
            add("substance_name", Some(substance));
        }
        for route in routes(product) {
            add("route", Some(route.to_uppercase()));
        }
    }
    if let Some(labeler) = labeler(root) {
        fields.insert("manufacturer_name", vec![labeler]);
    }
    fields
        .into_iter()
        .map(|(field, values)| (field.to_owned(), json!(values)))
        .collect()
}

/// A product's name with its `<suffix>` after a space ("TRIAMINIC" + "Childrens Night Time
/// Cold and Cough"), where the section text runs them together as openFDA's does.
fn product_name(name: Node) -> String {
    let own: String = name
        .children()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect();
    let suffix = child(name, "suffix").map(section_text).unwrap_or_default();
    collapse_whitespace(&format!("{own} {suffix}"))
}

/// The element that describes one product: the inner `manufacturedProduct` of the current
/// schema, or the `manufacturedMedicine` of the pre-2009 one.
fn is_product(node: Node) -> bool {
    let inner_product = is(node, "manufacturedProduct")
        && child(node, "manufacturedProduct").is_none()
        && child(node, "manufacturedMedicine").is_none();
    inner_product || is(node, "manufacturedMedicine")
}

fn active_substances(product: Node) -> Vec<String> {
    let current = product
        .children()
        .filter(|n| is(*n, "ingredient"))
        .filter(|n| {
            n.attribute("classCode")
                .is_some_and(|c| ACTIVE_CLASSES.contains(&c))
        })
        .filter_map(|n| child(n, "ingredientSubstance"));
    let pre_2009 = product
        .children()
        .filter(|n| is(*n, "activeIngredient"))
        .filter_map(|n| child(n, "activeIngredientSubstance"));
    current
        .chain(pre_2009)
        .filter_map(|n| child(n, "name"))
        .map(section_text)
        .collect()
}

/// Routes of administration: the `consumedIn` of the product's enclosing element.
fn routes<'a>(product: Node<'a, 'a>) -> impl Iterator<Item = &'a str> {
    product
        .parent()
        .into_iter()
        .flat_map(|outer| outer.descendants())
        .filter(|n| is(*n, "routeCode"))
        .filter_map(|n| n.attribute("displayName"))
}

/// The labeler: the organisation the document's author represents.
fn labeler(root: Node) -> Option<String> {
    let organisation = child(root, "author")
        .and_then(|n| child(n, "assignedEntity"))
        .and_then(|n| child(n, "representedOrganization"))?;
    child(organisation, "name")
        .map(section_text)
        .filter(|name| !name.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use roxmltree::Document;

    /// The pre-2009 product schema, as INOMAX version 1 (2006) writes it.
    const PRE_2009: &str = r#"<document xmlns="urn:hl7-org:v3"><component><structuredBody>
      <component><section><subject><manufacturedProduct><manufacturedMedicine>
        <code code="64693-002" codeSystem="2.16.840.1.113883.6.69"/>
        <name>INOmax<suffix>100 ppm</suffix></name>
        <activeIngredient><activeIngredientSubstance><name>nitric oxide</name>
        </activeIngredientSubstance></activeIngredient>
        <asEntityWithGeneric><genericMedicine><name>nitric oxide</name></genericMedicine>
        </asEntityWithGeneric>
      </manufacturedMedicine>
      <consumedIn><substanceAdministration><routeCode displayName="RESPIRATORY (INHALATION)"/>
      </substanceAdministration></consumedIn>
      </manufacturedProduct></subject></section></component>
    </structuredBody></component></document>"#;

    #[test]
    fn the_pre_2009_product_schema_gives_names_ndcs_and_routes() {
        let document = Document::parse(PRE_2009).unwrap();
        let openfda = product_data(document.root_element());
        assert_eq!(openfda["brand_name"], json!(["INOmax 100 ppm"]));
        assert_eq!(openfda["generic_name"], json!(["nitric oxide"]));
        assert_eq!(openfda["product_ndc"], json!(["64693-002"]));
        assert_eq!(openfda["substance_name"], json!(["nitric oxide"]));
        assert_eq!(openfda["route"], json!(["RESPIRATORY (INHALATION)"]));
        assert!(!openfda.contains_key("manufacturer_name"));
    }
}
