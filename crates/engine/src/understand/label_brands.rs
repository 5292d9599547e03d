//! Brands the label text itself names beside a drug ("tizanidine (Zanaflex®)", read at ingest
//! by `label::brand_mentions`): a brand whose mentions all name one drug the vocabulary knows
//! becomes a name of that drug's labels — as a curated brand does — or, for a drug without a
//! label, a name the index has no label for. Never renames a word the vocabulary already knows;
//! a name of two words the vocabulary cannot tell apart ("peginterferon alfa-2b") names none.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::LazyLock;

use super::drug_words::is_name_word;
use super::word_tables::threshold;
use super::DrugVocabulary;
use drugcite_core::label::BrandMention;

/// Distinct words a salt or form word follows in the labels' names, at least, when it begins
/// none ("bitartrate" after hydrocodone, potassium…; "glargine" follows only "insulin").
static SALT_AFTER: LazyLock<usize> = LazyLock::new(|| threshold("salt_after"));

/// The drug a brand names: one with labels in the index, or one without.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Named {
    Labelled(String),
    Unlabelled(String),
}

/// Counts, over the words of the labels' names, which begin a name and what each follows.
#[derive(Default)]
pub(super) struct SaltWords {
    begins: BTreeSet<String>,
    follows: HashMap<String, BTreeSet<String>>,
}

impl SaltWords {
    pub(super) fn count(&mut self, name: &[&str]) {
        if let Some(first) = name.first() {
            self.begins.insert((*first).to_owned());
        }
        for pair in name.windows(2) {
            let follows = self.follows.entry(pair[1].to_owned()).or_default();
            follows.insert(pair[0].to_owned());
        }
    }

    /// Words that begin no name and follow `SALT_AFTER` or more distinct words.
    pub(super) fn words(self) -> BTreeSet<String> {
        let begins = self.begins;
        self.follows
            .into_iter()
            .filter(|(word, before)| before.len() >= *SALT_AFTER && !begins.contains(word))
            .map(|(word, _)| word)
            .collect()
    }
}

impl DrugVocabulary {
    /// The vocabulary that also knows the brands `mentions` name beside the drugs it knows.
    pub fn with_label_brands(mut self, mentions: Vec<BrandMention>) -> Self {
        self.label_brands = mentions;
        self.learn_label_brands();
        self
    }

    /// Adds the brands of `label_brands` that name one known drug and are no known word yet.
    pub(super) fn learn_label_brands(&mut self) {
        for (brand, named) in self.brands_named() {
            match named {
                Named::Labelled(generic) => {
                    let labels = self.labels_by_word[&generic].clone();
                    self.leading.insert(brand.clone());
                    self.labels_by_word.insert(brand.clone(), labels);
                    self.brand_generics.insert(brand, generic);
                }
                Named::Unlabelled(generic) => {
                    self.unlabelled.insert(brand.clone());
                    self.unlabelled_generics.insert(brand, generic);
                }
            }
        }
    }

    /// Each new brand whose mentions all name the same known drug, with that drug.
    fn brands_named(&self) -> BTreeMap<String, Named> {
        let mut named: BTreeMap<&str, BTreeSet<Named>> = BTreeMap::new();
        for mention in &self.label_brands {
            let drug = self.named_after(&mention.after);
            if let Some(drug) = drug.or_else(|| self.named_before(&mention.before)) {
                named.entry(&mention.brand).or_default().insert(drug);
            }
        }
        named
            .into_iter()
            .filter(|(brand, _)| {
                is_name_word(brand) && !self.names_a_drug(brand) && !self.is_class_word(brand)
            })
            .filter_map(|(brand, drugs)| match drugs.len() {
                1 => drugs.into_iter().next().map(|d| (brand.to_owned(), d)),
                _ => None,
            })
            .collect()
    }

    /// The drug the bracket after a brand names: its one word that is no salt ("(nitisinone)",
    /// "(sofosbuvir and …)"), not one of two ("(peginterferon alfa-2b)").
    fn named_after(&self, words: &[String]) -> Option<Named> {
        let mut names = words.iter().filter(|w| !self.is_salt(w));
        let first = names.next()?;
        match names.next() {
            Some(_) => None,
            None => self.drug_named(first),
        }
    }

    /// The drug the words before a brand name: the nearest that is no salt ("warfarin sodium").
    fn named_before(&self, words: &[String]) -> Option<Named> {
        let nearest = words.iter().find(|w| !self.is_salt(w))?;
        self.drug_named(nearest)
    }

