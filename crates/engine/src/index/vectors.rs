//! Dense retrieval: the nearest segment embeddings to a query embedding by cosine similarity
//! (dot product of unit vectors), by an exact scan at every size: a first pass over the rows as
//! 8-bit integers (`quantized.rs`, in one block per core for large indexes) shortlists
//! max(4 × wanted, 1,000) rows, which are re-scored on the f32 rows. Rows are keyed (the live
//! index keys them by text hash, one row per distinct text); ties go to the smaller key, so the
//! order is deterministic. Nothing is built at open but the 8-bit rows; a served index leaves
//! its f32 rows in the mapped vectors file (`DenseIndex::mapped`). Pure computation over rows.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use crate::embed::dot;
use crate::index::quantized::{even_blocks, quantize_into, QuantizedRows};
use drugcite_core::domain::{Fingerprint, TextHash};
use drugcite_store::{MappedVectors, StoreError};

/// Rows the 8-bit pass hands to exact re-scoring: this many times the requested rows, and at
/// least `MIN_SHORTLIST` (its error is ~0.01 in cosine, far inside this margin).
const SHORTLIST_FACTOR: usize = 4;
const MIN_SHORTLIST: usize = 1_000;
/// Rows of the shortlist whose memory is requested ahead of their re-scoring.
const PREFETCH_AHEAD: usize = 4;

/// What a row is keyed by: copied, compared for ties, looked up.
pub trait RowKey: Copy + Ord + Hash {}
impl<K: Copy + Ord + Hash> RowKey for K {}

pub struct DenseIndex<K = Fingerprint> {
    dimensions: usize,
    fingerprints: Vec<K>,
    floats: FloatRows,
    rows: HashMap<K, usize>,
    quantized: QuantizedRows,
}

/// Where the exact (f32) rows are read for re-scoring.
enum FloatRows {
    /// Row-major, one unit vector per key.
    InMemory(Vec<f32>),
    /// In a mapped vectors file: index row `i` is the file's row `file_rows[i]`.
    Mapped {
        vectors: MappedVectors,
        file_rows: Vec<usize>,
    },
}

impl FloatRows {
    /// Starts loading a mapped row into cache (the in-memory matrix needs no hint).
    fn prefetch(&self, row: usize) {
        if let Self::Mapped { vectors, file_rows } = self {
            vectors.prefetch_row(file_rows[row]);
        }
    }

    /// Dot product of row `row` with `query`, the mapped row read where it lies.
    fn dot(&self, row: usize, query: &[f32]) -> f32 {
        match self {
            Self::InMemory(matrix) => {
                let start = row * query.len();
                dot(&matrix[start..start + query.len()], query)
            }
            Self::Mapped { vectors, file_rows } => match vectors.row_in_place(file_rows[row]) {
                Some(floats) => dot(floats, query),
                None => {
                    let mut buffer = vec![0.0; query.len()];
                    vectors.read_row(file_rows[row], &mut buffer);
                    dot(&buffer, query)
                }
            },
        }
    }
}

impl<K: RowKey> DenseIndex<K> {
    pub fn new(dimensions: usize, fingerprints: Vec<K>, matrix: Vec<f32>) -> Self {
        debug_assert_eq!(fingerprints.len() * dimensions, matrix.len());
        let quantized = QuantizedRows::new(dimensions, &matrix);
        Self::of_parts(
            dimensions,
            fingerprints,
            FloatRows::InMemory(matrix),
            quantized,
        )
    }

    fn of_parts(
        dimensions: usize,
        fingerprints: Vec<K>,
        floats: FloatRows,
        quantized: QuantizedRows,
    ) -> Self {
        let rows = fingerprints
            .iter()
            .enumerate()
            .map(|(row, fp)| (*fp, row))
            .collect();
        Self {
            dimensions,
            fingerprints,
            floats,
            rows,
            quantized,
        }
    }

    /// Similarity of one indexed row to the query.
    pub fn similarity(&self, fingerprint: K, query: &[f32]) -> Option<f32> {
        let row = *self.rows.get(&fingerprint)?;
        (query.len() == self.dimensions).then(|| self.floats.dot(row, query))
    }

    /// Rows in the index.
    pub fn len(&self) -> usize {
        self.fingerprints.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fingerprints.is_empty()
    }

