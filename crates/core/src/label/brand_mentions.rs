//! Brand names label text gives beside a drug's name — "tizanidine (Zanaflex®)", "NITYR®
//! (nitisinone)", "Phenelzine sulfate Nardil®": the trademark-marked word and the words next to
//! it that may name its drug, nearest first. Pure text work; which of those words names a drug
//! the index knows is the vocabulary's (`understanding::label_brands`).

use serde::{Deserialize, Serialize};

/// Fewest letters of a brand read from text (shorter marked words are makers' initials).
const MIN_BRAND: usize = 4;
/// Words beside a brand that may name its drug ("warfarin sodium (Coumadin®)").
const NAME_WORDS: usize = 2;

/// One brand a text marks, with the words beside it that may name its drug (lowercase): the
/// words in brackets right after it, in text order, and the words before it (or before the
/// bracket it stands in), nearest first.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct BrandMention {
    pub brand: String,
    pub after: Vec<String>,
    pub before: Vec<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum Token<'a> {
    Word(&'a str),
    Mark,
    Open,
    Close,
    Other,
}

/// The brands `text` marks with ® or ™ beside a drug's name: in brackets after it ("tizanidine
/// (Zanaflex®)", "warfarin (Coumadin®, Jantoven®)"), before it in brackets ("NITYR®
/// (nitisinone)") or right after it ("phenelzine sulfate Nardil®"). A marked word after a
/// capitalised word or another mark is the end of a longer name ("Lantus SoloStar®",
/// "REPATHA® SureClick®") and is not taken.
pub fn brand_mentions(text: &str) -> Vec<BrandMention> {
    let tokens = tokens(text);
    let word = |at: usize| match tokens.get(at) {
        Some(Token::Word(w)) => Some(*w),
        _ => None,
    };
    let mut mentions = Vec::new();
    for at in 2..tokens.len() {
        let (Token::Mark, Some(brand)) = (tokens[at], word(at - 1)) else {
            continue;
        };
        let before = tokens[at - 2];
        let longer_name = word(at - 2).is_some_and(starts_upper) || before == Token::Mark;
        if !is_brand(brand) || longer_name {
            continue;
        }
        let after: Vec<&str> = match tokens.get(at + 1) {
            Some(Token::Open) => (at + 2..tokens.len())
                .map_while(word)
                .take(NAME_WORDS)
                .collect(),
            _ => Vec::new(),
        };
        let before = match before {
            Token::Open => words_back(&tokens, at - 2),
            _ => words_back(&tokens, at - 1),
        };
        if !(after.is_empty() && before.is_empty()) {
            let lower = |words: Vec<&str>| words.iter().map(|w| w.to_lowercase()).collect();
            mentions.push(BrandMention {
                brand: brand.to_lowercase(),
                after: lower(after),
                before: lower(before),
            });
        }
    }
    mentions
}

/// Up to `NAME_WORDS` words just before `end`, nearest first.
fn words_back<'a>(tokens: &[Token<'a>], end: usize) -> Vec<&'a str> {
    (0..end)
        .rev()
        .map_while(|i| match tokens[i] {
            Token::Word(w) => Some(w),
            _ => None,
        })
        .take(NAME_WORDS)
        .collect()
}

fn starts_upper(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_uppercase())
}

/// A capitalised word of ASCII letters (inner hyphens allowed: "Ery-Tab").
fn is_brand(word: &str) -> bool {
    let letters = word.chars().filter(char::is_ascii_alphabetic).count();
    starts_upper(word)
        && letters >= MIN_BRAND
        && word.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
}

fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    let mut start = None;
    for (at, ch) in text.char_indices() {
        let in_word = ch.is_alphanumeric() || (ch == '-' && start.is_some());
        match (in_word, start) {
            (true, None) => start = Some(at),
            (true, Some(_)) => {}
            (false, Some(s)) => {
                tokens.push(Token::Word(text[s..at].trim_end_matches('-')));
                start = None;
            }
            (false, None) => {}
        }
        if !in_word && !ch.is_whitespace() {
            tokens.push(match ch {
                '®' | '™' => Token::Mark,
                '(' => Token::Open,
                ')' => Token::Close,
                _ => Token::Other,
            });
        }
    }
    if let Some(s) = start {
        tokens.push(Token::Word(text[s..].trim_end_matches('-')));
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mentions(text: &str) -> Vec<(String, Vec<String>, Vec<String>)> {
        brand_mentions(text)
            .into_iter()
            .map(|m| (m.brand, m.after, m.before))
            .collect()
    }

    fn mention(brand: &str, after: &[&str], before: &[&str]) -> (String, Vec<String>, Vec<String>) {
        let owned = |words: &[&str]| words.iter().map(|w| w.to_string()).collect();
        (brand.into(), owned(after), owned(before))
    }

    #[test]
    fn brands_in_brackets_before_or_after_a_name_are_read_with_their_neighbours() {
        assert_eq!(
            mentions("Ciprofloxacin increases the effects of tizanidine (Zanaflex ® )."),
            [mention("zanaflex", &[], &["tizanidine", "of"])]
        );
        assert_eq!(
            mentions("Carton NDC 70709-002-60 NITYR ® (nitisinone) tablets 2 mg"),
            [mention("nityr", &["nitisinone"], &["70709-002-60", "ndc"])]
        );
        assert_eq!(
            mentions("warfarin sodium (Coumadin®, Jantoven®)"),
            [mention("coumadin", &[], &["sodium", "warfarin"])],
            "the second brand of a list has no name beside it"
        );
        assert_eq!(
            mentions("Phenelzine sulfate Nardil ® (Parke-Davis)"),
            [mention(
                "nardil",
                &["parke-davis"],
                &["sulfate", "phenelzine"]
            )]
        );
        assert_eq!(
            mentions("peginterferon alfa-2b (PegIntron®) and BRAND® (peginterferon alfa-2b)"),
            [
                mention("pegintron", &[], &["alfa-2b", "peginterferon"]),
                mention("brand", &["peginterferon", "alfa-2b"], &["and"])
            ]
        );
    }

    #[test]
    fn ends_of_longer_names_short_marks_and_unmarked_words_are_not_brands() {
        assert!(mentions("insulin glargine (Lantus SoloStar®)").is_empty());
        assert!(
            mentions("Isocarboxazid Marplan ®").is_empty(),
            "after a capitalised word, even a drug's: read as the end of a longer name"
        );
        let device = mentions("take REPATHA® SureClick® (evolocumab)");
        assert_eq!(device, [mention("repatha", &[], &["take"])]);
        assert!(mentions("by ABC® (city)").is_empty(), "too short");
        assert!(mentions("tizanidine (Zanaflex)").is_empty());
        assert!(mentions("(Zanaflex®)").is_empty(), "no name beside it");
    }
}
