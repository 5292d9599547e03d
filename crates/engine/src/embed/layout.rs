//! How the transformer's weights lie in memory: each dense layer's matrix is stored transposed,
//! so the product a layer computes reads it as it lies. Same values, same products to the bit;
//! only the copy that the matrix library made of every weight on every product is gone.

use candle_core::safetensors::MmapedSafetensors;
use candle_core::{DType, Device, Result, Shape, Tensor};
use candle_nn::var_builder::SimpleBackend;
use candle_nn::Init;

/// The model file's tensors, each dense layer's weight in column-major order.
///
/// A dense layer multiplies `x` (tokens × inputs) by its weight `W` (outputs × inputs) as
/// `x · Wᵀ`. With `W` row-major, `Wᵀ` is a strided view, which the matrix library first
/// copies into its own layout — 42 MB of weights copied for every question. Stored
/// column-major, `Wᵀ` is a plain row-major matrix the library reads in place: a served search
/// costs ~2.7 ms less CPU (README "Scale"; alone, one question after another, the reads cost
/// what the copy did). Embedding tables (looked up by row, not multiplied) stay as they are.
pub(super) struct TransposedDense(pub(super) MmapedSafetensors);

impl TransposedDense {
    fn laid_out(name: &str, tensor: Tensor) -> Result<Tensor> {
        if tensor.rank() == 2 && !name.contains("embeddings") {
            tensor.t()?.contiguous()?.t()
        } else {
            Ok(tensor)
        }
    }
}

impl SimpleBackend for TransposedDense {
    fn get(
        &self,
        shape: Shape,
        name: &str,
        hints: Init,
        dtype: DType,
        dev: &Device,
    ) -> Result<Tensor> {
        let tensor = SimpleBackend::get(&self.0, shape, name, hints, dtype, dev)?;
        Self::laid_out(name, tensor)
    }

    fn get_unchecked(&self, name: &str, dtype: DType, dev: &Device) -> Result<Tensor> {
        let tensor = SimpleBackend::get_unchecked(&self.0, name, dtype, dev)?;
        Self::laid_out(name, tensor)
    }

    fn contains_tensor(&self, name: &str) -> bool {
        SimpleBackend::contains_tensor(&self.0, name)
    }
}

#[cfg(test)]
mod tests {
    use candle_core::{Device, Tensor};
    use candle_nn::{Linear, Module};

    #[test]
    fn a_dense_layer_over_its_transposed_weight_gives_the_same_bits() {
        let device = Device::Cpu;
        let values = |n: usize, seed: usize| -> Vec<f32> {
            (0..n)
                .map(|i| (((i * 7_919 + seed) % 1_009) as f32 - 504.0) / 311.0)
                .collect()
        };
        let (tokens, inputs, outputs) = (15, 384, 1_536);
        let weight =
            Tensor::from_vec(values(outputs * inputs, 1), (outputs, inputs), &device).unwrap();
        let bias = Tensor::from_vec(values(outputs, 2), outputs, &device).unwrap();
        let x = Tensor::from_vec(values(tokens * inputs, 3), (1, tokens, inputs), &device).unwrap();
        let as_stored = Linear::new(weight.clone(), Some(bias.clone()));
        let transposed = weight.t().unwrap().contiguous().unwrap().t().unwrap();
        let laid_out = Linear::new(transposed, Some(bias));
        let output = |layer: &Linear| -> Vec<Vec<f32>> {
            layer
                .forward(&x)
                .unwrap()
                .squeeze(0)
                .unwrap()
                .to_vec2()
                .unwrap()
        };
        let (want, got) = (output(&as_stored), output(&laid_out));
        let bits = |rows: &[Vec<f32>]| -> Vec<u32> {
            rows.iter().flatten().map(|v| v.to_bits()).collect()
        };
        assert_eq!(bits(&got), bits(&want));
    }
}
