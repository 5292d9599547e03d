//! Which words of a question or a label name can be drug names: salts, forms and routes that
//! never are, words that only name a chemical before a head noun, the words that ask for drugs
//! in general. Word rules only; the vocabulary of the labels is `mod.rs`.

/// Words that name a salt, a form or a route rather than a drug; never taken as a drug mention.
const NOT_DRUG_WORDS: &[&str] = &[
    "acetate",
    "and",
    "anhydrous",
    "besylate",
    "bisulfate",
    "bromide",
    "calcium",
    "capsule",
    "capsules",
    "chloride",
    "citrate",
    "delayed",
    "dihydrate",
    "disodium",
    "extended",
    "fumarate",
    "hcl",
    "hydrobromide",
    "hydrochloride",
    "injection",
    "kit",
    "lotion",
    "magnesium",
    "maleate",
    "mesylate",
    "monohydrate",
    "ophthalmic",
    "oral",
    "phosphate",
    "potassium",
    "release",
    "sodium",
    "solution",
    "succinate",
    "sulfate",
    "suspension",
    "tablet",
    "tablets",
    "tartrate",
    "topical",
    "with",
    "cream",
    "gel",
    "ointment",
    "spray",
    "nasal",
    "for",
    "film",
    "coated",
];
/// Nouns that make the word before them an adjective of a chemical or a material ("lactic
/// acid", "nitric oxide", "methylene blue"): a name word only ever followed by one of them is
/// ordinary vocabulary on its own ("lactic acidosis").
pub(super) const HEAD_NOUNS: &[&str] = &[
    "acid", "oil", "oxide", "dioxide", "alcohol", "blue", "green", "water", "gland", "lobe",
    "extract", "seed", "root", "leaf", "toxin", "salt", "ringers", "mucosa", "bladder",
];
/// Words that ask for drugs in general ("which drugs…", "medications that…").
const GENERIC_DRUG_WORDS: &[&str] = &["drugs", "medications", "medicines", "meds", "agents"];
/// The same in the singular, asking only after one of `ASKING_WORDS` ("which drug…").
const GENERIC_DRUG_WORD: &[&str] = &["drug", "medication", "medicine"];
const ASKING_WORDS: &[&str] = &["which", "what", "any", "other"];
/// Shortest word taken as a drug name on its own (shorter ones collide with ordinary words).
const MIN_NAME_WORD: usize = 4;

/// Whether the word at `at` asks for drugs in general: "drugs", "medications"…, or "which drug";
/// not "drug interactions".
pub(super) fn asks_for_drugs(tokens: &[&str], at: usize) -> bool {
    let word = tokens[at];
    let next_is_interaction = tokens
        .get(at + 1)
        .is_some_and(|n| n.starts_with("interaction"));
    let asked = at > 0 && ASKING_WORDS.contains(&tokens[at - 1]);
    !next_is_interaction
        && (GENERIC_DRUG_WORDS.contains(&word) || (asked && GENERIC_DRUG_WORD.contains(&word)))
}

pub(super) fn is_name_word(word: &str) -> bool {
    word.chars().count() >= MIN_NAME_WORD
        && word.chars().any(char::is_alphabetic)
        && !NOT_DRUG_WORDS.contains(&word)
}

pub(super) fn singular(word: &str) -> Option<&str> {
    word.strip_suffix('s').filter(|w| w.len() >= MIN_NAME_WORD)
}
