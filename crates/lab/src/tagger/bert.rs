//! The MiniLM BERT forward pass written out in candle so the tagger can read any layer's token
//! vectors (the engine's copy returns the last layer only, pooled). Local files only. The
//! weights are frozen; `Bert::trainable` hands out copies of the top layers as candle `Var`s
//! whose forward uses only differentiable ops (design C fine-tunes them).

use std::path::Path;

use anyhow::Context;
use candle_core::safetensors::MmapedSafetensors;
use candle_core::{DType, Device, Tensor, Var, D};

/// A dense layer with its weight stored transposed (inputs × outputs) for a plain product.
#[derive(Clone)]
struct Dense {
    weight: Tensor,
    bias: Tensor,
}

impl Dense {
    fn load(st: &MmapedSafetensors, name: &str) -> anyhow::Result<Self> {
        let weight = st.load(&format!("{name}.weight"), &Device::Cpu)?;
        Ok(Self {
            weight: weight.t()?.contiguous()?,
            bias: st.load(&format!("{name}.bias"), &Device::Cpu)?,
        })
    }

    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        x.matmul(&self.weight)?.broadcast_add(&self.bias)
    }

    fn vars(&self, vars: &mut Vec<Var>) -> candle_core::Result<Self> {
        Ok(Self {
            weight: var(&self.weight, vars)?,
            bias: var(&self.bias, vars)?,
        })
    }
}

/// A trainable copy of `t`, recorded in `vars`.
fn var(t: &Tensor, vars: &mut Vec<Var>) -> candle_core::Result<Tensor> {
    let v = Var::from_tensor(&t.copy()?)?;
    let tensor = v.as_tensor().clone();
    vars.push(v);
    Ok(tensor)
}

/// Layer normalisation over the last dimension.
#[derive(Clone)]
struct Norm {
    weight: Tensor,
    bias: Tensor,
    eps: f64,
}

impl Norm {
    fn load(st: &MmapedSafetensors, name: &str, eps: f64) -> anyhow::Result<Self> {
        Ok(Self {
            weight: st.load(&format!("{name}.weight"), &Device::Cpu)?,
            bias: st.load(&format!("{name}.bias"), &Device::Cpu)?,
            eps,
        })
    }

    /// candle's fused kernel when frozen (it has no gradient), plain ops when `trainable`.
    fn forward(&self, x: &Tensor, trainable: bool) -> candle_core::Result<Tensor> {
        if trainable {
            candle_nn::ops::layer_norm_slow(x, &self.weight, &self.bias, self.eps as f32)
        } else {
            candle_nn::ops::layer_norm(x, &self.weight, &self.bias, self.eps as f32)
        }
    }

    fn vars(&self, vars: &mut Vec<Var>) -> candle_core::Result<Self> {
        Ok(Self {
            weight: var(&self.weight, vars)?,
            bias: var(&self.bias, vars)?,
            eps: self.eps,
        })
    }
}

/// One encoder layer's weights.
#[derive(Clone)]
pub struct Layer {
    query: Dense,
    key: Dense,
    value: Dense,
    attention_out: Dense,
    attention_norm: Norm,
    intermediate: Dense,
    output: Dense,
    output_norm: Norm,
    heads: usize,
}

impl Layer {
    /// Trainable copies of every weight of this layer, the `Var`s appended to `vars`.
    pub fn vars(&self, vars: &mut Vec<Var>) -> candle_core::Result<Self> {
        Ok(Self {
            query: self.query.vars(vars)?,
            key: self.key.vars(vars)?,
            value: self.value.vars(vars)?,
            attention_out: self.attention_out.vars(vars)?,
            attention_norm: self.attention_norm.vars(vars)?,
            intermediate: self.intermediate.vars(vars)?,
            output: self.output.vars(vars)?,
            output_norm: self.output_norm.vars(vars)?,
            heads: self.heads,
        })
    }

    /// The layer's output for one sequence `x` (tokens × hidden), all tokens attending to all;
    /// `trainable` picks ops with gradients (same values up to rounding).
    pub fn forward(&self, x: &Tensor, trainable: bool) -> candle_core::Result<Tensor> {
        let (n, hidden) = x.dims2()?;
        let head = hidden / self.heads;
        let split = |t: Tensor| {
            t.reshape((n, self.heads, head))?
                .transpose(0, 1)?
                .contiguous()
        };
        let q = split(self.query.forward(x)?)?;
        let k = split(self.key.forward(x)?)?;
        let v = split(self.value.forward(x)?)?;
        let scores = (q.matmul(&k.t()?)? / (head as f64).sqrt())?;
        let probs = if trainable {
            candle_nn::ops::softmax(&scores, D::Minus1)?
        } else {
            candle_nn::ops::softmax_last_dim(&scores)?
        };
        let context = probs.matmul(&v)?.transpose(0, 1)?.reshape((n, hidden))?;
        let attended = self
            .attention_norm
            .forward(&self.attention_out.forward(&context)?.add(x)?, trainable)?;
        let inner = self.intermediate.forward(&attended)?.gelu_erf()?;
        self.output_norm
            .forward(&self.output.forward(&inner)?.add(&attended)?, trainable)
    }
}

/// The encoder of a BERT checkpoint (`config.json`, `model.safetensors`).
pub struct Bert {
    words: Tensor,
    positions: Tensor,
    token_type: Tensor,
    embedding_norm: Norm,
    layers: Vec<Layer>,
    pub hidden: usize,
    pub max_positions: usize,
}

