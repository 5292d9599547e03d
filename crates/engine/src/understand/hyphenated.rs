//! A hyphenated question word no label name has, read by its parts: clinicians' shorthand of a
//! combination ("pip-tazo") by prefixes of its ingredients in order, and a name with its
//! product's code ("Cortisporin-TC" for "Cortisporin TC") by the labels whose names hold both.
//! Reads the vocabulary only.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use super::drug_words::is_name_word;
use super::word_tables::threshold;
use super::DrugVocabulary;

/// Shortest part of a shorthand read as the start of an ingredient's name (`thresholds.tsv`).
static SHORTHAND_PART: LazyLock<usize> = LazyLock::new(|| threshold("shorthand_part"));

impl DrugVocabulary {
    /// The name and labels a hyphenated `word` stands for, when no name has it whole: the one
    /// combination whose ingredients its parts begin, in order, else the labels its first part
    /// names whose names also hold the rest (`coded`).
    pub(super) fn hyphenated(&self, word: &str) -> Option<(String, BTreeSet<u32>)> {
        if !word.contains('-') || self.labels_by_word.contains_key(word) {
            return None;
        }
        let parts: Vec<&str> = word.split('-').filter(|p| !p.is_empty()).collect();
        if parts.len() < 2 {
            return None;
        }
        self.shorthand(&parts).or_else(|| self.coded(&parts))
    }

    /// The labels a name word names whose names also hold each later part as a word ("TC" of
    /// "Cortisporin TC"): a product's code written with a hyphen, never a word after a name
    /// that no name of its labels has ("disulfiram-like").
    fn coded(&self, parts: &[&str]) -> Option<(String, BTreeSet<u32>)> {
        let (first, code) = parts.split_first()?;
        if !is_name_word(first) || !self.leading.contains(*first) {
            return None;
        }
        let mut labels = self.labels_by_word.get(*first)?.clone();
        for part in code {
            let named = (self.codes.get(*part))
                .or_else(|| self.later_words.get(*part))
                .or_else(|| self.labels_by_word.get(*part))?;
            labels.retain(|label| named.contains(label));
        }
        (!labels.is_empty()).then(|| ((*first).to_owned(), labels))
    }

    /// The combination whose ingredients `parts` begin, one part an ingredient, when exactly one
    /// list of ingredients fits.
    fn shorthand(&self, parts: &[&str]) -> Option<(String, BTreeSet<u32>)> {
        let long_enough =
            |p: &&str| p.chars().count() >= *SHORTHAND_PART && p.chars().all(char::is_alphabetic);
        if !parts.iter().all(long_enough) {
            return None;
        }
        let fits = |ingredients: &Vec<String>| {
            ingredients.len() == parts.len()
                && ingredients.iter().zip(parts).all(|(i, p)| i.starts_with(p))
        };
        let fitting: Vec<&(u32, Vec<String>)> = (self.ingredients.iter())
            .filter(|(_, ingredients)| fits(ingredients))
            .collect();
        let lists: BTreeSet<&Vec<String>> = fitting.iter().map(|(_, i)| i).collect();
        let [only] = lists.into_iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let labels = fitting.iter().map(|(label, _)| *label).collect();
        Some((only.join(" "), labels))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::vocabulary_with_classes;

    #[test]
    fn shorthand_of_a_combination_names_it_and_a_hyphenated_brand_its_first_part() {
        let names = [
            vec!["piperacillin and tazobactam"],
            vec!["amoxicillin and clavulanate potassium"],
            vec!["amoxicillin"],
            vec![
                "colistin sulfate and hydrocortisone acetate",
                "cortisporin tc",
            ],
        ];
        let labels: Vec<(Vec<String>, Vec<String>)> = (names.iter())
            .map(|n| (n.iter().map(|w| (*w).to_owned()).collect(), Vec::new()))
            .collect();
        let v = vocabulary_with_classes(&labels);
        let read = |w: &str| v.hyphenated(w).map(|(name, labels)| (name, labels.len()));
        assert_eq!(
            read("pip-tazo"),
            Some(("piperacillin tazobactam".into(), 1))
        );
        assert_eq!(
            read("amox-clav"),
            Some(("amoxicillin clavulanate".into(), 1))
        );
        assert_eq!(read("cortisporin-tc"), Some(("cortisporin".into(), 1)));
        assert_eq!(
            read("colistin-hydro"),
            Some(("colistin hydrocortisone".into(), 1))
        );
        assert_eq!(
            read("pi-ta"),
            None,
            "parts too short to say which ingredient"
        );
        assert_eq!(read("follow-up"), None);
        assert_eq!(read("adalimumab-adbm"), None, "no such label");
        assert_eq!(
            read("amoxicillin-like"),
            None,
            "a word the labels use, not a code"
        );
        assert_eq!(read("amoxicillin"), None, "no hyphen: read as a name word");
    }
}
