//! Dense retrieval: the nearest segment embeddings to a query embedding by cosine similarity
//! (dot product of unit vectors), by exact scan. Ties go to the smaller fingerprint, so the
//! order is deterministic. Pure computation over an in-memory matrix.

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::domain::Fingerprint;
use crate::embed::dot;

pub struct DenseIndex {
    dimensions: usize,
    fingerprints: Vec<Fingerprint>,
    /// Row-major, one unit vector per fingerprint.
    matrix: Vec<f32>,
    rows: HashMap<Fingerprint, usize>,
}

impl DenseIndex {
    pub fn new(dimensions: usize, fingerprints: Vec<Fingerprint>, matrix: Vec<f32>) -> Self {
        debug_assert_eq!(fingerprints.len() * dimensions, matrix.len());
        let rows = fingerprints
            .iter()
            .enumerate()
            .map(|(row, fp)| (*fp, row))
            .collect();
        Self {
            dimensions,
            fingerprints,
            matrix,
            rows,
        }
    }

    /// Similarity of one indexed segment to the query.
    pub fn similarity(&self, fingerprint: Fingerprint, query: &[f32]) -> Option<f32> {
        let row = *self.rows.get(&fingerprint)?;
        let start = row * self.dimensions;
        (query.len() == self.dimensions)
            .then(|| dot(&self.matrix[start..start + self.dimensions], query))
    }

    /// The `limit` most similar rows, best first, with their similarity.
    pub fn nearest(&self, query: &[f32], limit: usize) -> Vec<(Fingerprint, f32)> {
        if query.len() != self.dimensions || limit == 0 {
            return Vec::new();
        }
        let mut scored: Vec<(Fingerprint, f32)> = self
            .matrix
            .chunks_exact(self.dimensions)
            .zip(&self.fingerprints)
            .map(|(row, fp)| (*fp, dot(row, query)))
            .collect();
        let order = |a: &(Fingerprint, f32), b: &(Fingerprint, f32)| {
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
}
