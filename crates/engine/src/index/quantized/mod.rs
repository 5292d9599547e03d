//! The exact scan's first pass: every row as 8-bit integers with one scale per row, so a scan
//! reads a quarter of the memory of the f32 matrix (the scan is memory-bound), in contiguous
//! blocks on every core for large indexes, a chunk at a time (nothing allocated per row). It
//! only shortlists; the shortlist is re-scored on the f32 rows. Pure, deterministic
//! arithmetic: the shortlist never depends on the block count.

use std::cmp::Ordering;
use std::ops::Range;

use crate::workers;
use kernels::fill_similarities;

mod kernels;

/// Rows per scan block below which a second thread costs more than it saves.
const MIN_BLOCK_ROWS: usize = 50_000;
/// Rows scored at a time into a buffer on the stack: a scan allocates nothing per row.
const CHUNK_ROWS: usize = 2_048;

/// Rows quantised to `i8`: `row ≈ codes / scale`.
pub struct QuantizedRows {
    dimensions: usize,
    codes: Vec<i8>,
    scales: Vec<f32>,
}

impl QuantizedRows {
    pub fn new(dimensions: usize, matrix: &[f32]) -> Self {
        let mut codes = Vec::with_capacity(matrix.len());
        let mut scales = Vec::with_capacity(matrix.len() / dimensions.max(1));
        for row in matrix.chunks_exact(dimensions.max(1)) {
            let (row_codes, scale) = quantize(row);
            codes.extend(row_codes);
            scales.push(scale);
        }
        Self {
            dimensions,
            codes,
            scales,
        }
    }

    /// Rows already quantised (by `quantize_into`), `dimensions` codes and one scale per row.
    pub fn from_parts(dimensions: usize, codes: Vec<i8>, scales: Vec<f32>) -> Self {
        debug_assert_eq!(codes.len(), scales.len() * dimensions);
        Self {
            dimensions,
            codes,
            scales,
        }
    }

    fn rows(&self) -> usize {
        self.scales.len()
    }

    /// Approximate similarity of every row to `query`, in row order (what the tests compare
    /// the shortlist with).
    #[cfg(test)]
    fn similarities(&self, query: &[f32]) -> Vec<f32> {
        let (query_codes, query_scale) = quantize(query);
        let mut out = vec![0.0; self.rows()];
        self.fill_similarities(&query_codes, query_scale, 0..self.rows(), &mut out);
        out
    }

    /// The `keep` rows of highest approximate similarity to `query` (ties to the lower row), in
    /// no particular order. Large indexes are scanned in one block per core, each keeping its own
    /// best `keep`; the best `keep` of those are the best `keep` overall, so the answer is the
    /// same for any number of blocks.
    pub fn shortlist(&self, query: &[f32], keep: usize) -> Vec<usize> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let blocks = (self.rows() / MIN_BLOCK_ROWS).clamp(1, cores);
        self.shortlist_in_blocks(query, keep, blocks)
    }

    fn shortlist_in_blocks(&self, query: &[f32], keep: usize, blocks: usize) -> Vec<usize> {
        let (query_codes, query_scale) = quantize(query);
        let best_of_block = |range| self.best_of_rows(&query_codes, query_scale, range, keep);
        let blocks = even_blocks(self.rows(), blocks);
        let candidates = if blocks.len() == 1 {
            best_of_block(0..self.rows())
        } else {
            workers::map_each(blocks, best_of_block).concat()
        };
        select_best(candidates, keep)
            .into_iter()
            .map(|(row, _)| row)
            .collect()
    }

    /// The best `keep` of `rows` (as `select_best` orders them) as (row, similarity), in no
    /// particular order. Scored a chunk
    /// at a time; once `keep` are held, a row no better than the worst held is dropped at once
    /// (rows come in ascending order, so a tie with the worst held loses to it).
    fn best_of_rows(
        &self,
        query_codes: &[i8],
        query_scale: f32,
        rows: Range<usize>,
        keep: usize,
    ) -> Vec<(usize, f32)> {
        if keep == 0 {
            return Vec::new();
        }
        let mut best: Vec<(usize, f32)> = Vec::with_capacity(2 * keep + CHUNK_ROWS);
        let mut floor = f32::NEG_INFINITY;
        let mut chunk = [0f32; CHUNK_ROWS];
        for start in rows.clone().step_by(CHUNK_ROWS) {
            let end = (start + CHUNK_ROWS).min(rows.end);
            let scored = &mut chunk[..end - start];
            self.fill_similarities(query_codes, query_scale, start..end, scored);
            let above = |(_, s): &(usize, f32)| s.total_cmp(&floor) == Ordering::Greater;
            best.extend((start..end).zip(scored.iter().copied()).filter(above));
            if best.len() >= 2 * keep {
                best = select_best(best, keep);
                floor = best.iter().map(|(_, s)| *s).fold(f32::INFINITY, f32::min);
            }
        }
        select_best(best, keep)
    }

    fn fill_similarities(
        &self,
        query_codes: &[i8],
        query_scale: f32,
        rows: Range<usize>,
        out: &mut [f32],
    ) {
        let dimensions = self.dimensions.max(1);
        let codes = &self.codes[rows.start * dimensions..rows.end * dimensions];
        fill_similarities(codes, &self.scales[rows], query_codes, query_scale, out)
    }
}