    fn is_salt(&self, word: &str) -> bool {
        !is_name_word(word) || self.salts.contains(word)
    }

    /// The drug `name` is (every word of `labels_by_word` begins a name), with or without labels.
    fn drug_named(&self, name: &str) -> Option<Named> {
        if self.labels_by_word.contains_key(name) {
            return Some(Named::Labelled(name.to_owned()));
        }
        self.unlabelled
            .contains(name)
            .then(|| Named::Unlabelled(name.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::LabelNames;
    use super::*;

    fn vocabulary() -> DrugVocabulary {
        let names = |n: &str| vec![n.to_owned()];
        let (tizanidine, cipro) = (names("tizanidine"), names("ciprofloxacin"));
        DrugVocabulary::build([
            LabelNames {
                label: 0,
                generic: "tizanidine hydrochloride",
                names: &tizanidine,
                brands: &[],
                classes: &[],
                routes: &[],
            },
            LabelNames {
                label: 1,
                generic: "ciprofloxacin",
                names: &cipro,
                brands: &[],
                classes: &[],
                routes: &[],
            },
        ])
    }

    fn mention(brand: &str, after: &[&str], before: &[&str]) -> BrandMention {
        let owned = |words: &[&str]| words.iter().map(|w| w.to_string()).collect();
        BrandMention {
            brand: brand.into(),
            after: owned(after),
            before: owned(before),
        }
    }

    #[test]
    fn a_brand_the_text_names_beside_one_drug_names_its_labels() {
        let v = vocabulary().with_label_brands(vec![
            mention("sirdalud", &[], &["hydrochloride", "tizanidine"]),
            mention("sirdalud", &["tizanidine"], &["take"]),
            mention("tworx", &[], &["tizanidine"]),
            mention("tworx", &[], &["ciprofloxacin"]),
            mention("twoname", &["tizanidine", "alfa"], &[]),
            mention("nomatch", &[], &["take", "with"]),
        ]);
        let understood = v.understand("Can I take Sirdalud with ciprofloxacin?");
        assert_eq!(understood.drugs[0].word, "sirdalud");
        assert_eq!(understood.drugs[0].labels, BTreeSet::from([0]));
        assert!(understood.unlabelled_drugs.is_empty());
        let ambiguous = v.understand("tworx and ciprofloxacin");
        assert_eq!(
            ambiguous.drugs.len(),
            1,
            "a brand named beside two drugs names neither"
        );
        assert!(
            v.understand("twoname").drugs.is_empty(),
            "a name of two words"
        );
        assert!(vocabulary().understand("sirdalud").drugs.is_empty());
    }

    #[test]
    fn a_brand_of_a_drug_without_a_label_is_reported_and_known_words_keep_their_meaning() {
        let v = vocabulary()
            .with_label_brands(vec![
                mention("orap", &[], &["pimozide"]),
                mention("ciprofloxacin", &["tizanidine"], &[]),
            ])
            .with_unlabelled_drugs(["pimozide".to_owned()]);
        let understood = v.understand("ciprofloxacin with orap");
        assert_eq!(understood.unlabelled_drugs, ["orap"]);
        assert!(
            understood.partner_names.contains("pimozide"),
            "the labels' text names it by its generic: {:?}",
            understood.partner_names
        );
        assert_eq!(understood.drugs[0].labels, BTreeSet::from([1]));
    }

    #[test]
    fn a_salt_word_beside_a_brand_is_passed_over_not_taken_for_its_drug() {
        let names = |n: &str| vec![n.to_owned()];
        let hydrocodone = names("hydrocodone bitartrate");
        let mixture = names("lactic acid and potassium bitartrate");
        let label = |label, generic, names| LabelNames {
            label,
            generic,
            names,
            brands: &[],
            classes: &[],
            routes: &[],
        };
        let v = DrugVocabulary::build([
            label(0, "hydrocodone bitartrate", &hydrocodone),
            label(1, "lactic acid and potassium bitartrate", &mixture),
        ])
        .with_label_brands(vec![
            mention("levophed", &[], &["bitartrate", "norepinephrine"]),
            mention("hycodan", &[], &["bitartrate", "hydrocodone"]),
        ]);
        assert!(
            v.drug_named("bitartrate").is_some(),
            "the word begins a name of the mixture's"
        );
        assert!(v.understand("levophed").drugs.is_empty());
        assert_eq!(v.understand("hycodan").drugs[0].labels, BTreeSet::from([0]));
    }
}
