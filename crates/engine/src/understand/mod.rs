//! Question understanding without a language model: which drugs a question names (generic,
//! brand or substance names of the indexed labels, curated brands, misspelled names; other
//! misspelled words read as the label words they stand for, in respelling.rs; acronyms read as
//! the long forms the labels define, in acronyms.rs), which it
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

mod acronyms;
pub mod ages;
mod class_phrases;
mod cues;
mod drug_words;
pub mod form;
mod hyphenated;
mod intent;
mod label_brands;
mod later_words;
mod lay;
pub mod measurements;
pub mod medicine;
pub mod medicine_condition;
mod mentions;
mod name_table;
mod naming;
pub mod populations;
mod reading;
mod respelling;
mod spelling;
mod stated_classes;
mod stems;
pub mod thresholds;
mod understanding;
mod unlabelled;
mod vocabulary;
mod word_tables;
mod wording;

use class_phrases::class_phrases;
use drug_words::{
    asks_for_drugs, ingredient_words, is_name_word, is_salt_word, own_names, singular, HEAD_NOUNS,
};
pub(crate) use drug_words::{name_parts, without_salts};
pub use intent::paired_sections;
use intent::{add_population_sections, asked_sections, cue_words_left_out, joined_to_subject};
use label_brands::SaltWords;
use later_words::with_unsuffixed;
use lay::LayTerms;
use medicine::{named_form_routes, names_another_medicine};
use name_table::NameTable;
pub(crate) use reading::{default_relations, example_connector, is_filler, Reading, Unasked};
pub use respelling::LabelWords;
use spelling::SpellingIndex;
use stated_classes::ClassNames;
use understanding::Found;
pub use understanding::{DrugMention, LabelNames, ReadAs, Understanding};
pub use vocabulary::DrugVocabulary;
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

impl DrugVocabulary {
    /// The vocabulary of the current versions of the labels `snapshot` holds, each a member of
    /// its openFDA classes and of the class its Indications states (`stated_classes.rs`).
    pub fn of_current_labels(snapshot: &drugcite_store::Snapshot) -> Self {
        let labels: Vec<_> = snapshot.current_labels().collect();
        let names = ClassNames::of(labels.iter().flat_map(|(_, l)| &l.classes));
        let classes: Vec<Vec<String>> = labels
            .iter()
            .map(|(_, l)| names.with_stated(&l.classes, l.stated_class.as_deref()))
            .collect();
        Self::build(
            labels
                .iter()
                .zip(&classes)
                .map(|((label, l), classes)| LabelNames {
                    label: *label,
                    generic: &l.drug.name,
                    names: &l.search_names,
                    brands: &l.drug.brand_names,
                    classes,
                    routes: &l.drug.route,
                }),
        )
    }

