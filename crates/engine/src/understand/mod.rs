//! Question understanding without a language model: which drugs a question names (generic,
//! brand or substance names of the indexed labels, curated brands, misspelled names; other
//! misspelled words read as the label words they stand for, in respelling.rs), which it
//! names without a label in the index, which drug classes (FDA
//! established classes, curated class terms such as "blood thinner"), and which label sections
//! its wording asks for ("contraindicated", "side effects", "black box", "overdose", "pregnant",
//! "kidney"…): the `Understanding` search reads; and the graph's `Reading` of the same question
//! (its relation words, "which drugs", boxed warnings only…, `reading.rs`). Every word table
//! and threshold is data (`crates/engine/tables/understand/`). Pure functions over a vocabulary
//! built from the labels; no I/O, no ranking, no graph nodes.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Range;
use std::sync::LazyLock;

use drugcite_core::text::name_words;

mod class_phrases;
mod contractions;
mod cues;
mod drug_words;
pub mod form;
mod intent;
mod label_brands;
mod later_words;
mod lay;
pub mod medicine;
pub mod medicine_condition;
mod mentions;
mod naming;
pub mod populations;
mod reading;
mod respelling;
mod spelling;
mod stems;
mod unlabelled;
mod word_tables;
mod wording;

use class_phrases::{class_phrases, phrase_positions, ClassPhrase};
pub(crate) use drug_words::name_parts;
use drug_words::{asks_for_drugs, is_name_word, own_names, singular, HEAD_NOUNS};
pub use intent::paired_sections;
use intent::{add_population_sections, asked_sections, cue_words_left_out, joined_to_subject};
use label_brands::SaltWords;
use later_words::with_unsuffixed;
use lay::LayTerms;
use medicine::{named_form_routes, names_another_medicine};
use mentions::named_drug_first;
use naming::NameTable;
pub(crate) use reading::{default_relations, example_connector, is_filler, Reading, Unasked};
pub use respelling::{LabelWords, ReadAs};
use spelling::SpellingIndex;
use wording::{join_outside, join_without, names_another_drug, spelled_out, subject_naming};

/// Label sections (openFDA keys) ranked below the professional sections unless a question asks
/// for them: packaging, patient-facing and reference sections (`peripheral-sections.tsv`).
pub static PERIPHERAL_SECTIONS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let source = &crate::tables::understand::PERIPHERAL_SECTIONS;
    let table = word_tables::parsed(source);
    let section = table.column("section");
    let rows = table.rows().iter();
    rows.flat_map(|row| cues::section_keys_of(source, row, row.cell(section)))
        .collect()
});

/// A drug or drug class the question names, and the labels (by ordinal) it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrugMention {
    pub word: String,
    /// The class's name (lowercase) when the mention is a class phrase.
    pub class: Option<String>,
    pub labels: BTreeSet<u32>,
    /// Those of `labels` that combine the drug with other ingredients.
    pub combinations: BTreeSet<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Understanding {
    /// In order of first mention: the first is the question's subject unless `subject_open`.
    pub drugs: Vec<DrugMention>,
    /// The question asks which drugs ("drugs contraindicated with MAO inhibitors"): the drugs
    /// it names are partners of the answer, not its subject.
    pub subject_open: bool,
    /// Requested section keys, strongest first, without repeats.
    pub sections: Vec<&'static str>,
    /// The question without the words naming its subject ("atorvastatin", "cholesterol
    /// medicine"): what the text of an answer should match, while the subject selects labels.
    pub topic: String,
    /// The question without the class phrase naming its subject, plus the label wording of
    /// its everyday phrases: the words of a BM25 query (a drug name stays, it matches the
    /// labels' names).
    pub keywords: String,
    /// The keywords without the words naming a drug subject (its name, misspelled or not, and
    /// the names of its own ingredients): the BM25 query within the subject's labels, where
    /// every passage is the subject's and its name only rewards repeating it. Equal to
    /// `keywords` for a class subject or none.
    pub subject_keywords: String,
    /// Drug names the question uses that no label of the index carries (drugs named in label
    /// text, learned through `DrugVocabulary::with_unlabelled_drugs`; curated brands and class
    /// members without a label; words shaped like drug names), in question order.
    pub unlabelled_drugs: Vec<String>,
    /// The names (lowercase phrases) a label text uses for the partners the question names
    /// beside its subject: their words, generics, class phrases and members, and drugs named
    /// that have no label (empty without a subject or a partner).
    pub partner_names: BTreeSet<String>,
    /// The labels of those partners (drugs or classes with labels, none shared with the
    /// subject's) and the names their text uses for the subject (both empty without them).
    pub partner_labels: BTreeSet<u32>,
    pub subject_names: BTreeSet<String>,
    /// Question words no indexed label uses and the label words they were read as
    /// (`DrugVocabulary::with_label_words`), in question order.
    pub read_as: Vec<ReadAs>,
    /// The routes (lowercase, as openFDA spells them) of the forms the question names a
    /// medicine by ("fish oil pills" → oral, "eye drops" → ophthalmic); empty without one.
    pub form_routes: BTreeSet<String>,
}

