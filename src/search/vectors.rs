//! Dense retrieval: the nearest segment embeddings to a query embedding by cosine similarity
//! (dot product of unit vectors), by an exact scan at every size: a first pass over the rows as
//! 8-bit integers (`quantized.rs`, in one block per core for large indexes) shortlists
//! max(4 × wanted, 1,000) rows, which are re-scored on the f32 rows. Rows are keyed (the live
//! index keys them by text hash, one row per distinct text); ties go to the smaller key, so the
//! order is deterministic. Nothing is built at open but the 8-bit rows. Pure computation.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::Hash;

use crate::domain::Fingerprint;
use crate::embed::dot;
use crate::search::quantized::QuantizedRows;

/// Rows the 8-bit pass hands to exact re-scoring: this many times the requested rows, and at
/// least `MIN_SHORTLIST` (its error is ~0.01 in cosine, far inside this margin).
const SHORTLIST_FACTOR: usize = 4;
const MIN_SHORTLIST: usize = 1_000;

/// What a row is keyed by: copied, compared for ties, looked up.
pub trait RowKey: Copy + Ord + Hash {}
impl<K: Copy + Ord + Hash> RowKey for K {}

pub struct DenseIndex<K = Fingerprint> {
    dimensions: usize,
    fingerprints: Vec<K>,
    /// Row-major, one unit vector per key.
    matrix: Vec<f32>,
    rows: HashMap<K, usize>,
    quantized: QuantizedRows,
}

impl<K: RowKey> DenseIndex<K> {
    pub fn new(dimensions: usize, fingerprints: Vec<K>, matrix: Vec<f32>) -> Self {
        debug_assert_eq!(fingerprints.len() * dimensions, matrix.len());
        let rows = fingerprints
            .iter()
            .enumerate()
            .map(|(row, fp)| (*fp, row))
            .collect();
        Self {
            dimensions,
            quantized: QuantizedRows::new(dimensions, &matrix),
            fingerprints,
            matrix,
            rows,
        }
    }

    /// Similarity of one indexed row to the query.
    pub fn similarity(&self, fingerprint: K, query: &[f32]) -> Option<f32> {
        let row = *self.rows.get(&fingerprint)?;
        (query.len() == self.dimensions).then(|| self.row_similarity(row, query))
    }

    fn row_similarity(&self, row: usize, query: &[f32]) -> f32 {
        let start = row * self.dimensions;
        dot(&self.matrix[start..start + self.dimensions], query)
    }

    /// The `limit` most similar rows, best first, with their similarity.
    pub fn nearest(&self, query: &[f32], limit: usize) -> Vec<(K, f32)> {
        if query.len() != self.dimensions || limit == 0 {
            return Vec::new();
        }
        let keep = (limit * SHORTLIST_FACTOR).max(MIN_SHORTLIST);
        let rows = self.quantized.shortlist(query, keep);
        let mut scored: Vec<(K, f32)> = rows
            .into_iter()
            .map(|row| (self.fingerprints[row], self.row_similarity(row, query)))
            .collect();
        let order = |a: &(K, f32), b: &(K, f32)| {
            b.1.partial_cmp(&a.1)
                .unwrap_or(Ordering::Equal)
                .then(a.0.cmp(&b.0))
        };
        if scored.len() > limit {
            scored.select_nth_unstable_by(limit - 1, order);
            scored.truncate(limit);
        }
        scored.sort_by(order);
        scored
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rows_best_first_with_stable_ties() {
        let fps: Vec<Fingerprint> = (0..4)
            .map(|i| Fingerprint::of_segment("s", "k", &i.to_string()))
            .collect();
        let matrix = vec![1.0, 0.0, 0.0, 1.0, 0.6, 0.8, 0.0, 1.0];
        let index = DenseIndex::new(2, fps.clone(), matrix);
        let found = index.nearest(&[0.0, 1.0], 3);
        let tied = fps[1].min(fps[3]);
        assert_eq!(
            found[0].0, tied,
            "tie between rows 1 and 3 goes to the smaller fingerprint"
        );
        assert_eq!(found[2].0, fps[2]);
        assert_eq!(index.nearest(&[0.0, 1.0], 10).len(), 4);
        assert!(index.nearest(&[1.0], 3).is_empty(), "wrong dimensions");
    }

    #[test]
    fn the_eight_bit_shortlist_keeps_the_exact_best_rows() {
        let dimensions = 24;
        let vectors: Vec<Vec<f32>> = (0..3_000)
            .map(|r| {
                let v: Vec<f32> = (0..dimensions)
                    .map(|d| (((r * 31 + d * 17) % 41) as f32 - 20.0) * (1.0 + (r % 7) as f32))
                    .collect();
                let norm = dot(&v, &v).sqrt();
                v.into_iter().map(|x| x / norm).collect()
            })
            .collect();
        let keys: Vec<u32> = (0..vectors.len() as u32).collect();
        let index = DenseIndex::new(dimensions, keys, vectors.concat());
        for query in vectors.iter().step_by(211) {
            let mut brute: Vec<(u32, f32)> = (0..vectors.len())
                .map(|row| (row as u32, dot(&vectors[row], query)))
                .collect();
            brute.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            brute.truncate(50);
            assert_eq!(index.nearest(query, 50), brute);
        }
    }
}
