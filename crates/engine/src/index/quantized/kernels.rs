//! The 8-bit scan's inner loop: each row's integer dot product with the query, scaled to a
//! similarity — portable, AVX2 or AVX-512 VNNI, chosen at run time, the same integers (so the
//! same results to the bit) on every path. No selection, no threads.

/// Integer lanes summed side by side (lets the compiler vectorise the loop).
const LANES: usize = 32;

/// Writes into `out` the approximate similarity to the query (codes `query_codes`, scale
/// `query_scale`) of each row of `codes` (`dimensions` codes and one scale per row).
pub(super) fn fill_similarities(
    codes: &[i8],
    scales: &[f32],
    query_codes: &[i8],
    query_scale: f32,
    out: &mut [f32],
) {
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
}
