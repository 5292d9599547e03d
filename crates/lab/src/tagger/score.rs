//! Exact-span scoring in the manner of TAC 2017's official matching: a predicted mention counts
//! when its type and every fragment's character span equal those of an annotated mention of the
//! same document; micro precision, recall and F1 per type and over all types. No decoding.

use std::collections::BTreeSet;

use crate::extractor_learning::Counts;

use super::mentions::{Mention, TYPES};

/// Matched, predicted and annotated counts per type (index of `KINDS`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Score {
    pub per_type: [Counts; TYPES],
}

impl Score {
    /// Scores one document's predictions against its annotations (each a set: duplicates once).
    pub fn of(gold: &[Mention], predicted: &[Mention]) -> Self {
        let gold: BTreeSet<&Mention> = gold.iter().collect();
        let predicted: BTreeSet<&Mention> = predicted.iter().collect();
        let mut score = Score::default();
        for m in &gold {
            score.per_type[m.kind].annotated += 1;
        }
        for m in &predicted {
            let counts = &mut score.per_type[m.kind];
            counts.found += 1;
            counts.matched += usize::from(gold.contains(m));
        }
        score
    }

    pub fn add(&mut self, other: &Score) {
        for (mine, theirs) in self.per_type.iter_mut().zip(&other.per_type) {
            mine.matched += theirs.matched;
            mine.found += theirs.found;
            mine.annotated += theirs.annotated;
        }
    }

    /// Micro counts over every type.
    pub fn all(&self) -> Counts {
        let mut all = Counts::default();
        for c in &self.per_type {
            all.matched += c.matched;
            all.found += c.found;
            all.annotated += c.annotated;
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagger::mentions::AR;

    const TEXT: &str = "severe rash and nausea";

    fn m(kind: usize, a: usize, b: usize) -> Mention {
        Mention::new(kind, TEXT, std::iter::once(a..b).collect())
    }

    #[test]
    fn only_an_exact_span_of_the_same_type_counts() {
        let gold = [m(AR, 7, 11), m(AR, 16, 22), m(1, 0, 6)];
        let predicted = [
            m(AR, 7, 11),  // exact
            m(AR, 15, 22), // off by one: not counted
            m(AR, 0, 6),   // right span, wrong type
        ];
        let score = Score::of(&gold, &predicted);
        let ar = score.per_type[AR];
        assert_eq!((ar.matched, ar.found, ar.annotated), (1, 3, 2));
        assert_eq!(score.per_type[1].matched, 0);
        let all = score.all();
        assert_eq!((all.matched, all.found, all.annotated), (1, 3, 3));
        assert!((all.precision() - 1.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn a_discontinuous_mention_needs_every_fragment() {
        let gold = [Mention::new(AR, TEXT, vec![0..6, 16..22])];
        let score = Score::of(&gold, &[m(AR, 0, 22), m(AR, 16, 22)]);
        assert_eq!(score.per_type[AR].matched, 0);
        let score = Score::of(&gold, &gold.clone());
        assert_eq!(score.per_type[AR].matched, 1);
    }
}
