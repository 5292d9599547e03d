//! The drug vocabulary a question is read with, built from the live index's labels and the
//! curated tables: which words name which labels, class phrases, lay terms, brands, routes,
//! the labels' own words. Data; reading with it is `understand`'s and its parts'.

use std::collections::{BTreeSet, HashMap};

use super::class_phrases::ClassPhrase;
use super::lay::LayTerms;
use super::name_table::NameTable;
use super::respelling::LabelWords;
use super::spelling::SpellingIndex;

/// Name words of the indexed labels → the labels that carry them; curated brands resolved to
/// their generics' labels; class phrases → the labels of their members.
#[derive(Default)]
pub struct DrugVocabulary {
    pub(super) labels_by_word: HashMap<String, BTreeSet<u32>>,
    /// Name words that appear only before a head noun ("lactic" of "lactic acid"): a question
    /// mentions them only when it continues with one of these words.
    pub(super) continuations: HashMap<String, BTreeSet<String>>,
    /// Name words no name begins with ("glargine" of "insulin glargine-yfgn") → the labels
    /// whose names hold them: they narrow the word before them (`later_words.rs`).
    pub(super) later_words: HashMap<String, BTreeSet<u32>>,
    /// Longest phrase first, so "beta blocker" wins over a shorter phrase inside it.
    pub(super) classes: Vec<ClassPhrase>,
    /// Labels whose generic name lists several ingredients.
    pub(super) combinations: BTreeSet<u32>,
    /// Each combination label with the leading name word of each of its ingredients, in the
    /// generic's order ("piperacillin", "tazobactam"): what a shorthand abbreviates.
    pub(super) ingredients: Vec<(u32, Vec<String>)>,
    /// Short words after the first of a name, too short to name a drug ("tc" of "cortisporin
    /// tc", "xl") → the labels whose names hold them: a product's code.
    pub(super) codes: HashMap<String, BTreeSet<u32>>,
    /// Everyday phrases and the label wording a question using them also searches.
    pub(super) lay_terms: LayTerms,
    /// Words that begin a name (a generic's first word, a brand): what a drug is called by,
    /// unlike the later words of a name ("complex" of "sodium ferric gluconate complex").
    pub(super) leading: BTreeSet<String>,
    /// Name words a name begins with, for reading a misspelled drug name (not the later words
    /// of product names, "starter" of "… starter kit", which ordinary words sit one edit from).
    pub(super) spelling: SpellingIndex,
    /// Drug names of which the index holds no label: from curated data (brands, their
    /// generics, class members) and from label text (`with_unlabelled_drugs`).
    pub(super) unlabelled: BTreeSet<String>,
    /// What the labels call their drugs and the curated classes' members.
    pub(super) names: NameTable,
    /// Curated brands the indexed labels do not carry → their generic: the word a label's
    /// text uses, which a lexical query searches in the brand's place.
    pub(super) brand_generics: HashMap<String, String>,
    /// Brands of drugs without a label (curated or named by label text) → their generic, the
    /// word the labels' text names them by.
    pub(super) unlabelled_generics: HashMap<String, String>,
    /// Label → the routes (lowercase) its products are given by; absent when the label says none.
    pub(super) routes: HashMap<u32, BTreeSet<String>>,
    /// The live index's stems, for reading the question words no label uses.
    pub(super) label_words: LabelWords,
    /// The brands the label text marks beside a drug's name (`label_brands.rs`).
    pub(super) label_brands: Vec<drugcite_core::label::BrandMention>,
    /// Words that only ever follow another in a name: salts and forms ("bitartrate").
    pub(super) salts: BTreeSet<String>,
    /// Names made only of salt words ("potassium citrate", "sodium bicarbonate"): a question
    /// names them by the whole phrase, never by one of its words. Longest phrase first.
    pub(super) salt_names: Vec<(Vec<String>, BTreeSet<u32>)>,
}
