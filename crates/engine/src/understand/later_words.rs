//! A drug's name read past its first word: "insulin glargine", "ferric carboxymaltose",
//! "interferon beta-1b" name fewer labels than "insulin", "ferric" or "interferon" alone.
//! Narrows a mention `find_mentions` found; finds none itself.

use std::collections::{BTreeSet, HashMap};

use super::drug_words::is_name_word;
use super::understanding::Found;
use super::DrugVocabulary;

impl DrugVocabulary {
    /// `found` narrowed to those of its labels whose names go on with the question's next word,
    /// spanning that word too, when it is a later word (never the first, never a salt) of some
    /// but not all of them; `found` itself otherwise. `free` says whether a word is still
    /// unclaimed by another mention.
    pub(super) fn narrowed(
        &self,
        found: Found,
        tokens: &[&str],
        free: &dyn Fn(usize) -> bool,
    ) -> Found {
        let next_at = found.span.end;
        let Some(next) = tokens.get(next_at).filter(|_| free(next_at)) else {
            return found;
        };
        let Some(named) = self
            .later_words
            .get(*next)
            .filter(|_| !self.salts.contains(*next))
        else {
            return found;
        };
        let labels = &found.mention.labels;
        let narrower: BTreeSet<u32> = labels.intersection(named).copied().collect();
        if narrower.is_empty() || narrower.len() == labels.len() {
            return found;
        }
        let span = found.span.start..next_at + 1;
        Found {
            mention: self.mention(tokens[span.clone()].join(" "), &narrower),
            span,
            class: false,
        }
    }
}

/// Later name words with their hyphenated ones' first parts too: a question says "insulin
/// glargine" for "insulin glargine-yfgn" (a biologic's suffix) and "interferon beta".
pub(super) fn with_unsuffixed(
    words: HashMap<String, BTreeSet<u32>>,
) -> HashMap<String, BTreeSet<u32>> {
    let mut all = words.clone();
    for (word, labels) in words {
        if let Some((first, _)) = word.split_once('-').filter(|(f, _)| is_name_word(f)) {
            all.entry(first.to_owned()).or_default().extend(labels);
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::super::tests::vocabulary_with_classes;
    use super::super::DrugVocabulary;

    /// Labels named by their generic and carrying these FDA classes, in order.
    fn vocabulary_of(labels: &[(&str, &[&str])]) -> DrugVocabulary {
        let owned: Vec<(Vec<String>, Vec<String>)> = labels
            .iter()
            .map(|(generic, classes)| {
                let classes = classes.iter().map(|c| c.to_string()).collect();
                (vec![generic.to_string()], classes)
            })
            .collect();
        vocabulary_with_classes(&owned)
    }

    fn subject(v: &DrugVocabulary, question: &str) -> (String, BTreeSet<u32>) {
        let u = v.understand(question);
        let d = u.drugs.first().expect("a drug");
        (d.word.clone(), d.labels.clone())
    }

    #[test]
    fn a_later_name_word_narrows_the_first_and_a_class_word_names_every_drug_it_begins() {
        let v = vocabulary_of(&[
            ("insulin human", &["Insulin"]),
            ("insulin glargine-yfgn", &[]),
            ("insulin glargine-aglr", &[]),
            ("insulin aspart", &[]),
            ("ferric carboxymaltose", &[]),
            ("ferric citrate", &[]),
            ("metoprolol succinate", &[]),
            ("metoprolol tartrate", &[]),
        ]);
        let glargine = subject(&v, "insulin glargine overdose");
        assert_eq!(
            glargine,
            ("insulin glargine".into(), BTreeSet::from([1, 2]))
        );
        assert_eq!(
            v.understand("insulin glargine overdose").topic,
            "overdose",
            "both words name the subject"
        );
        assert_eq!(
            subject(&v, "insulin and hypokalemia").1,
            BTreeSet::from([0, 1, 2, 3]),
            "the class word names every insulin, not only the label carrying the class"
        );
        assert_eq!(
            subject(&v, "ferric carboxymaltose phosphate").1,
            BTreeSet::from([4])
        );
        assert_eq!(
            subject(&v, "ferric overload").1,
            BTreeSet::from([4, 5]),
            "a word no name holds narrows nothing"
        );
        assert_eq!(
            subject(&v, "metoprolol succinate dose").1,
            BTreeSet::from([6, 7]),
            "a salt word narrows nothing"
        );
    }
}
