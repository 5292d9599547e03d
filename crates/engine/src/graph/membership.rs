//! Which enzyme-class strengths a drug is a member of, by what most labels say: labels list
//! examples after "strong CYP3A4 inhibitors (e.g., …)" and a few put a moderate inhibitor
//! (fluconazole) among the strong ones. A member keeps the strengths the most labelled drugs
//! list it under; the class without strength ("cyp3a inhibitors") always. Counting only.

use std::collections::{BTreeMap, BTreeSet};

use super::enzymes::strip_strength;

/// `member_of` statements of label text: per (member node id, class name), the drugs (node
/// ids) whose labels state it.
#[derive(Default)]
pub struct ListedMemberships {
    said: BTreeMap<(String, String), BTreeSet<String>>,
}

impl ListedMemberships {
    /// The label of drug `source` lists `member` as one of `class`.
    pub fn add(&mut self, source: &str, member: &str, class: &str) {
        self.said
            .entry((member.to_owned(), class.to_owned()))
            .or_default()
            .insert(source.to_owned());
    }

    /// (member node id, class name) pairs kept: every class named without a strength, and of
    /// the strengths of one class the ones stated by the most drugs' labels.
    pub fn kept(&self) -> Vec<(String, String)> {
        let mut most: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        for ((member, class), sources) in &self.said {
            let count = most.entry((member, strip_strength(class))).or_default();
            if strip_strength(class) != class {
                *count = (*count).max(sources.len());
            }
        }
        self.said
            .iter()
            .filter(|((member, class), sources)| {
                let bare = strip_strength(class);
                bare == class || sources.len() >= most[&(member.as_str(), bare)]
            })
            .map(|(key, _)| key.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_keeps_the_strength_most_labels_list_it_under() {
        let mut listed = ListedMemberships::default();
        for source in ["a", "b", "c"] {
            listed.add(source, "drug:fluconazole", "moderate cyp3a inhibitors");
        }
        listed.add("d", "drug:fluconazole", "strong cyp3a inhibitors");
        listed.add("d", "drug:fluconazole", "cyp3a inhibitors");
        listed.add("a", "drug:ketoconazole", "strong cyp3a inhibitors");
        listed.add("b", "drug:ketoconazole", "strong cyp3a inhibitors");
        listed.add("a", "drug:ketoconazole", "strong p-gp inhibitors");
        let kept = listed.kept();
        let has = |member: &str, class: &str| kept.contains(&(member.into(), class.into()));
        assert!(has("drug:fluconazole", "moderate cyp3a inhibitors"));
        assert!(!has("drug:fluconazole", "strong cyp3a inhibitors"));
        assert!(has("drug:fluconazole", "cyp3a inhibitors"));
        assert!(has("drug:ketoconazole", "strong cyp3a inhibitors"));
        assert!(
            has("drug:ketoconazole", "strong p-gp inhibitors"),
            "another enzyme"
        );
    }

    #[test]
    fn tied_strengths_are_both_kept() {
        let mut listed = ListedMemberships::default();
        listed.add("a", "drug:x", "strong cyp2d6 inhibitors");
        listed.add("b", "drug:x", "moderate cyp2d6 inhibitors");
        assert_eq!(listed.kept().len(), 2);
    }
}
