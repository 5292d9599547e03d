//! Dense retrieval: the nearest segment embeddings to a query embedding by cosine similarity
//! (dot product of unit vectors): an exact scan up to `EXACT_SCAN_LIMIT` rows (an 8-bit
//! first pass, `quantized.rs`, whose shortlist is re-scored exactly), above it an HNSW
//! graph (hnsw_rs) whose candidates are re-scored exactly. Rows are keyed (the live index keys
//! them by text hash, one row per distinct text); ties go to the smaller key, and the graph is
//! built serially from a fixed seed, so the order is deterministic. Pure computation over an
//! in-memory matrix.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::Hash;

use anndists::dist::Distance;
use hnsw_rs::hnsw::Hnsw;

use crate::domain::Fingerprint;
use crate::embed::dot;
use crate::search::quantized::QuantizedRows;

/// Rows up to which an exact scan answers; larger indexes search an HNSW graph. The scan is
/// memory-bound (benches/vectors.rs on 2 cores: p50 20 ms at 104k rows, 71 ms at 250k, 162 ms
/// at 500k), the graph ~18 ms at 104k with recall@10 0.995.
pub const EXACT_SCAN_LIMIT: usize = 150_000;
/// HNSW links per node and construction beam.
const GRAPH_LINKS: usize = 24;
const GRAPH_BUILD_BEAM: usize = 150;
const GRAPH_LAYERS: usize = 16;
/// Search beam: this many times the requested rows, and at least `MIN_SEARCH_BEAM`.
const SEARCH_BEAM_FACTOR: usize = 4;
const MIN_SEARCH_BEAM: usize = 400;
/// Rows the 8-bit pass hands to exact re-scoring: this many times the requested rows, and at
/// least `MIN_SHORTLIST` (its error is ~0.01 in cosine, far inside this margin).
const SHORTLIST_FACTOR: usize = 4;
const MIN_SHORTLIST: usize = 1_000;

/// 1 − cosine similarity of unit vectors (never below 0, as the graph requires), with the same
/// arithmetic as the exact scan.
#[derive(Clone, Copy, Default)]
struct UnitCosine;

impl Distance<f32> for UnitCosine {
    fn eval(&self, a: &[f32], b: &[f32]) -> f32 {
        (1.0 - dot(a, b)).max(0.0)
    }
}

/// What a row is keyed by: copied, compared for ties, looked up.
pub trait RowKey: Copy + Ord + Hash {}
impl<K: Copy + Ord + Hash> RowKey for K {}

pub struct DenseIndex<K = Fingerprint> {
    dimensions: usize,
    fingerprints: Vec<K>,
    /// Row-major, one unit vector per key.
    matrix: Vec<f32>,
    rows: HashMap<K, usize>,
    /// The 8-bit rows of an exact-scan index.
    quantized: Option<QuantizedRows>,
    graph: Option<Graph>,
}

/// The HNSW graph over the rows minus their mean, re-normalised: embeddings share a large
/// common direction, and without it neighbourhoods are far better separated. Queries are
/// centred the same way; candidates are re-scored on the original vectors.
struct Graph {
    hnsw: Hnsw<'static, f32, UnitCosine>,
    mean: Vec<f32>,
}

impl Graph {
    fn centred(&self, vector: &[f32]) -> Vec<f32> {
        let mut centred: Vec<f32> = vector.iter().zip(&self.mean).map(|(v, m)| v - m).collect();
        let norm = dot(&centred, &centred).sqrt();
        if norm > 0.0 {
            centred.iter_mut().for_each(|x| *x /= norm);
        }
        centred
    }
}

impl<K: RowKey> DenseIndex<K> {
    /// Exact scan for up to `EXACT_SCAN_LIMIT` rows, else with an HNSW graph.
    pub fn new(dimensions: usize, fingerprints: Vec<K>, matrix: Vec<f32>) -> Self {
        if fingerprints.len() > EXACT_SCAN_LIMIT {
            Self::approximate(dimensions, fingerprints, matrix)
        } else {
            Self::exact(dimensions, fingerprints, matrix)
        }
    }

    pub fn exact(dimensions: usize, fingerprints: Vec<K>, matrix: Vec<f32>) -> Self {
        debug_assert_eq!(fingerprints.len() * dimensions, matrix.len());
        let rows = fingerprints
            .iter()
            .enumerate()
            .map(|(row, fp)| (*fp, row))
            .collect();
        Self {
            dimensions,
            quantized: Some(QuantizedRows::new(dimensions, &matrix)),
            fingerprints,
            matrix,
            rows,
            graph: None,
        }
    }

