//! Which texts make a lexical top list, from their docs' scores, without a map over every
//! matching doc: the docs are taken best first until the list is full. Pure selection over
//! (text, score) pairs; knows nothing of the index.

use std::collections::HashSet;

use tantivy::Score;

/// The `limit`-th best text score among `docs` (a text scores its best doc), or −∞ when fewer
/// than `limit` texts match. Only the best docs are ordered: twice `limit` at first, more while
/// they hold fewer than `limit` texts.
pub(super) fn threshold<T: Copy + Eq + std::hash::Hash>(
    mut ordered: Vec<(T, Score)>,
    limit: usize,
) -> Score {
    let limit = limit.max(1);
    let mut take = (2 * limit).min(ordered.len());
    loop {
        let best = best_first(&mut ordered, take);
        let mut seen = HashSet::with_capacity(limit);
        for (text, score) in best {
            if seen.insert(*text) && seen.len() == limit {
                return *score;
            }
        }
        if take == ordered.len() {
            return Score::NEG_INFINITY;
        }
        take = (2 * take).min(ordered.len());
    }
}

/// The best `take` of `docs`, best first (they are moved to its front).
fn best_first<T>(docs: &mut [(T, Score)], take: usize) -> &[(T, Score)] {
    let order = |a: &(T, Score), b: &(T, Score)| b.1.total_cmp(&a.1);
    if take < docs.len() && take > 0 {
        docs.select_nth_unstable_by(take - 1, order);
    }
    let best = &mut docs[..take];
    best.sort_unstable_by(order);
    best
}

/// Membership of texts by their hash's low bits: no false negatives, few false positives, so
/// a pass over every matching doc looks up only the docs that may belong.
pub(super) struct TextFilter {
    bits: Vec<u64>,
}

const FILTER_BITS: usize = 1 << 16;

impl TextFilter {
    pub(super) fn of(texts: impl Iterator<Item = u64>) -> Self {
        let mut bits = vec![0u64; FILTER_BITS / 64];
        for text in texts {
            let bit = text as usize % FILTER_BITS;
            bits[bit / 64] |= 1 << (bit % 64);
        }
        Self { bits }
    }

    pub(super) fn may_hold(&self, text: u64) -> bool {
        let bit = text as usize % FILTER_BITS;
        self.bits[bit / 64] & (1 << (bit % 64)) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The definition: every text's best doc, the `limit`-th best of those.
    fn by_every_text(docs: &[(u64, Score)], limit: usize) -> Score {
        let mut best: HashMap<u64, Score> = HashMap::new();
        for &(text, score) in docs {
            let kept = best.entry(text).or_insert(score);
            *kept = kept.max(score);
        }
        let mut scores: Vec<Score> = best.into_values().collect();
        scores.sort_by(|a, b| b.total_cmp(a));
        scores
            .get(limit.max(1) - 1)
            .copied()
            .unwrap_or(Score::NEG_INFINITY)
    }

    #[test]
    fn the_threshold_is_the_limit_th_best_text_score() {
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        for (texts, docs, limit) in [
            (50, 400, 30),
            (500, 3_000, 300),
            (20, 5_000, 300),
            (3, 9, 1),
        ] {
            let docs: Vec<(u64, Score)> = (0..docs)
                .map(|_| (next() % texts, (next() % 40) as Score / 4.0))
                .collect();
            for limit in [limit, 1, texts as usize, texts as usize + 1] {
                assert_eq!(
                    threshold(docs.clone(), limit),
                    by_every_text(&docs, limit),
                    "{texts} texts, limit {limit}"
                );
            }
        }
        assert_eq!(threshold::<u64>(Vec::new(), 5), Score::NEG_INFINITY);
    }

    #[test]
    fn the_filter_holds_every_text_it_was_given() {
        let texts: Vec<u64> = (0..300u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        let filter = TextFilter::of(texts.iter().copied());
        assert!(texts.iter().all(|&text| filter.may_hold(text)));
        let strangers = (0..10_000u64)
            .filter(|i| filter.may_hold(i * 31 + 5))
            .count();
        assert!(strangers < 500, "{strangers} false positives of 10,000");
    }
}
