//! Finds conditions in label text: the longest lexicon term at each word, on word boundaries.
//! Looking for adverse reactions it also reads the compositional forms labels use ("ALT
//! increased", "injection site pain", "pharyngeal edema") and skips body-system headings and
//! population phrases ("patients with prostate cancer"). Says nothing about relations.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use super::lexicon::{project_id, Entry, Lexicon, SectionGroup, MAX_TERM_WORDS};
use drugcite_core::text::{join, joinable, key_of, words, Word};

mod word_tables;

use word_tables::{
    threshold, ADJECTIVE_ENDINGS, ADJECTIVE_MIN_CHARS, CHANGE_AFTER, CHANGE_BEFORE, CHANGE_OF,
    CONTENT_WORD_MIN_CHARS, CONTEXT_BYTES, FINDING_ENDINGS, FINDING_MIN_CHARS, HEADINGS,
    NOT_ADJECTIVES, NOT_MODIFIERS, POPULATION, SITES,
};

/// A condition found in a text: byte span, normalised key, and the condition it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mention {
    pub span: Range<usize>,
    pub key: String,
    pub condition_id: String,
    pub condition_name: String,
}

/// What the caller looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Adverse reactions of the drug, as an annotator would mark them in this kind of section.
    AdverseReactions(SectionGroup),
    /// What a warning says may happen: every condition, the compositional forms too, but not
    /// conditions of the population described ("in patients with renal impairment").
    Outcomes,
    /// Every condition named (for contraindications, indications, questions).
    Conditions,
}

pub struct Matcher {
    lexicon: Lexicon,
    /// Laboratory analytes ("alt", "blood creatinine"): curated (graph/lab-analytes.tsv) and
    /// from annotated findings about them.
    analytes: HashSet<String>,
    /// Last words of several annotated reactions ("pain", "edema"): a word before them may
    /// belong to the reaction's name.
    heads: HashSet<String>,
    /// Words seen inside annotated reactions before their last word ("chest", "oropharyngeal").
    modifiers: HashSet<String>,
    headings: Vec<Vec<String>>,
}

impl Matcher {
    pub fn new(lexicon: Lexicon) -> Self {
        let mut analytes: HashSet<String> = crate::curated::lab_analytes()
            .iter()
            .map(|a| key_of(a))
            .collect();
        let mut head_counts: HashMap<&str, usize> = HashMap::new();
        let mut modifier_counts: HashMap<&str, usize> = HashMap::new();
        for key in lexicon.annotated_keys() {
            let parts: Vec<&str> = key.split(' ').collect();
            let [first, .., last] = parts.as_slice() else {
                continue;
            };
            if CHANGE_BEFORE.contains(*first) {
                analytes.insert(parts[1..].join(" "));
            }
            if CHANGE_AFTER.contains(*last) {
                analytes.insert(parts[..parts.len() - 1].join(" "));
            }
            *head_counts.entry(last).or_default() += 1;
            for word in &parts[..parts.len() - 1] {
                *modifier_counts.entry(word).or_default() += 1;
            }
        }
        let heads = at_least(head_counts, threshold("head_min_terms"));
        let modifiers = at_least(modifier_counts, threshold("modifier_min_terms"))
            .into_iter()
            .filter(|w| w.chars().all(char::is_alphabetic) && !NOT_MODIFIERS.contains(w))
            .collect();
        let headings = HEADINGS
            .iter()
            .map(|h| key_of(h).split(' ').map(str::to_owned).collect())
            .collect();
        Self {
            lexicon,
            analytes,
            heads,
            modifiers,
            headings,
        }
    }

    pub fn lexicon(&self) -> &Lexicon {
        &self.lexicon
    }

    /// The conditions `text` names for `purpose`, in text order, never overlapping.
    pub fn find(&self, text: &str, purpose: Purpose) -> Vec<Mention> {
        let words = words(text);
        let in_heading = self.heading_words(&words);
        let mut found = Vec::new();
        let (mut at, mut free_from) = (0, 0);
        while at < words.len() {
            let Some(length) = self.longest_at(text, &words, at, purpose) else {
                at += 1;
                continue;
            };
            let start = match purpose {
                Purpose::Conditions => at,
                _ => self.extend_left(text, &words, at, length, free_from),
            };
            let end = at + length;
            let heading = in_heading[start..end].iter().all(|h| *h);
            let population = purpose != Purpose::Conditions
                && describes_population(text, words[start].span.start);
            let keep = !heading && !population;
            if keep {
                found.push(self.mention(&words[start..end]));
            }
            at = end;
            free_from = end;
        }
        found
    }

    fn mention(&self, words: &[Word]) -> Mention {
        let key = join(words);
        let span = words[0].span.start..words[words.len() - 1].span.end;
        let (condition_id, condition_name) = match self.lexicon.get(&key) {
            Some(entry) => (entry.condition_id.clone(), entry.condition_name.clone()),
            None => (project_id(&key), key.clone()),
        };
        Mention {
            span,
            key,
            condition_id,
            condition_name,
        }
    }

    /// The number of words of the longest acceptable term starting at word `at`.
    fn longest_at(&self, text: &str, words: &[Word], at: usize, purpose: Purpose) -> Option<usize> {
        let most = (words.len() - at).min(MAX_TERM_WORDS);
        let mut joined = 1;
        while joined < most
            && joinable(&text[words[at + joined - 1].span.end..words[at + joined].span.start])
        {
            joined += 1;
        }
        (1..=joined)
            .rev()
            .find(|&n| self.accepts(text, &words[at..at + n], purpose))
    }

