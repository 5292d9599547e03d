//! Question words no indexed label uses, read as the label words they most likely stand for: a
//! misspelling ("osteoperosis") as the most frequent label word within a small edit distance,
//! two words run together ("bloodthinner") as the two label words they join. Pure over a table of
//! the labels' words the live index supplies; drug names are the vocabulary's own spelling's.

use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

use super::lay::stems;
use super::understanding::{rewritten, ReadAs};
use super::word_tables::threshold;
use drugcite_core::text::words;

/// Shortest question word read as another (shorter words are too often a real word one edit
/// from another; the drug names' reading starts at the same length).
static MIN_LENGTH: LazyLock<usize> = LazyLock::new(|| threshold("respell_min_length"));
/// Shortest stem of a word read as a nearby one: "rotting" is stemmed "rot", and is one edit
/// from the labels' "rotating" only by accident.
static MIN_STEM: LazyLock<usize> = LazyLock::new(|| threshold("respell_min_stem"));
/// Longest word allowed one edit; longer words are allowed two.
static ONE_EDIT_UP_TO: LazyLock<usize> = LazyLock::new(|| threshold("respell_one_edit_up_to"));
/// Times the words of a stem must occur in the labels for one of them to be read in a question
/// word's place: rarer ones are as likely the labels' own typos.
static MIN_OCCURRENCES: LazyLock<u32> =
    LazyLock::new(|| threshold("respell_min_occurrences") as u32);
/// Shortest part of a word read as two (the shortest label word counted).
const MIN_PART: usize = drugcite_store::SHORTEST_WORD;

/// The words of the indexed label text, how often each occurs, and the stems they make.
#[derive(Default)]
pub struct LabelWords {
    /// Every stem of the label words, with the occurrences of the words making it.
    stems: HashMap<String, u32>,
    /// The words whose stem occurs at least `MIN_OCCURRENCES` times ("relaxers" with every
    /// "relax…"), by length, each with its own occurrences.
    frequent: BTreeMap<usize, Vec<(String, u32)>>,
}

impl LabelWords {
    /// The table of `(lowercase ASCII word, occurrences)` from the label text, one entry a word.
    pub fn new(label_words: impl IntoIterator<Item = (String, u32)>) -> Self {
        let occurrences: HashMap<String, u32> = label_words.into_iter().collect();
        let stemmed: Vec<(String, Option<String>)> = occurrences
            .keys()
            .map(|word| (word.clone(), stems(word).pop()))
            .collect();
        let mut stems_made: HashMap<String, u32> = HashMap::new();
        for (word, stem) in &stemmed {
            if let Some(stem) = stem {
                *stems_made.entry(stem.clone()).or_default() += occurrences[word];
            }
        }
        let mut frequent: BTreeMap<usize, Vec<(String, u32)>> = BTreeMap::new();
        for (word, stem) in stemmed {
            let of_stem = stem.and_then(|s| stems_made.get(&s).copied()).unwrap_or(0);
            if of_stem >= *MIN_OCCURRENCES {
                let count = occurrences[&word];
                frequent.entry(word.len()).or_default().push((word, count));
            }
        }
        frequent.values_mut().for_each(|words| words.sort());
        Self {
            stems: stems_made,
            frequent,
        }
    }

    /// Whether `word` itself occurs `MIN_OCCURRENCES` times or more in the labels: a real word,
    /// however near a drug's name ("chronic", one edit from "chromic"). Its own count, not its
    /// stem's: "zonisamid" stems as "zonisamide" does and is still a misspelling.
    pub fn uses_often(&self, word: &str) -> bool {
        self.frequent.get(&word.len()).is_some_and(|words| {
            words
                .binary_search_by(|(w, _)| w.as_str().cmp(word))
                .is_ok_and(|at| words[at].1 >= *MIN_OCCURRENCES)
        })
    }

    /// `lower` (a lowercase question) with each word no label uses read as the label words it
    /// stands for, and those readings in question order; words `is_name` claims (drug names,
    /// lay phrases) are left as asked.
    pub fn respell(&self, lower: &str, is_name: impl Fn(&str) -> bool) -> (String, Vec<ReadAs>) {
        let spans = words(lower).into_iter().map(|w| w.span);
        rewritten(lower, spans, |word| self.read(word, &is_name))
    }

    /// What one unknown or rare word is read as: the nearest frequent label word ("angiodema",
    /// a typo a few labels share, as angioedema), else, for a word no label uses, the two
    /// frequent words it joins; `None` for a word whose stem the labels use often, one the
    /// vocabulary claims, or one too short to guess.
    fn read(&self, word: &str, is_name: &impl Fn(&str) -> bool) -> Option<String> {
        if word.len() < *MIN_LENGTH || !word.chars().all(|c| c.is_ascii_lowercase()) {
            return None;
        }
        let [stem] = &stems(word)[..] else {
            return None;
        };
        let occurrences = self.stems.get(stem).copied().unwrap_or(0);
        if occurrences >= *MIN_OCCURRENCES || is_name(word) {
            return None;
        }
        let nearest = (stem.len() >= *MIN_STEM)
            .then(|| self.nearest(word))
            .flatten();
        let never_used = occurrences == 0;
        nearest
            .map(str::to_owned)
            .or_else(|| never_used.then(|| self.parts(word)).flatten())
    }