    /// The `limit` most similar rows, best first, with their similarity.
    pub fn nearest(&self, query: &[f32], limit: usize) -> Vec<(K, f32)> {
        if query.len() != self.dimensions || limit == 0 {
            return Vec::new();
        }
        let keep = (limit * SHORTLIST_FACTOR).max(MIN_SHORTLIST);
        let rows = self.quantized.shortlist(query, keep);
        let mut scored: Vec<(K, f32)> = Vec::with_capacity(rows.len());
        for (i, &row) in rows.iter().enumerate() {
            if let Some(&ahead) = rows.get(i + PREFETCH_AHEAD) {
                self.floats.prefetch(ahead);
            }
            scored.push((self.fingerprints[row], self.floats.dot(row, query)));
        }
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

impl DenseIndex<TextHash> {
    /// The rows of a mapped vectors file whose text `keep` accepts; of a text stored twice,
    /// its first row only (the same text has the same vector). The 8-bit rows are built by
    /// one reader per core (each row on its own, so the result does not depend on the
    /// readers); the f32 rows stay in the file.
    pub fn mapped(
        vectors: MappedVectors,
        keep: impl Fn(TextHash) -> bool + Sync,
    ) -> Result<Self, StoreError> {
        let dimensions = vectors.space().dimensions;
        let mut scan = Scan::of_every_row(&vectors, &keep)?;
        let mut seen = HashSet::new();
        let (mut texts, mut file_rows) = (Vec::new(), Vec::new());
        for row in 0..scan.texts.len() {
            let Some(text) = scan.texts[row].filter(|text| seen.insert(*text)) else {
                continue;
            };
            let kept = texts.len();
            scan.codes
                .copy_within(row * dimensions..(row + 1) * dimensions, kept * dimensions);
            scan.scales[kept] = scan.scales[row];
            texts.push(text);
            file_rows.push(row);
        }
        scan.codes.truncate(texts.len() * dimensions);
        scan.codes.shrink_to_fit();
        scan.scales.truncate(texts.len());
        scan.scales.shrink_to_fit();
        let quantized = QuantizedRows::from_parts(dimensions, scan.codes, scan.scales);
        let floats = FloatRows::Mapped { vectors, file_rows };
        Ok(Self::of_parts(dimensions, texts, floats, quantized))
    }
}

/// Every row of a vectors file quantised in place, `None` for a text `keep` refused.
struct Scan {
    texts: Vec<Option<TextHash>>,
    codes: Vec<i8>,
    scales: Vec<f32>,
}

impl Scan {
    fn of_every_row(
        vectors: &MappedVectors,
        keep: &(impl Fn(TextHash) -> bool + Sync),
    ) -> Result<Self, StoreError> {
        let (rows, dimensions) = (vectors.rows(), vectors.space().dimensions);
        let mut scan = Self {
            texts: vec![None; rows],
            codes: vec![0; rows * dimensions],
            scales: vec![0.0; rows],
        };
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let blocks = even_blocks(rows, cores);
        let (mut texts, mut codes, mut scales) = (
            scan.texts.as_mut_slice(),
            scan.codes.as_mut_slice(),
            scan.scales.as_mut_slice(),
        );
        let mut parts = Vec::with_capacity(blocks.len());
        for range in blocks {
            let (t, rest_t) = texts.split_at_mut(range.len());
            let (c, rest_c) = codes.split_at_mut(range.len() * dimensions);
            let (s, rest_s) = scales.split_at_mut(range.len());
            parts.push((range, t, c, s));
            (texts, codes, scales) = (rest_t, rest_c, rest_s);
        }
        std::thread::scope(|scope| {
            let readers: Vec<_> = parts
                .into_iter()
                .map(|(range, texts, codes, scales)| {
                    scope.spawn(move || {
                        let start = range.start;
                        vectors.stream(range, |row, text, vector| {
                            let i = row - start;
                            if keep(text) {
                                texts[i] = Some(text);
                                let codes = &mut codes[i * dimensions..(i + 1) * dimensions];
                                scales[i] = quantize_into(vector, codes);
                            }
                        })
                    })
                })
                .collect();
            readers
                .into_iter()
                .try_for_each(|reader| reader.join().expect("vector reader"))
        })?;
        Ok(scan)
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

    #[test]
    fn an_index_over_a_mapped_file_answers_as_one_over_the_same_rows_in_memory() {
        use drugcite_store::{VectorSpace, VectorWriter};
        let dimensions = 16;
        let texts: Vec<TextHash> = (0..600).map(|i| TextHash::of(&format!("t{i}"))).collect();
        let vectors: Vec<Vec<f32>> = (0..600)
            .map(|r| {
                let v: Vec<f32> = (0..dimensions)
                    .map(|d| ((r * 13 + d * 29) % 37) as f32 - 18.0)
                    .collect();
                let norm = dot(&v, &v).sqrt();
                v.into_iter().map(|x| x / norm).collect()
            })
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vectors.bin");
        let space = VectorSpace {
            model_id: [1; 16],
            dimensions,
        };
        let mut writer = VectorWriter::create(&path, space).unwrap();
        for (text, vector) in texts.iter().zip(&vectors) {
            writer.append(*text, vector).unwrap();
        }
        writer.append(texts[5], &vectors[5]).unwrap();
        writer.finish().unwrap();
        let refused = |text: &TextHash| texts[..600].iter().step_by(7).any(|t| t == text);
        let (kept, matrix): (Vec<TextHash>, Vec<Vec<f32>>) = texts
            .iter()
            .zip(&vectors)
            .filter(|(text, _)| !refused(text))
            .map(|(text, vector)| (*text, vector.clone()))
            .unzip();
        let in_memory = DenseIndex::new(dimensions, kept, matrix.concat());
        let mapped = MappedVectors::open(&path).unwrap();
        let mapped = DenseIndex::mapped(mapped, |text| !refused(&text)).unwrap();
        assert_eq!(
            mapped.len(),
            in_memory.len(),
            "refused rows and the repeat left out"
        );
        for query in vectors.iter().step_by(43) {
            assert_eq!(mapped.nearest(query, 20), in_memory.nearest(query, 20));
            for text in texts.iter().step_by(11) {
                assert_eq!(
                    mapped.similarity(*text, query),
                    in_memory.similarity(*text, query)
                );
            }
        }
    }
}
