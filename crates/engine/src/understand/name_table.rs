//! What the labels call their drugs (the leading name word of a one-ingredient generic) and which
//! members the curated classes list: the table partners are named with. Data only.

use std::collections::HashMap;

use super::drug_words::{is_name_word, name_parts};
use super::understanding::LabelNames;
use drugcite_core::text::name_words;

/// What the labels call their drugs and which members the curated classes list.
#[derive(Default)]
pub(super) struct NameTable {
    /// Label → the leading name word of its generic name, for labels of one ingredient.
    pub(super) called: HashMap<u32, String>,
    /// Curated class name (lowercase) → its members' first words.
    pub(super) members: HashMap<String, Vec<String>>,
    /// Curated member → the terms of the classes listing it ("lisinopril" → "ace inhibitor"…).
    pub(super) member_of: HashMap<String, Vec<String>>,
}

impl NameTable {
    pub(super) fn build(labels: &[LabelNames]) -> Self {
        let called = labels
            .iter()
            .filter_map(|l| Some((l.label, leading_name_word(l.generic)?)))
            .collect();
        let classes = crate::curated::drug_classes();
        let mut member_of: HashMap<String, Vec<String>> = HashMap::new();
        for class in &classes {
            for member in &class.members {
                let terms = member_of.entry(member.clone()).or_default();
                terms.extend(class.terms.iter().map(|t| t.to_lowercase()));
            }
        }
        let members = classes
            .into_iter()
            .map(|c| (c.name.to_lowercase(), c.members))
            .collect();
        Self {
            called,
            members,
            member_of,
        }
    }
}

/// The first word of a one-ingredient generic name that can be a drug name ("ketorolac" of
/// "ketorolac tromethamine"; none for "carbidopa and levodopa").
fn leading_name_word(generic: &str) -> Option<String> {
    let lower = generic.to_lowercase();
    let parts = name_parts(&lower);
    let [only] = parts.as_slice() else {
        return None;
    };
    let word = name_words(only).find(|w| is_name_word(w))?;
    Some(word.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_is_called_by_the_leading_name_word_of_its_one_ingredient() {
        assert_eq!(
            leading_name_word("Ketorolac Tromethamine").as_deref(),
            Some("ketorolac")
        );
        assert_eq!(
            leading_name_word("sodium zirconium cyclosilicate").as_deref(),
            Some("zirconium")
        );
        assert_eq!(leading_name_word("carbidopa and levodopa"), None);
    }
}