    fn accepts(&self, text: &str, words: &[Word], purpose: Purpose) -> bool {
        let key = join(words);
        if let Some(entry) = self.lexicon.get(&key) {
            return entry_accepts(entry, text, words, purpose);
        }
        let finding_word = match purpose {
            Purpose::Conditions => return false,
            Purpose::AdverseReactions(group) => group == SectionGroup::AdverseReactions,
            Purpose::Outcomes => true,
        };
        self.is_lab_finding(words)
            || self.is_site_reaction(text, words)
            || (finding_word && is_finding_word(words))
    }

    fn is_lab_finding(&self, words: &[Word]) -> bool {
        let norms: Vec<&str> = words.iter().map(|w| w.norm.as_str()).collect();
        let analyte =
            |parts: &[&str]| !parts.is_empty() && self.analytes.contains(&parts.join(" "));
        match norms.as_slice() {
            [first, rest @ ..] if CHANGE_BEFORE.contains(*first) && analyte(rest) => true,
            [rest @ .., last] if CHANGE_AFTER.contains(*last) && analyte(rest) => true,
            [change, "in" | "of", "serum", rest @ ..] | [change, "in" | "of", rest @ ..]
                if CHANGE_OF.contains(*change) =>
            {
                analyte(rest)
            }
            _ => false,
        }
    }

    fn is_site_reaction(&self, text: &str, words: &[Word]) -> bool {
        let [place, second, rest @ ..] = words else {
            return false;
        };
        let site = SITES.contains(&place.norm) && second.norm == "site";
        site && !rest.is_empty()
            && self
                .lexicon
                .get(&join(rest))
                .is_some_and(|e| entry_accepts(e, text, rest, Purpose::Conditions))
    }

    /// Moves the start of a reaction ending in a head word left over the words that name where
    /// or what ("oropharyngeal pain", "nail infection"), never into an earlier mention.
    fn extend_left(
        &self,
        text: &str,
        words: &[Word],
        at: usize,
        length: usize,
        free_from: usize,
    ) -> usize {
        let head = &words[at + length - 1].norm;
        if !self.heads.contains(head) {
            return at;
        }
        let mut start = at;
        while start > free_from
            && self.is_modifier(&words[start - 1].norm)
            && attached(text, words, start)
        {
            start -= 1;
        }
        let lone_head = start == at && length == 1 && at > free_from && attached(text, words, at);
        if lone_head && self.is_content_word(&words[at - 1].norm) {
            start = at - 1;
        }
        start
    }

    fn is_modifier(&self, word: &str) -> bool {
        self.modifiers.contains(word) || (is_adjective_like(word) && !NOT_ADJECTIVES.contains(word))
    }

    fn is_content_word(&self, word: &str) -> bool {
        word.chars().count() >= *CONTENT_WORD_MIN_CHARS
            && word.chars().all(char::is_alphabetic)
            && !NOT_MODIFIERS.contains(word)
            && self.lexicon.get(word).is_none()
    }

    /// For each word, whether it belongs to a body-system heading.
    fn heading_words(&self, words: &[Word]) -> Vec<bool> {
        let mut marked = vec![false; words.len()];
        for heading in &self.headings {
            for start in 0..words.len().saturating_sub(heading.len() - 1) {
                let matches = heading
                    .iter()
                    .zip(&words[start..])
                    .all(|(h, w)| *h == w.norm);
                if matches {
                    marked[start..start + heading.len()]
                        .iter_mut()
                        .for_each(|m| *m = true);
                }
            }
        }
        marked
    }
}

fn at_least(counts: HashMap<&str, usize>, minimum: usize) -> HashSet<String> {
    counts
        .into_iter()
        .filter(|(_, n)| *n >= minimum)
        .map(|(w, _)| w.to_owned())
        .collect()
}

/// Whether word `at` can belong to one term with the word before it.
fn attached(text: &str, words: &[Word], at: usize) -> bool {
    joinable(&text[words[at - 1].span.end..words[at].span.start])
}

fn entry_accepts(entry: &Entry, text: &str, words: &[Word], purpose: Purpose) -> bool {
    if entry.acronym
        && text[words[0].span.start..words[words.len() - 1].span.end]
            .chars()
            .any(char::is_lowercase)
    {
        return false;
    }
    match purpose {
        Purpose::AdverseReactions(group) => entry.is_adverse_term(group),
        Purpose::Outcomes | Purpose::Conditions => entry.is_condition(),
    }
}

fn is_finding_word(words: &[Word]) -> bool {
    let [word] = words else { return false };
    let w = word.norm.as_str();
    w.chars().count() >= *FINDING_MIN_CHARS
        && w.chars().all(|c| c.is_ascii_lowercase())
        && FINDING_ENDINGS.iter().any(|end| w.ends_with(end.as_str()))
}

fn is_adjective_like(word: &str) -> bool {
    word.chars().count() >= *ADJECTIVE_MIN_CHARS
        && word.chars().all(|c| c.is_ascii_lowercase())
        && ADJECTIVE_ENDINGS
            .iter()
            .any(|end| word.ends_with(end.as_str()))
}

fn describes_population(text: &str, start: usize) -> bool {
    let mut from = start.saturating_sub(*CONTEXT_BYTES);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    POPULATION.is_match(&text[from..start])
}

#[cfg(test)]
mod tests;
