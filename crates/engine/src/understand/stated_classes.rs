//! The class each label's Indications states ("a sodium-glucose co-transporter 2 (SGLT2)
//! inhibitor"), named as the FDA established class or curated class it spells, so a label openFDA
//! gives no class field (every DailyMed label, half the openFDA ones) still belongs to its class.
//! Names only; which phrases a question may use for a class is `class_phrases.rs`'s.

use std::collections::HashMap;

/// Class names by their spelling key: FDA established classes as the labels carry them, the
/// curated classes by their name and by each term.
pub(super) struct ClassNames {
    by_key: HashMap<String, String>,
}

impl ClassNames {
    /// The names of `established` (the labels' openFDA classes) and of the curated classes.
    pub(super) fn of<'a>(established: impl IntoIterator<Item = &'a String>) -> Self {
        let mut by_key = HashMap::new();
        for class in crate::curated::drug_classes() {
            for term in class.terms.iter().chain([&class.name]) {
                by_key.insert(spelling_key(term), class.name.clone());
            }
        }
        for class in established {
            by_key.insert(spelling_key(class), class.clone());
        }
        Self { by_key }
    }

    /// `classes` with the class the label states added, under the name of the class it spells
    /// (any case, hyphen or space), else as stated; once.
    pub(super) fn with_stated(&self, classes: &[String], stated: Option<&str>) -> Vec<String> {
        let mut all = classes.to_vec();
        if let Some(stated) = stated {
            let named = self.by_key.get(&spelling_key(stated));
            let name = named.cloned().unwrap_or_else(|| stated.to_owned());
            if !all.iter().any(|c| c.eq_ignore_ascii_case(&name)) {
                all.push(name);
            }
        }
        all
    }
}

/// A class name's letters and digits, lowercase: "Sodium-Glucose Cotransporter 2 Inhibitor" and
/// "sodium-glucose co-transporter 2 inhibitor" spell one class.
fn spelling_key(name: &str) -> String {
    let kept = name.chars().filter(char::is_ascii_alphanumeric);
    kept.map(|c| c.to_ascii_lowercase()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stated_class_takes_the_name_of_the_class_it_spells() {
        let established = ["Sodium-Glucose Cotransporter 2 Inhibitor".to_owned()];
        let names = ClassNames::of(&established);
        let stated = |s| names.with_stated(&[], Some(s));
        assert_eq!(
            stated("sodium-glucose co-transporter 2 inhibitor"),
            ["Sodium-Glucose Cotransporter 2 Inhibitor"]
        );
        assert_eq!(
            stated("selective serotonin reuptake inhibitor"),
            ["Serotonin Reuptake Inhibitor"],
            "a curated class's term"
        );
        assert_eq!(stated("retinoid"), ["retinoid"], "a class of its own");
        assert_eq!(
            names.with_stated(&established, Some("SGLT2 inhibitor")),
            established,
            "once"
        );
        assert_eq!(names.with_stated(&established, None), established);
    }
}