    /// With an HNSW graph over every row, inserted one by one in row order: hnsw_rs draws node
    /// levels from a fixed seed, so the same rows always give the same graph.
    pub fn approximate(dimensions: usize, fingerprints: Vec<K>, matrix: Vec<f32>) -> Self {
        let mut index = Self::exact(dimensions, fingerprints, matrix);
        index.quantized = None;
        let rows = index.fingerprints.len().max(1);
        let mut mean = vec![0f32; dimensions];
        for vector in index.matrix.chunks_exact(dimensions.max(1)) {
            mean.iter_mut()
                .zip(vector)
                .for_each(|(m, v)| *m += v / rows as f32);
        }
        let hnsw = Hnsw::new(
            GRAPH_LINKS,
            rows,
            GRAPH_LAYERS,
            GRAPH_BUILD_BEAM,
            UnitCosine,
        );
        let mut graph = Graph { hnsw, mean };
        for (row, vector) in index.matrix.chunks_exact(dimensions.max(1)).enumerate() {
            graph.hnsw.insert_slice((&graph.centred(vector), row));
        }
        graph.hnsw.set_searching_mode(true);
        index.graph = Some(graph);
        index
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
        let rows = match (&self.graph, &self.quantized) {
            (Some(graph), _) => {
                let beam = (limit * SEARCH_BEAM_FACTOR).max(MIN_SEARCH_BEAM);
                let centred = graph.centred(query);
                let found = graph
                    .hnsw
                    .search(&centred, limit * SEARCH_BEAM_FACTOR, beam);
                found.into_iter().map(|n| n.d_id).collect()
            }
            (None, Some(quantized)) => shortlist(&quantized.similarities(query), limit),
            (None, None) => (0..self.fingerprints.len()).collect::<Vec<_>>(),
        };
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

/// The rows of the best approximate similarities, enough of them for exact re-scoring to
/// find the true best `limit`; ties by row, so the shortlist is deterministic.
fn shortlist(approximate: &[f32], limit: usize) -> Vec<usize> {
    let keep = (limit * SHORTLIST_FACTOR).max(MIN_SHORTLIST);
    let mut rows: Vec<usize> = (0..approximate.len()).collect();
    if rows.len() > keep {
        let order =
            |a: &usize, b: &usize| approximate[*b].total_cmp(&approximate[*a]).then(a.cmp(b));
        rows.select_nth_unstable_by(keep - 1, order);
        rows.truncate(keep);
    }
    rows
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
        let index = DenseIndex::exact(dimensions, keys, vectors.concat());
        for query in vectors.iter().step_by(211) {
            let mut brute: Vec<(u32, f32)> = (0..vectors.len())
                .map(|row| (row as u32, dot(&vectors[row], query)))
                .collect();
            brute.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            brute.truncate(50);
            assert_eq!(index.nearest(query, 50), brute);
        }
    }

    #[test]
    fn the_graph_finds_what_the_scan_finds() {
        let dimensions = 16;
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut uniform = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        };
        let vectors: Vec<Vec<f32>> = (0..2_000)
            .map(|_| {
                let v: Vec<f32> = (0..dimensions).map(|_| uniform()).collect();
                let norm = dot(&v, &v).sqrt();
                v.into_iter().map(|x| x / norm).collect()
            })
            .collect();
        let fps: Vec<Fingerprint> = (0..vectors.len())
            .map(|i| Fingerprint::of_segment("s", "k", &i.to_string()))
            .collect();
        let matrix: Vec<f32> = vectors.concat();
        let exact = DenseIndex::exact(dimensions, fps.clone(), matrix.clone());
        let graph = DenseIndex::approximate(dimensions, fps.clone(), matrix.clone());
        let rebuilt = DenseIndex::approximate(dimensions, fps, matrix);
        for query in vectors.iter().step_by(97) {
            let want: Vec<Fingerprint> =
                exact.nearest(query, 10).into_iter().map(|r| r.0).collect();
            let got = graph.nearest(query, 10);
            let found = got.iter().filter(|r| want.contains(&r.0)).count();
            assert!(found >= 9, "recall {found}/10");
            assert_eq!(
                got,
                rebuilt.nearest(query, 10),
                "same rows, same graph, same answer"
            );
        }
    }
}
