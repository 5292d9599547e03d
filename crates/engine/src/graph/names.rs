//! Drug names that label text mentions although the index has no label of their own
//! ("pimozide", "ketoconazole"): recognised by general means only — members of "(e.g., …)" and
//! "such as …" lists after a drug, class or enzyme word, the row names of PLR interaction
//! tables ("Pimozide Clinical Impact: …"), words carrying a USAN stem, and the generics of the
//! curated brands and class members. Pure text work; no vocabulary of the index. The words are
//! `usan-stems.tsv` and `list-words.tsv`.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use super::wording::{count, group};
use crate::tables::graph as tables;

/// USAN stems (suffixes) that mark a drug name (`usan-stems.tsv`); only the specific ones,
/// never those a common English word ends with.
static USAN_STEMS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let table = tables::USAN_STEMS.rows();
    table.values("stem").map(str::to_owned).collect()
});
/// Shortest name a stem may mark (so "apine" alone is no drug).
static MIN_STEM_NAME: LazyLock<usize> = LazyLock::new(|| count("min_stem_name"));
/// Words of a list's context that say its members are drugs (`list-words.tsv`, list-head).
static DRUG_CONTEXT: LazyLock<Regex> = LazyLock::new(|| {
    let heads = list_words("list-head").join("|");
    Regex::new(&format!(r"(?i)\b(?:{heads})\s*$")).expect("drug context pattern")
});
/// A list introduced by "e.g.", "such as" or "including", up to its closing bracket or the
/// end of the clause.
static EXAMPLE_LIST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:\(\s*(?:e\.g\.,?|eg,|such as|including)\s*([^()]{3,300})\)|\b(?:such as|including)\s+([^.;:()]{3,300}))")
        .expect("example list pattern")
});
/// A one-word row name of a PLR drug interaction table, just before "Clinical Impact:" and
/// after the end of the previous row (never the last word of a longer name: "QT Prolongation").
static TABLE_ROW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[a-z0-9.)\]]\s+)([A-Z][A-Za-z-]{4,})\s+Clinical Impact\s*:")
        .expect("table row pattern")
});
/// Most words of a list item ("St. John's Wort", "strong CYP3A4 inhibitors").
static MAX_ITEM_WORDS: LazyLock<usize> = LazyLock::new(|| count("max_item_words"));
/// Fewest letters of a listed name.
static MIN_NAME_LETTERS: LazyLock<usize> = LazyLock::new(|| count("min_name_letters"));
/// Words of a list item that are no drug name.
static NOT_NAMES: LazyLock<Vec<String>> = LazyLock::new(|| list_words("not-name"));
/// Endings of English words no drug name has (a USAN stem still wins).
static ENGLISH_ENDINGS: LazyLock<Vec<String>> = LazyLock::new(|| list_words("english-ending"));

/// The words of a role of `list-words.tsv`, in file order.
pub(super) fn list_words(role: &str) -> Vec<String> {
    group(&tables::LIST_WORDS, "role", role, "word")
}

/// One-word drug names a list in `text` gives as examples of drugs, in text order.
pub fn listed_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for caps in EXAMPLE_LIST.captures_iter(text) {
        let whole = caps.get(0).expect("match");
        if !DRUG_CONTEXT.is_match(&text[..whole.start()]) {
            continue;
        }
        let list = caps.get(1).or(caps.get(2)).map_or("", |m| m.as_str());
        out.extend(list_items(list));
    }
    out
}

/// One-word row names of the interaction tables in `text`, lowercase, in text order.
pub fn table_row_names(text: &str) -> Vec<String> {
    TABLE_ROW
        .captures_iter(text)
        .filter_map(|caps| name_word(&caps[1]))
        .collect()
}

/// The single-word items of a comma/"and"/"or" list that look like names, up to the first item
/// of more than `MAX_ITEM_WORDS` words: there the prose has resumed ("opioids such as APADAZ,
/// but use in such patients necessitates … addiction, abuse, and misuse").
pub fn list_items(list: &str) -> Vec<String> {
    list.split([',', '/'])
        .flat_map(|item| item.split(" and ").flat_map(|i| i.split(" or ")))
        .map(|item| item.split_whitespace().collect::<Vec<&str>>())
        .take_while(|words| words.len() <= *MAX_ITEM_WORDS)
        .filter_map(|words| match words.as_slice() {
            [word] => name_word(word),
            _ => None,
        })
        .collect()
}

/// `word` as a lowercase drug name if it can be one: letters (and inner hyphens) only, at least
/// `min_name_letters` of them, not a list's filler word.
fn name_word(word: &str) -> Option<String> {
    let word = word
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    let letters = word.chars().all(|c| c.is_ascii_lowercase());
    let english =
        ENGLISH_ENDINGS.iter().any(|e| word.ends_with(e.as_str())) && !has_usan_stem(&word);
    let long = word.len() >= *MIN_NAME_LETTERS;
    (letters && long && !english && !NOT_NAMES.contains(&word)).then_some(word)
}

/// Words of `text` carrying a USAN stem, lowercase, in text order.
pub fn stem_names(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() >= *MIN_STEM_NAME)
        .filter_map(name_word)
        .filter(|w| has_usan_stem(w))
        .collect()
}

pub fn has_usan_stem(word: &str) -> bool {
    USAN_STEMS.iter().any(|stem| word.ends_with(stem.as_str()))
}

/// The generic names the curated tables know (brands' generics, classes' members).
pub fn curated_names() -> BTreeSet<String> {
    let brands = crate::curated::brands().into_iter().map(|b| b.generic);
    let members = crate::curated::drug_classes()
        .into_iter()
        .flat_map(|c| c.members.into_iter().map(|m| m.to_lowercase()));
    brands.chain(members).filter(|n| !n.contains(' ')).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_lists_after_drug_words_give_names_and_other_lists_do_not() {
        let text = "Avoid strong CYP3A4 inhibitors (e.g., ketoconazole, itraconazole, and \
                    clarithromycin). Hypersensitivity (e.g., anaphylactic shock, rash generalized).";
        assert_eq!(
            listed_names(text),
            ["ketoconazole", "itraconazole", "clarithromycin"]
        );
        assert_eq!(
            listed_names("other drugs such as pimozide or thioridazine."),
            ["pimozide", "thioridazine"]
        );
        assert_eq!(
            listed_names(
                "opioids such as APADAZ, but use in such patients necessitates counseling \
                 about signs of addiction, abuse, and misuse"
            ),
            ["apadaz"],
            "the list ends where the prose resumes"
        );
    }

    #[test]
    fn interaction_table_rows_name_drugs() {
        let text = "Antipsychotics Clinical Impact: more. Pimozide Clinical Impact: Increased \
                    plasma concentrations of pimozide. QT Prolongation Clinical Impact: more.";
        assert_eq!(table_row_names(text), ["antipsychotics", "pimozide"]);
    }

    #[test]
    fn usan_stems_mark_drug_names_but_not_english_words() {
        assert_eq!(
            stem_names("Verapamil and fluconazole raise levels; the caine is said."),
            ["verapamil", "fluconazole"]
        );
        assert!(stem_names("increase propose examine").is_empty());
    }
}