    /// The label word within the allowed edits of `word` (Damerau–Levenshtein) that begins
    /// with its letter: the fewest edits first, then the most frequent word ("smeking" →
    /// smoking, not seeking), then the earlier one.
    fn nearest(&self, word: &str) -> Option<&str> {
        let allowed = if word.len() <= *ONE_EDIT_UP_TO { 1 } else { 2 };
        let first = word.chars().next();
        let range = word.len().saturating_sub(allowed)..=word.len() + allowed;
        self.frequent
            .range(range)
            .flat_map(|(_, words)| words)
            .filter(|(near, _)| near.chars().next() == first)
            .map(|(near, count)| (strsim::damerau_levenshtein(word, near), near, *count))
            .filter(|(distance, _, _)| *distance <= allowed)
            .min_by_key(|(distance, near, count)| (*distance, std::cmp::Reverse(*count), *near))
            .map(|(_, near, _)| near.as_str())
    }

    /// `word` as two words whose stems the labels use often, split where the rarer part is
    /// most frequent ("bloodthinner" → "blood thinner").
    fn parts(&self, word: &str) -> Option<String> {
        let frequent = |part: &str| match &stems(part)[..] {
            [stem] => self
                .stems
                .get(stem)
                .copied()
                .filter(|n| *n >= *MIN_OCCURRENCES),
            _ => None,
        };
        (MIN_PART..=word.len().saturating_sub(MIN_PART))
            .filter_map(|at| {
                let (left, right) = word.split_at(at);
                Some((frequent(left)?.min(frequent(right)?), at))
            })
            .max_by_key(|(count, at)| (*count, std::cmp::Reverse(*at)))
            .map(|(_, at)| format!("{} {}", &word[..at], &word[at..]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Index words of these label words, each occurring `count` times.
    fn index(words: &[(&str, u32)]) -> LabelWords {
        LabelWords::new(
            words
                .iter()
                .map(|(word, count)| ((*word).to_owned(), *count)),
        )
    }

    fn read(index: &LabelWords, question: &str) -> (String, Vec<String>) {
        let (text, read_as) = index.respell(question, |w| w == "sertralin");
        let shown = read_as
            .iter()
            .map(|r| format!("{}={}", r.asked, r.read))
            .collect();
        (text, shown)
    }

    #[test]
    fn a_word_no_label_uses_is_read_as_the_most_frequent_label_word_near_it() {
        let words = index(&[
            ("seizures", 40),
            ("osteoporosis", 30),
            ("diarrhea", 60),
            ("diarrhoea", 6),
            ("dizziness", 50),
        ]);
        assert_eq!(
            read(&words, "sertraline siezures?"),
            (
                "sertraline seizures?".to_owned(),
                vec!["siezures=seizures".to_owned()]
            )
        );
        assert_eq!(
            read(&words, "once a week osteoperosis pill").0,
            "once a week osteoporosis pill"
        );
        assert_eq!(read(&words, "diarhea").0, "diarrhea", "the more frequent");
        assert_eq!(read(&words, "dizzyness").0, "dizziness");
        let endings = index(&[("started", 30), ("pregnancy", 80)]);
        assert_eq!(
            read(&endings, "startud").0,
            "started",
            "stems 'startud'/'start'"
        );
        assert_eq!(
            read(&endings, "pregnacy").0,
            "pregnancy",
            "'pregnaci'/'pregnanc'"
        );
        assert_eq!(read(&words, "seizures").1, Vec::<String>::new(), "known");
        let rare = index(&[
            ("angioedema", 1231),
            ("angiodema", 1),
            ("sleep", 100),
            ("walker", 50),
            ("sleepwalker", 2),
        ]);
        assert_eq!(
            read(&rare, "angiodema").0,
            "angioedema",
            "a typo few labels share"
        );
        assert!(
            read(&rare, "sleepwalker").1.is_empty(),
            "a word the labels use, however rarely, is not taken apart"
        );
        assert_eq!(read(&words, "sertralin").1, Vec::<String>::new(), "claimed");
    }

    #[test]
    fn short_rare_or_distant_words_are_left_as_asked() {
        let words = index(&[("rats", 50), ("seizures", 40), ("nausea", 3)]);
        assert!(read(&words, "rotting teeth").1.is_empty(), "stem 'rot'");
        assert!(read(&words, "nausia").1.is_empty(), "'nausea' is too rare");
        assert!(read(&words, "seezurrs").1.is_empty(), "two edits in eight");
        assert!(read(&words, "xeizures").1.is_empty(), "first letter kept");
        assert!(read(&words, "seize").1.is_empty(), "too short");
    }

    #[test]
    fn two_words_run_together_are_read_apart() {
        let words = index(&[
            ("sleep", 100),
            ("walking", 20),
            ("blood", 90),
            ("thinner", 9),
        ]);
        assert_eq!(
            read(&words, "pill made me sleepwalk").0,
            "pill made me sleep walk"
        );
        assert_eq!(read(&words, "bloodthinner").0, "blood thinner");
    }
}
