//! The exact scan's first pass: every row as 8-bit integers with one scale per row, so a scan
//! reads a quarter of the memory of the f32 matrix (the scan is memory-bound). It only
//! shortlists; the shortlist is re-scored on the f32 rows. Pure, deterministic arithmetic.

/// Integer lanes summed side by side (lets the compiler vectorise the loop).
const LANES: usize = 32;

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

    /// Approximate similarity of every row to `query`, in row order.
    pub fn similarities(&self, query: &[f32]) -> Vec<f32> {
        let (query_codes, query_scale) = quantize(query);
        self.codes
            .chunks_exact(self.dimensions.max(1))
            .zip(&self.scales)
            .map(|(row, scale)| integer_dot(row, &query_codes) as f32 / (scale * query_scale))
            .collect()
    }
}

/// Codes and the scale that maps the largest magnitude to 127 (1 for a zero vector).
fn quantize(vector: &[f32]) -> (Vec<i8>, f32) {
    let largest = vector.iter().fold(0f32, |m, x| m.max(x.abs()));
    let scale = if largest > 0.0 { 127.0 / largest } else { 1.0 };
    let codes = vector.iter().map(|x| (x * scale).round() as i8).collect();
    (codes, scale)
}

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
}
