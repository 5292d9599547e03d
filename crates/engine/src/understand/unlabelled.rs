//! Drugs a question names that have no label in the index ("pimozide" in "Is sertraline
//! contraindicated with pimozide?"): the vocabulary learns their names from the knowledge graph
//! (`with_unlabelled_drugs`) and reports them in `Understanding::unlabelled_drugs`. Never
//! claims a word that names an indexed label.

use super::stems;
use super::understanding::Found;
use super::DrugVocabulary;

impl DrugVocabulary {
    /// The vocabulary that also knows `names` (lowercase single words) as drugs without a
    /// label of their own, and the brands the label text names beside them; names of indexed
    /// labels are left to the labels.
    pub fn with_unlabelled_drugs(mut self, names: impl IntoIterator<Item = String>) -> Self {
        for name in names {
            let name = name.to_lowercase();
            if !self.labels_by_word.contains_key(&name) {
                self.unlabelled.insert(name);
            }
        }
        self.learn_label_brands();
        self
    }

    /// Words outside the drug mentions that name a drug without a label, in order, once each.
    pub(super) fn unlabelled_in(&self, tokens: &[&str], found: &[Found]) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for (at, word) in tokens.iter().enumerate() {
            let mentioned = found.iter().any(|f| f.span.contains(&at));
            let name = match word.strip_suffix('s') {
                Some(singular) if self.unlabelled.contains(singular) => singular,
                _ => word,
            };
            let unlabelled = self.unlabelled.contains(name) || stems::has_drug_stem(name);
            if !mentioned && unlabelled && !names.iter().any(|n| n == name) {
                names.push(name.to_owned());
            }
        }
        names
    }
}

#[cfg(test)]
mod tests {
    use super::super::LabelNames;
    use super::*;

    #[test]
    fn unlabelled_names_are_found_in_question_order_and_labels_keep_their_words() {
        let names = vec!["sertraline".to_owned()];
        let vocabulary = DrugVocabulary::build([LabelNames {
            label: 0,
            generic: "sertraline",
            names: &names,
            brands: &[],
            classes: &[],
            routes: &[],
        }])
        .with_unlabelled_drugs(["pimozide".to_owned(), "sertraline".to_owned()]);
        let understood = vocabulary.understand("Is sertraline contraindicated with pimozide?");
        assert_eq!(understood.unlabelled_drugs, ["pimozide"]);
        assert_eq!(understood.drugs.len(), 1);
    }
}
