//! The embedding stage of ingest: every distinct segment text gets one vector, however many
//! labels repeat it — reused by text hash from the live generation when it has one, else
//! computed by the passage encoder. Texts wait in a buffer that is embedded together.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use crate::domain::TextHash;
use crate::embed::{EmbedError, Embedder};
use crate::store::{IndexBuilder, StoreError, VectorCache};

/// Texts buffered before embedding: tokenised and embedded together, in one batch.
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
    /// Segments whose text this run had already embedded or reused (a copy under another label).
    pub copies: u64,
    pub tokens: u64,
    pub compute_time: Duration,
}

pub struct EmbeddingStage<'e> {
    embedder: &'e Embedder,
    cache: Option<VectorCache>,
    /// Every text this run has given a vector (or buffered for one).
    seen: HashSet<TextHash>,
    pending: Vec<(TextHash, String)>,
    counts: EmbeddingCounts,
}

impl<'e> EmbeddingStage<'e> {
    pub fn new(embedder: &'e Embedder, cache: Option<VectorCache>) -> Self {
        Self {
            embedder,
            cache,
            seen: HashSet::new(),
            pending: Vec::with_capacity(BUFFER),
            counts: EmbeddingCounts::default(),
        }
    }

    /// For an update, whose vectors file starts as a copy of the cache's: texts the cache
    /// holds are already stored and never written again.
    pub fn skipping_cached(mut self) -> Self {
        if let Some(cache) = &self.cache {
            self.seen.extend(cache.texts());
        }
        self
    }

    pub fn counts(&self) -> EmbeddingCounts {
        self.counts
    }

    /// Gives `text` a vector unless this run already did.
    pub fn add(&mut self, builder: &mut IndexBuilder, text: &str) -> Result<(), StageError> {
        let key = TextHash::of(text);
        if !self.seen.insert(key) {
            self.counts.copies += 1;
            return Ok(());
        }
        if let Some(vector) = self.cache.as_ref().and_then(|c| c.get(key)) {
            builder.add_vector(key, &vector)?;
            self.counts.reused += 1;
            return Ok(());
        }
        self.pending.push((key, text.to_owned()));
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
        for ((key, _), vector) in self.pending.iter().zip(&embedded.vectors) {
            builder.add_vector(*key, vector)?;
        }
        self.counts.computed += self.pending.len() as u64;
        self.counts.tokens += embedded.tokens as u64;
        self.counts.compute_time += started.elapsed();
        self.pending.clear();
        Ok(())
    }
}