#[derive(serde::Deserialize)]
struct Config {
    hidden_size: usize,
    num_attention_heads: usize,
    num_hidden_layers: usize,
    layer_norm_eps: f64,
    max_position_embeddings: usize,
}

impl Bert {
    pub fn load(model_dir: &Path) -> anyhow::Result<Self> {
        let config_path = model_dir.join("config.json");
        let config: Config = serde_json::from_slice(
            &std::fs::read(&config_path).with_context(|| config_path.display().to_string())?,
        )
        .with_context(|| config_path.display().to_string())?;
        let weights = model_dir.join("model.safetensors");
        // SAFETY: the weights file is mapped read-only and not modified while mapped.
        let st = unsafe { MmapedSafetensors::new(&weights) }
            .with_context(|| weights.display().to_string())?;
        let eps = config.layer_norm_eps;
        let layers = (0..config.num_hidden_layers)
            .map(|i| {
                let p = format!("encoder.layer.{i}");
                Ok(Layer {
                    query: Dense::load(&st, &format!("{p}.attention.self.query"))?,
                    key: Dense::load(&st, &format!("{p}.attention.self.key"))?,
                    value: Dense::load(&st, &format!("{p}.attention.self.value"))?,
                    attention_out: Dense::load(&st, &format!("{p}.attention.output.dense"))?,
                    attention_norm: Norm::load(
                        &st,
                        &format!("{p}.attention.output.LayerNorm"),
                        eps,
                    )?,
                    intermediate: Dense::load(&st, &format!("{p}.intermediate.dense"))?,
                    output: Dense::load(&st, &format!("{p}.output.dense"))?,
                    output_norm: Norm::load(&st, &format!("{p}.output.LayerNorm"), eps)?,
                    heads: config.num_attention_heads,
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let load = |name: &str| st.load(name, &Device::Cpu);
        Ok(Self {
            words: load("embeddings.word_embeddings.weight")?,
            positions: load("embeddings.position_embeddings.weight")?,
            token_type: load("embeddings.token_type_embeddings.weight")?,
            embedding_norm: Norm::load(&st, "embeddings.LayerNorm", eps)?,
            layers,
            hidden: config.hidden_size,
            max_positions: config.max_position_embeddings,
        })
    }

    pub fn layer_count(&self) -> usize {
        self.layers.len()
    }

    /// The token vectors (tokens × hidden) after each layer in `wanted` (1-based: 1 is the first
    /// encoder layer), for one unpadded sequence of ids.
    pub fn forward(&self, ids: &[u32], wanted: &[usize]) -> candle_core::Result<Vec<Tensor>> {
        let mut x = self.embed(ids)?;
        let deepest = wanted.iter().copied().max().unwrap_or(0);
        let mut out = vec![None; wanted.len()];
        for (at, layer) in self.layers.iter().take(deepest).enumerate() {
            x = layer.forward(&x, false)?;
            for (slot, _) in wanted.iter().enumerate().filter(|(_, w)| **w == at + 1) {
                out[slot] = Some(x.clone());
            }
        }
        Ok(out
            .into_iter()
            .map(|t| t.expect("wanted layers exist"))
            .collect())
    }

    /// The embedding layer's output (tokens × hidden) for one sequence of ids.
    fn embed(&self, ids: &[u32]) -> candle_core::Result<Tensor> {
        let n = ids.len();
        let ids = Tensor::from_slice(ids, n, &Device::Cpu)?;
        let x = self
            .words
            .index_select(&ids, 0)?
            .add(&self.positions.narrow(0, 0, n)?)?
            .broadcast_add(&self.token_type.narrow(0, 0, 1)?)?;
        self.embedding_norm.forward(&x, false)
    }

    /// Trainable copies of the layers after the first `frozen` (1-based `frozen + 1` onwards),
    /// their `Var`s appended to `vars`.
    pub fn trainable(&self, frozen: usize, vars: &mut Vec<Var>) -> candle_core::Result<Vec<Layer>> {
        self.layers[frozen..].iter().map(|l| l.vars(vars)).collect()
    }
}

/// The mean of the rows of `x` (tokens × hidden), L2-normalised: the sentence embedding.
pub fn pooled(x: &Tensor) -> candle_core::Result<Vec<f32>> {
    let mean = x.mean(0)?;
    let norm = mean.sqr()?.sum_all()?.sqrt()?;
    mean.broadcast_div(&norm)?.to_dtype(DType::F32)?.to_vec1()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The installed model, or `$DRUGCITE_MODEL_DIR`.
    pub(crate) fn model_dir() -> std::path::PathBuf {
        std::env::var_os("DRUGCITE_MODEL_DIR")
            .map(Into::into)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/all-MiniLM-L6-v2")
            })
    }

    #[test]
    fn the_last_layer_pooled_is_the_published_sentence_embedding() {
        let dir = model_dir();
        assert!(
            dir.join("model.safetensors").is_file(),
            "no model at {} (scripts/install-model.sh, or DRUGCITE_MODEL_DIR)",
            dir.display()
        );
        let bert = Bert::load(&dir).unwrap();
        // [CLS] hello world [SEP] in the MiniLM vocabulary.
        let layers = bert.forward(&[101, 7592, 2088, 102], &[6]).unwrap();
        let vector = pooled(&layers[0]).unwrap();
        let reference = [-0.034477, 0.031023, 0.006735, 0.026109, -0.039362];
        for (got, want) in vector.iter().zip(reference) {
            assert!((got - want).abs() < 1e-4, "{got} vs {want}");
        }
    }
}
