//! The exact scan's first pass: every row as 8-bit integers with one scale per row, so a scan
//! reads a quarter of the memory of the f32 matrix (the scan is memory-bound), in contiguous
//! blocks on every core for large indexes, a chunk at a time (nothing allocated per row). It
//! only shortlists; the shortlist is re-scored on the f32 rows. Pure, deterministic
//! arithmetic: the shortlist never depends on the block count.

use std::cmp::Ordering;
use std::ops::Range;

use super::workers;

/// Integer lanes summed side by side (lets the compiler vectorise the loop).
const LANES: usize = 32;
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
        let scales = &self.scales[rows];
        #[cfg(target_arch = "x86_64")]
        if has_vnni() {
            // SAFETY: the CPU has AVX-512 F, BW and VNNI, checked just above.
            return unsafe { similarities_vnni(codes, scales, query_codes, query_scale, out) };
        }
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { similarities_avx2(codes, scales, query_codes, query_scale, out) };
        }
        similarities(codes, scales, query_codes, query_scale, out)
    }
}

#[cfg(target_arch = "x86_64")]
fn has_vnni() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vnni")
}

/// `similarities` with AVX-512 VNNI: 64 byte products summed per instruction. VNNI multiplies
/// unsigned by signed bytes, so each row code is read offset by 128 (its top bit flipped) and
/// 128 × the query's code sum is taken off again: the same integers, so the same results to
/// the bit. A row's last partial block is read masked (its missing bytes count as zero).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
unsafe fn similarities_vnni(
    codes: &[i8],
    scales: &[f32],
    query: &[i8],
    query_scale: f32,
    out: &mut [f32],
) {
    use std::arch::x86_64::*;
    let dimensions = query.len().max(1);
    let offset = 128 * query.iter().map(|&q| i32::from(q)).sum::<i32>();
    let blocks: Vec<(usize, __mmask64)> = (0..dimensions.div_ceil(64))
        .map(|b| {
            let width = (dimensions - b * 64).min(64);
            (b * 64, u64::MAX >> (64 - width))
        })
        .collect();
    let load = |bytes: &[i8], (start, mask): (usize, __mmask64)| {
        // SAFETY: the mask covers only bytes inside `bytes` (`start + width <= dimensions`).
        unsafe { _mm512_maskz_loadu_epi8(mask, bytes.as_ptr().add(start)) }
    };
    let query_blocks: Vec<__m512i> = blocks.iter().map(|&block| load(query, block)).collect();
    let flip = _mm512_set1_epi8(i8::MIN);
    let rows = codes.chunks_exact(dimensions).zip(scales);
    for (similarity, (row, scale)) in out.iter_mut().zip(rows) {
        let mut sums = _mm512_setzero_si512();
        for (&block, &query_block) in blocks.iter().zip(&query_blocks) {
            let unsigned = _mm512_xor_si512(load(row, block), flip);
            sums = _mm512_dpbusd_epi32(sums, unsigned, query_block);
        }
        let dot = _mm512_reduce_add_epi32(sums) - offset;
        *similarity = dot as f32 / (scale * query_scale);
    }
}

/// `similarities` compiled for AVX2 (the build targets baseline x86-64): 16 products per
/// instruction instead of 4. Integer sums, so the same results to the bit.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn similarities_avx2(
    codes: &[i8],
    scales: &[f32],
    query: &[i8],
    query_scale: f32,
    out: &mut [f32],
) {
    similarities(codes, scales, query, query_scale, out)
}

/// Writes into `out` the approximate similarity to the query of each row of `codes` (one scale
/// per row).
#[inline(always)]
fn similarities(codes: &[i8], scales: &[f32], query: &[i8], query_scale: f32, out: &mut [f32]) {
    let rows = codes.chunks_exact(query.len().max(1)).zip(scales);
    for (similarity, (row, scale)) in out.iter_mut().zip(rows) {
        *similarity = integer_dot(row, query) as f32 / (scale * query_scale);
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

#[inline(always)]
fn integer_dot(a: &[i8], b: &[i8]) -> i32 {
    let (a_chunks, b_chunks) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let tail: i32 = a_chunks
        .remainder()
        .iter()
        .zip(b_chunks.remainder())
        .map(|(x, y)| i32::from(*x) * i32::from(*y))
        .sum();
    let mut lanes = [0i32; LANES];
    for (x, y) in a_chunks.zip(b_chunks) {
        for lane in 0..LANES {
            lanes[lane] += i32::from(x[lane]) * i32::from(y[lane]);
        }
    }
    lanes.iter().sum::<i32>() + tail
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

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_vnni_scan_gives_the_portable_scan_to_the_bit() {
        if !has_vnni() {
            eprintln!("this CPU lacks AVX-512 VNNI; nothing to compare");
            return;
        }
        for dimensions in [384, 100, 64, 7] {
            let codes: Vec<i8> = (0..300 * dimensions)
                .map(|i| ((i * 131 + i / 7) % 255) as i32 - 127)
                .map(|c| c as i8)
                .collect();
            let scales: Vec<f32> = (0..300).map(|r| 100.0 + r as f32).collect();
            let query: Vec<i8> = (0..dimensions).map(|d| [127, -127, 0, 5][d % 4]).collect();
            let (mut portable, mut vnni) = (vec![0.0; 300], vec![0.0; 300]);
            similarities(&codes, &scales, &query, 90.0, &mut portable);
            // SAFETY: the CPU has the features, checked above.
            unsafe { similarities_vnni(&codes, &scales, &query, 90.0, &mut vnni) };
            assert_eq!(portable, vnni, "{dimensions} dimensions");
        }
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