impl Understanding {
    /// The drug (or class, or condition's labels) the question is about: its first mention,
    /// unless it asks for drugs in general.
    pub fn subject(&self) -> Option<&DrugMention> {
        self.drugs.first().filter(|_| !self.subject_open)
    }
}

/// What the vocabulary needs of one indexed label: its ordinal, generic name, lowercase names
/// (generic, brands, substances) and FDA established classes.
pub struct LabelNames<'a> {
    pub label: u32,
    pub generic: &'a str,
    pub names: &'a [String],
    /// Its brand names, as the label writes them.
    pub brands: &'a [String],
    pub classes: &'a [String],
    /// The routes its products are given by, as openFDA writes them ("ORAL").
    pub routes: &'a [String],
}

/// A drug or class found in a question: the words it spans and whether they are a class phrase.
struct Found {
    span: Range<usize>,
    class: bool,
    mention: DrugMention,
}

/// Name words of the indexed labels → the labels that carry them; curated brands resolved to
/// their generics' labels; class phrases → the labels of their members.
#[derive(Default)]
pub struct DrugVocabulary {
    labels_by_word: HashMap<String, BTreeSet<u32>>,
    /// Name words that appear only before a head noun ("lactic" of "lactic acid"): a question
    /// mentions them only when it continues with one of these words.
    continuations: HashMap<String, BTreeSet<String>>,
    /// Name words no name begins with ("glargine" of "insulin glargine-yfgn") → the labels
    /// whose names hold them: they narrow the word before them (`later_words.rs`).
    later_words: HashMap<String, BTreeSet<u32>>,
    /// Longest phrase first, so "beta blocker" wins over a shorter phrase inside it.
    classes: Vec<ClassPhrase>,
    /// Labels whose generic name lists several ingredients.
    combinations: BTreeSet<u32>,
    /// Everyday phrases and the label wording a question using them also searches.
    lay_terms: LayTerms,
    /// Words that begin a name (a generic's first word, a brand): what a drug is called by,
    /// unlike the later words of a name ("complex" of "sodium ferric gluconate complex").
    leading: BTreeSet<String>,
    /// Name words a name begins with, for reading a misspelled drug name (not the later words
    /// of product names, "starter" of "… starter kit", which ordinary words sit one edit from).
    spelling: SpellingIndex,
    /// Drug names of which the index holds no label: from curated data (brands, their
    /// generics, class members) and from label text (`with_unlabelled_drugs`).
    unlabelled: BTreeSet<String>,
    /// What the labels call their drugs and the curated classes' members.
    names: NameTable,
    /// Curated brands the indexed labels do not carry → their generic: the word a label's
    /// text uses, which a lexical query searches in the brand's place.
    brand_generics: HashMap<String, String>,
    /// Brands of drugs without a label (curated or named by label text) → their generic, the
    /// word the labels' text names them by.
    unlabelled_generics: HashMap<String, String>,
    /// Label → the routes (lowercase) its products are given by; absent when the label says none.
    routes: HashMap<u32, BTreeSet<String>>,
    /// The live index's stems, for reading the question words no label uses.
    label_words: LabelWords,
    /// The brands the label text marks beside a drug's name (`label_brands.rs`).
    label_brands: Vec<drugcite_core::label::BrandMention>,
    /// Words that only ever follow another in a name: salts and forms ("bitartrate").
    salts: BTreeSet<String>,
}