    pub fn build<'a>(labels: impl IntoIterator<Item = LabelNames<'a>>) -> Self {
        let labels: Vec<LabelNames> = labels.into_iter().collect();
        let mut labels_by_word: HashMap<String, BTreeSet<u32>> = HashMap::new();
        let mut standalone: BTreeSet<String> = BTreeSet::new();
        let mut continuations: HashMap<String, BTreeSet<String>> = HashMap::new();
        let mut leading: BTreeSet<String> = BTreeSet::new();
        let mut salts = SaltWords::default();
        let mut salt_names: BTreeMap<Vec<String>, BTreeSet<u32>> = BTreeMap::new();
        let mut codes: HashMap<String, BTreeSet<u32>> = HashMap::new();
        for label in &labels {
            for part in own_names(label).flat_map(|n| name_parts(n)) {
                let part: Vec<&str> = name_words(&part).collect();
                salts.count(&part);
                if part.len() > 1 && part.iter().all(|w| is_salt_word(w)) {
                    let phrase = part.iter().map(|w| (*w).to_owned()).collect();
                    salt_names.entry(phrase).or_default().insert(label.label);
                }
                for code in part.iter().skip(1).filter(|w| !is_name_word(w)) {
                    codes
                        .entry((*code).to_owned())
                        .or_default()
                        .insert(label.label);
                }
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
        let ingredients = labels.iter().filter_map(ingredient_words).collect();
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
            ingredients,
            codes,
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
            salt_names: longest_first(salt_names),
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

    /// The vocabulary that reads a question's words no label uses through `words` (the served
    /// labels' words); without it, every word is read as asked.
    pub fn with_label_words(mut self, words: LabelWords) -> Self {
        self.label_words = words;
        self
    }

    /// `question` with its acronyms spelled out ("VKA", "ACEi"), lowercased, its negative
    /// contractions written out, its unknown words read as label words and the findings of the
    /// values it states written beside them ("K 5.8 (hyperkalemia)"), and the readings: what
    /// `understand` reads, and the graph's question reading too.
    pub fn respelled(&self, question: &str) -> (String, Vec<ReadAs>) {
        let reads_itself = |word: &str| self.names_a_drug(word) || self.is_class_word(word);
        let acronyms = acronyms::Acronyms::mined();
        let (spelled, mut read_as) = acronyms.spelled_out(question, reads_itself);
        let (text, respelled) = self.respelled_lowercase(&spelled.to_lowercase());
        read_as.extend(respelled);
        let (text, found) = measurements::with_findings(&text);
        read_as.extend(found);
        (text, read_as)
    }

    /// `lower` with its negative contractions written out and its unknown words read as label
    /// words (label text's own acronyms stay as written: its long forms are beside them).
    fn respelled_lowercase(&self, lower: &str) -> (String, Vec<ReadAs>) {
        let written_out = drugcite_core::text::expand_contractions(lower);
        self.label_words
            .respell(&written_out, |word| self.claims(word))
    }

    /// Whether `word` is the vocabulary's to read: a drug name (misspelled or not, with or
    /// without a label, or shaped like one), a word of a class phrase or of a lay phrase.
    fn claims(&self, word: &str) -> bool {
        let known = |w: &str| self.names_a_drug(w);
        known(word)
            || singular(word).is_some_and(known)
            || self.spelling.correct(word).is_some()
            || self.hyphenated(word).is_some()
            || stems::has_drug_stem(word)
            || self.is_class_word(word)
            || self.lay_terms.uses(word)
    }

    /// Whether `word` is a drug name the vocabulary knows, with a label or without, or a name
    /// word that only comes before a head noun.
    pub(super) fn names_a_drug(&self, word: &str) -> bool {
        self.labels_by_word.contains_key(word)
            || self.unlabelled.contains(word)
            || self.continuations.contains_key(word)
    }

    /// Whether `word` is a word of a class phrase.
    pub(super) fn is_class_word(&self, word: &str) -> bool {
        self.classes
            .iter()
            .any(|c| c.words.iter().any(|w| w == word))
    }

    /// The label wording of the everyday phrases `text` holds ("erectile" of "erection"): what
    /// a label says for the words a question uses.
    pub fn label_wording_of(&self, text: &str) -> Vec<&str> {
        self.lay_terms.wording_in(text)
    }

    /// What a question asks: its acronyms read as the labels define them, then as `read`.
    pub fn understand(&self, question: &str) -> Understanding {
        let (lower, read_as) = self.respelled(question);
        self.understand_read(lower, read_as)
    }

    /// What a label's text names, read as a question is but for its acronyms (the label
    /// defines them itself: spelled out, "MAOIs" would read twice).
    pub fn understand_text(&self, text: &str) -> Understanding {
        let (lower, read_as) = self.respelled_lowercase(&text.to_lowercase());
        self.understand_read(lower, read_as)
    }

    fn understand_read(&self, lower: String, read_as: Vec<ReadAs>) -> Understanding {
        let tokens: Vec<&str> = name_words(&lower).collect();
        let found = self.joined_combinations(self.find_mentions(&tokens), &tokens);
        let generics = names_another_drug(&found).then_some(&self.brand_generics);
        let tokens = spelled_out(&tokens, &found, generics);
        let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
        let in_class_phrase = |at: usize| found.iter().any(|f| f.class && f.span.contains(&at));
        let before_first = found.first().map_or(tokens.len(), |f| f.span.start);
        let subject_open =
            (0..before_first).any(|at| !in_class_phrase(at) && asks_for_drugs(&tokens, at));
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

/// The phrases of `phrases`, longest first (then in order), with their labels.
fn longest_first(
    phrases: BTreeMap<Vec<String>, BTreeSet<u32>>,
) -> Vec<(Vec<String>, BTreeSet<u32>)> {
    let mut phrases: Vec<_> = phrases.into_iter().collect();
    phrases.sort_by_key(|(words, _)| std::cmp::Reverse(words.len()));
    phrases
}

#[cfg(test)]
mod tests;
