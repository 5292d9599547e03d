//! Which words of a question or a label name can be drug names: salts, forms and routes that
//! never are, words that only name a chemical before a head noun, the words that ask for drugs
//! in general, the names a label may be called by. Word rules only; the vocabulary of the
//! labels is `mod.rs`.

use std::collections::HashSet;
use std::sync::LazyLock;

use super::word_tables::{column, parsed, threshold, words, WordClass};
use super::LabelNames;
use crate::tables::understand as tables;
use drugcite_core::text::name_words;

/// Words that name a salt, a form or a route rather than a drug (`not-name-words.tsv`); never
/// taken as a drug mention.
static NOT_DRUG_WORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    column(&tables::NOT_NAME_WORDS, "word")
        .into_iter()
        .collect()
});
/// Nouns that make the word before them an adjective of a chemical or a material ("lactic
/// acid", "nitric oxide", "methylene blue"; `head-nouns.tsv`): a name word only ever followed
/// by one of them is ordinary vocabulary on its own ("lactic acidosis").
pub(super) static HEAD_NOUNS: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| column(&tables::HEAD_NOUNS, "word"));
/// Shortest word taken as a drug name on its own (shorter ones collide with ordinary words).
static MIN_NAME_WORD: LazyLock<usize> = LazyLock::new(|| threshold("min_name_word"));

/// Whether the word at `at` asks for drugs in general: "drugs", "medications"…, or "which drug"
/// (`question-words.tsv`); not "drug interactions".
pub(super) fn asks_for_drugs(tokens: &[&str], at: usize) -> bool {
    let word = tokens[at];
    let compound = words(WordClass::DrugCompound);
    let next_is_compound = tokens
        .get(at + 1)
        .is_some_and(|n| compound.iter().any(|head| n.starts_with(head)));
    let asked = at > 0 && words(WordClass::Asking).contains(&tokens[at - 1]);
    let drugs = words(WordClass::Drugs).contains(&word);
    !next_is_compound && (drugs || (asked && words(WordClass::DrugAsked).contains(&word)))
}

pub(super) fn is_name_word(word: &str) -> bool {
    word.chars().count() >= *MIN_NAME_WORD
        && word.chars().any(char::is_alphabetic)
        && !NOT_DRUG_WORDS.contains(word)
}

/// Whether `word` is a salt, counter-ion or hydrate word of `not-name-words.tsv` ("potassium",
/// "citrate"): a name made only of them names a drug by the whole phrase.
pub(super) fn is_salt_word(word: &str) -> bool {
    static SALT_WORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
        let table = parsed(&tables::NOT_NAME_WORDS);
        let (word, kind) = (table.column("word"), table.column("kind"));
        let salts = table.rows().iter().filter(|row| row.cell(kind) == "salt");
        salts.map(|row| row.cell(word)).collect()
    });
    SALT_WORDS.contains(word)
}

pub(super) fn singular(word: &str) -> Option<&str> {
    word.strip_suffix('s').filter(|w| w.len() >= *MIN_NAME_WORD)
}

/// More ingredients than this make a label's generic a mixture's list (`own_names`).
static MIXTURE_INGREDIENTS: LazyLock<usize> = LazyLock::new(|| threshold("mixture_ingredients"));

/// The names a question may call a label by: all of them, but of a mixture — more than
/// `MIXTURE_INGREDIENTS` ingredients in its generic or substances (multivitamins, homeopathic
/// kits of plant and organ extracts) — only its brands and a generic that lists nothing:
/// nobody names such a product by one ingredient among many, and "bladder" or "iron" would
/// otherwise name it.
pub(super) fn own_names<'a>(label: &'a LabelNames) -> impl Iterator<Item = &'a String> {
    let generic = label.generic.to_lowercase();
    let listed: usize = name_parts(&generic)
        .iter()
        .map(|part| part.split(" - ").count())
        .sum();
    let substances = label.names.len().saturating_sub(1 + label.brands.len());
    let mixture = listed.max(substances) > *MIXTURE_INGREDIENTS;
    let brand = |name: &str| label.brands.iter().any(|b| b.eq_ignore_ascii_case(name));
    let first_word = name_words(&generic).next().map(str::to_owned);
    let described = move |name: &str| {
        let lower = name.to_lowercase();
        brand(name)
            && first_word
                .as_deref()
                .is_some_and(|w| words_before(&lower, w))
    };
    label
        .names
        .iter()
        .filter(move |name| !mixture || brand(name) || (listed == 1 && **name == generic))
        .filter(move |name| !described(name))
}

/// A combination label with the leading name word of each ingredient its generic lists, in
/// order ("piperacillin and tazobactam" → piperacillin, tazobactam); none for one ingredient or
/// an ingredient without a name word.
pub(super) fn ingredient_words(label: &LabelNames) -> Option<(u32, Vec<String>)> {
    let parts = name_parts(&label.generic.to_lowercase());
    let words: Option<Vec<String>> = (parts.iter())
        .map(|part| {
            name_words(part)
                .find(|w| is_name_word(w))
                .map(str::to_owned)
        })
        .collect();
    Some((label.label, words.filter(|w| w.len() > 1)?))
}

/// Whether `word` is a word of `name` after its first: a brand that names its generic after
/// other words ("good sense levocetirizine", "head lice treatment ivermectin lotion") is a
/// seller's or a description's words before the drug's name, not a name of it ("good",
/// "head").
fn words_before(name: &str, word: &str) -> bool {
    name_words(name).skip(1).any(|w| w == word)
}

/// A drug's name without its salt, form and route words ("sildenafil citrate" → "sildenafil"),
/// as label text usually names it; the name itself when nothing else is left.
pub(crate) fn without_salts(name: &str) -> String {
    let kept: Vec<&str> = name
        .split_whitespace()
        .filter(|word| !NOT_DRUG_WORDS.contains(word))
        .collect();
    if kept.is_empty() {
        name.to_owned()
    } else {
        kept.join(" ")
    }
}

/// A label name split where it lists several ingredients ("a, b, and c"; "a/b").
pub(crate) fn name_parts(name: &str) -> Vec<String> {
    name.split([',', '/', ';'])
        .flat_map(|part| part.split(" and "))
        .map(str::to_owned)
        .collect()
}