/// `blocks` contiguous row ranges covering every row (fewer when there are fewer rows).
pub(super) fn even_blocks(rows: usize, blocks: usize) -> Vec<Range<usize>> {
    let per_block = rows.div_ceil(blocks.max(1)).max(1);
    (0..rows.div_ceil(per_block).max(1))
        .map(|b| b * per_block..((b + 1) * per_block).min(rows))
        .collect()
}

/// Highest similarity first, ties to the lower row: a total order, so the selection is unique.
fn select_best(mut scored: Vec<(usize, f32)>, keep: usize) -> Vec<(usize, f32)> {
    let order = |a: &(usize, f32), b: &(usize, f32)| -> Ordering {
        b.1.total_cmp(&a.1).then(a.0.cmp(&b.0))
    };
    if keep == 0 {
        return Vec::new();
    }
    if scored.len() > keep {
        scored.select_nth_unstable_by(keep - 1, order);
        scored.truncate(keep);
    }
    scored
}

/// Codes and the scale that maps the largest magnitude to 127 (1 for a zero vector).
fn quantize(vector: &[f32]) -> (Vec<i8>, f32) {
    let mut codes = vec![0; vector.len()];
    let scale = quantize_into(vector, &mut codes);
    (codes, scale)
}

/// Writes `vector`'s codes into `codes` (as long) and returns its scale (see `quantize`).
pub fn quantize_into(vector: &[f32], codes: &mut [i8]) -> f32 {
    let largest = vector.iter().fold(0f32, |m, x| m.max(x.abs()));
    let scale = if largest > 0.0 { 127.0 / largest } else { 1.0 };
    for (code, x) in codes.iter_mut().zip(vector) {
        *code = (x * scale).round() as i8;
    }
    scale
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::dot;

    #[test]
    fn quantised_similarities_are_close_to_the_exact_ones() {
        let rows: Vec<Vec<f32>> = (0..50)
            .map(|r| {
                let v: Vec<f32> = (0..40)
                    .map(|d| ((r * 7 + d * 13) % 23) as f32 - 11.0)
                    .collect();
                let norm = dot(&v, &v).sqrt();
                v.into_iter().map(|x| x / norm).collect()
            })
            .collect();
        let quantized = QuantizedRows::new(40, &rows.concat());
        let query = &rows[3];
        let approximate = quantized.similarities(query);
        for (row, similarity) in rows.iter().zip(&approximate) {
            assert!((dot(row, query) - similarity).abs() < 0.02);
        }
        assert_eq!(approximate.len(), 50);
    }

    #[test]
    fn the_chunked_scan_keeps_what_select_best_keeps_ties_included() {
        let dimensions = 4;
        let matrix: Vec<f32> = (0..9_000 * dimensions)
            .map(|i| ((i * 7) % 13) as f32 / 13.0 + 0.1)
            .collect();
        let quantized = QuantizedRows::new(dimensions, &matrix);
        let query = [0.5, 0.25, 0.125, 0.75];
        let (codes, scale) = quantize(&query);
        let similarities = quantized.similarities(&query);
        for keep in [0, 1, 30, 31, 2_500, 8_999, 9_000, 9_500] {
            let mut got = quantized.best_of_rows(&codes, scale, 0..9_000, keep);
            let scored = similarities.iter().copied().enumerate().collect();
            let mut want = select_best(scored, keep);
            got.sort_by_key(|(row, _)| *row);
            want.sort_by_key(|(row, _)| *row);
            assert_eq!(got, want, "keep {keep}");
        }
    }

    #[test]
    fn the_shortlist_is_the_same_for_any_number_of_blocks() {
        let dimensions = 8;
        let matrix: Vec<f32> = (0..5_000 * dimensions)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) / 50.0)
            .collect();
        let quantized = QuantizedRows::new(dimensions, &matrix);
        let query = &matrix[dimensions * 17..dimensions * 18];
        let similarities = quantized.similarities(query);
        let mut want: Vec<usize> = (0..5_000).collect();
        want.sort_by(|a, b| similarities[*b].total_cmp(&similarities[*a]).then(a.cmp(b)));
        want.truncate(300);
        for blocks in [1, 2, 3, 7] {
            let mut got = quantized.shortlist_in_blocks(query, 300, blocks);
            got.sort_by(|a, b| similarities[*b].total_cmp(&similarities[*a]).then(a.cmp(b)));
            assert_eq!(got, want, "{blocks} blocks");
        }
        assert_eq!(even_blocks(10, 3), vec![0..4, 4..8, 8..10]);
        assert_eq!(even_blocks(0, 2), vec![0..0]);
    }
}
