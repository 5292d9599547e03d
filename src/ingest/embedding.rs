//! The embedding stage of ingest: every segment gets a vector, reused by fingerprint from the
//! live generation when it has one, else computed by the passage encoder. Segments wait in a
//! buffer that is tokenised and embedded together.

use std::time::{Duration, Instant};

use crate::domain::Fingerprint;
use crate::embed::{EmbedError, Embedder};
use crate::store::{IndexBuilder, StoreError, VectorCache};

/// Segments buffered before embedding: tokenised and embedded together, in one batch.
const BUFFER: usize = 4096;

#[derive(Debug, thiserror::Error)]
pub enum StageError {
    #[error(transparent)]
    Embed(#[from] EmbedError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[derive(Default, Clone, Copy)]
pub struct EmbeddingCounts {
    pub computed: u64,
    pub reused: u64,
    pub tokens: u64,
    pub compute_time: Duration,
}

pub struct EmbeddingStage<'e> {
    embedder: &'e Embedder,
    cache: Option<VectorCache>,
    pending: Vec<(Fingerprint, String)>,
    counts: EmbeddingCounts,
}

impl<'e> EmbeddingStage<'e> {
    pub fn new(embedder: &'e Embedder, cache: Option<VectorCache>) -> Self {
        Self {
            embedder,
            cache,
            pending: Vec::with_capacity(BUFFER),
            counts: EmbeddingCounts::default(),
        }
    }

    pub fn counts(&self) -> EmbeddingCounts {
        self.counts
    }

    pub fn add(
        &mut self,
        builder: &mut IndexBuilder,
        fingerprint: Fingerprint,
        text: &str,
    ) -> Result<(), StageError> {
        if let Some(vector) = self.cache.as_ref().and_then(|c| c.get(fingerprint)) {
            builder.add_vector(fingerprint, &vector)?;
            self.counts.reused += 1;
            return Ok(());
        }
        self.pending.push((fingerprint, text.to_owned()));
        if self.pending.len() >= BUFFER {
            self.flush(builder)?;
        }
        Ok(())
    }

    /// Embeds everything buffered with the passage encoder (`Embedder::embed_passages`).
    pub fn flush(&mut self, builder: &mut IndexBuilder) -> Result<(), StageError> {
        let started = Instant::now();
        let texts: Vec<&str> = self.pending.iter().map(|(_, t)| t.as_str()).collect();
        let embedded = self.embedder.embed_passages(&texts)?;
        for ((fingerprint, _), vector) in self.pending.iter().zip(&embedded.vectors) {
            builder.add_vector(*fingerprint, vector)?;
        }
        self.counts.computed += self.pending.len() as u64;
        self.counts.tokens += embedded.tokens as u64;
        self.counts.compute_time += started.elapsed();
        self.pending.clear();
        Ok(())
    }
}