impl DrugVocabulary {
    /// The vocabulary of the current versions of the labels `snapshot` holds.
    pub fn of_current_labels(snapshot: &drugcite_store::Snapshot) -> Self {
        Self::build(snapshot.current_labels().map(|(label, l)| LabelNames {
            label,
            generic: &l.drug.name,
            names: &l.search_names,
            brands: &l.drug.brand_names,
            classes: &l.classes,
            routes: &l.drug.route,
        }))
    }

    pub fn build<'a>(labels: impl IntoIterator<Item = LabelNames<'a>>) -> Self {
        let labels: Vec<LabelNames> = labels.into_iter().collect();
        let mut labels_by_word: HashMap<String, BTreeSet<u32>> = HashMap::new();
        let mut standalone: BTreeSet<String> = BTreeSet::new();
        let mut continuations: HashMap<String, BTreeSet<String>> = HashMap::new();
        let mut leading: BTreeSet<String> = BTreeSet::new();
        let mut salts = SaltWords::default();
        for label in &labels {
            for part in own_names(label).flat_map(|n| name_parts(n)) {
                let part: Vec<&str> = name_words(&part).collect();
                salts.count(&part);
                let first_name_word = part.iter().find(|w| is_name_word(w));
                leading.extend(first_name_word.map(|w| (*w).to_owned()));
                for (i, word) in part.iter().enumerate().filter(|(_, w)| is_name_word(w)) {
                    labels_by_word
                        .entry((*word).to_owned())
                        .or_default()
                        .insert(label.label);
                    match part.get(i + 1).filter(|next| HEAD_NOUNS.contains(next)) {
                        Some(next) => continuations
                            .entry((*word).to_owned())
                            .or_default()
                            .insert((*next).to_owned()),
                        None => standalone.insert((*word).to_owned()),
                    };
                }
            }
        }
        continuations.retain(|word, _| !standalone.contains(word));
        // A word no name begins with ("test" of "Aridol Bronchial Challenge Test Kit",
        // "alcohol" of "dehydrated alcohol") describes a product; alone it names none. A salt
        // or form word before the name does not begin it ("sodium zirconium cyclosilicate").
        let (mut labels_by_word, later_words): (HashMap<_, _>, HashMap<_, _>) = labels_by_word
            .into_iter()
            .partition(|(word, _)| leading.contains(word));
        let later_words = with_unsuffixed(later_words);
        let spelling = SpellingIndex::new(labels_by_word.keys());
        let mut unlabelled = BTreeSet::new();
        let mut brand_generics = HashMap::new();
        let mut unlabelled_generics = HashMap::new();
        let abbreviations = crate::curated::drug_abbreviations();
        for brand in crate::curated::brands().into_iter().chain(abbreviations) {
            match labels_by_word.get(&brand.generic).cloned() {
                Some(generic) => {
                    leading.insert(brand.brand.clone());
                    if !labels_by_word.contains_key(&brand.brand) {
                        labels_by_word.insert(brand.brand.clone(), generic);
                        brand_generics.insert(brand.brand, brand.generic);
                    }
                }
                None => {
                    unlabelled.extend([brand.brand.clone(), brand.generic.clone()]);
                    unlabelled_generics.insert(brand.brand, brand.generic);
                }
            }
        }
        let members = crate::curated::drug_classes()
            .into_iter()
            .flat_map(|c| c.members);
        unlabelled.extend(members.filter(|m| !labels_by_word.contains_key(m)));
        let classes = class_phrases(&labels, &labels_by_word);
        let combinations = labels
            .iter()
            .filter(|l| name_parts(l.generic).len() > 1)
            .map(|l| l.label)
            .collect();
        let lay_terms = LayTerms::curated();
        let names = NameTable::build(&labels);
        let routes = labels
            .iter()
            .filter(|l| !l.routes.is_empty())
            .map(|l| (l.label, l.routes.iter().map(|r| r.to_lowercase()).collect()))
            .collect();
        Self {
            labels_by_word,
            continuations,
            later_words,
            classes,
            combinations,
            lay_terms,
            leading,
            spelling,
            unlabelled,
            names,
            brand_generics,
            unlabelled_generics,
            routes,
            label_words: LabelWords::default(),
            label_brands: Vec::new(),
            salts: salts.words(),
        }
    }

    /// Every class (lowercase name) with the labels of its members.
    pub fn classes(&self) -> BTreeMap<&str, &BTreeSet<u32>> {
        self.classes
            .iter()
            .map(|c| (c.name.as_str(), &c.labels))
            .collect()
    }

    /// Whether `label` says the routes it is given by and none is one of `routes` (never for
    /// empty `routes` or a label that says none): not the form a question names.
    pub fn given_otherwise(&self, label: u32, routes: &BTreeSet<String>) -> bool {
        !routes.is_empty() && self.given_by_one_of(label, routes) == Some(false)
    }

    /// Whether `label` is given by one of `routes` (lowercase); `None` when it says no route.
    fn given_by_one_of<'r>(
        &self,
        label: u32,
        routes: impl IntoIterator<Item = &'r String>,
    ) -> Option<bool> {
        let given = self.routes.get(&label)?;
        Some(routes.into_iter().any(|route| given.contains(route)))
    }

    pub fn understand(&self, question: &str) -> Understanding {
        let (lower, read_as) = self.respelled(&question.to_lowercase());
        let tokens: Vec<&str> = name_words(&lower).collect();
        let found = self.joined_combinations(self.find_mentions(&tokens), &tokens);
        let generics = names_another_drug(&found).then_some(&self.brand_generics);
        let tokens = spelled_out(&tokens, &found, generics);
        let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
        let in_class_phrase = |at: usize| found.iter().any(|f| f.class && f.span.contains(&at));
        let before_first = found.first().map_or(tokens.len(), |f| f.span.start);
        let subject_open =
            (0..before_first).any(|at| !in_class_phrase(at) && asks_for_drugs(&tokens, at));
        let found = named_drug_first(found, &tokens);
        let subject = found.first().filter(|_| !subject_open);
        let topic = join_without(&tokens, subject.map(|f| f.span.clone()));
        let class_subject = subject.filter(|f| f.class).map(|f| f.span.clone());
        let naming = subject_naming(&found, subject);
        let spans: Vec<Range<usize>> = found.iter().map(|f| f.span.clone()).collect();
        let joined = subject.is_some_and(|f| {
            joined_to_subject(&tokens, &f.span) || names_another_medicine(&tokens, &f.span, &spans)
        });
        let mut keywords = join_without(&tokens, class_subject);
        let cue_words = cue_words_left_out(&lower);
        let left_out: Vec<Range<usize>> = (0..tokens.len())
            .filter(|&at| cue_words.iter().any(|w| w == tokens[at]))
            .map(|at| at..at + 1)
            .chain(naming)
            .collect();
        let mut subject_keywords = join_outside(&tokens, &left_out);
        for wording in self.lay_terms.wording_in(&keywords) {
            for query in [&mut keywords, &mut subject_keywords] {
                query.push(' ');
                query.push_str(wording);
            }
        }
        let unlabelled_drugs = self.unlabelled_in(&tokens, &found);
        let mut drugs: Vec<DrugMention> = Vec::new();
        for Found { mention, .. } in found {
            if !drugs.iter().any(|d| d.labels == mention.labels) {
                drugs.push(mention);
            }
        }
        let subject = drugs.first().filter(|_| !subject_open);
        let partners = self.partners(&drugs);
        let partner_names = self.partner_names(subject, &partners, &unlabelled_drugs);
        let subject_names = self.subject_names(subject, &partners);
        let partner_labels = partners.iter().flat_map(|p| p.labels.iter().copied());
        let partner_labels = partner_labels.collect();
        let mut sections = asked_sections(&lower, &topic);
        if subject.is_some() && (!partners.is_empty() || joined) {
            sections = paired_sections(sections);
        }
        add_population_sections(&lower, &mut sections);
        Understanding {
            drugs,
            subject_open,
            sections,
            topic,
            keywords,
            subject_keywords,
            unlabelled_drugs,
            partner_names,
            partner_labels,
            subject_names,
            read_as,
            form_routes: named_form_routes(&tokens),
        }
    }
}

#[cfg(test)]
mod tests;
