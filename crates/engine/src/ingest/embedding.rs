//! The embedding stage of ingest: every distinct segment text gets one vector, however many
//! labels repeat it — reused by text hash from the live generation when it has one, else
//! computed by the passage encoder. A text with an opening (`embed::openings`: an Indications
//! text's first words, a patient section's "What is (drug)?" answer) also gets the transformer's
//! vector of it, under its own row key. Texts wait in buffers that are embedded together.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use crate::embed::openings::{opening_key, opening_of};
use crate::embed::{EmbedError, Embedder};
use drugcite_core::domain::TextHash;
use drugcite_store::{IndexBuilder, StoreError, VectorCache};

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
    /// Opening vectors computed and reused (not in `computed`, `reused`).
    pub openings_computed: u64,
    pub openings_reused: u64,
    /// Segments whose text this run had already embedded or reused (a copy under another label).
    pub copies: u64,
    /// Tokens and time of the passage encoder for `computed`.
    pub tokens: u64,
    pub compute_time: Duration,
    /// Time of the transformer for `openings_computed`.
    pub openings_time: Duration,
}

pub struct EmbeddingStage<'e> {
    embedder: &'e Embedder,
    cache: Option<VectorCache>,
    /// Every text this run has given a vector (or buffered for one).
    seen: HashSet<TextHash>,
    pending: Vec<(TextHash, String)>,
    /// Openings waiting for the transformer, under their row keys.
    pending_openings: Vec<(TextHash, String)>,
    counts: EmbeddingCounts,
}

impl<'e> EmbeddingStage<'e> {
    pub fn new(embedder: &'e Embedder, cache: Option<VectorCache>) -> Self {
        Self {
            embedder,
            cache,
            seen: HashSet::new(),
            pending: Vec::with_capacity(BUFFER),
            pending_openings: Vec::new(),
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

    /// Gives `text`, met in section `section_key`, a vector unless this run already did, and
    /// its opening one when the section asks for it.
    pub fn add(
        &mut self,
        builder: &mut IndexBuilder,
        text: &str,
        section_key: &str,
    ) -> Result<(), StageError> {
        let key = TextHash::of(text);
        if let Some(words) = opening_of(section_key, text) {
            let opening = opening_key(key);
            if self.seen.insert(opening) {
                if self.reused(builder, opening)? {
                    self.counts.openings_reused += 1;
                } else {
                    self.pending_openings.push((opening, words));
                }
            }
        }
        if !self.seen.insert(key) {
            self.counts.copies += 1;
        } else if self.reused(builder, key)? {
            self.counts.reused += 1;
        } else {
            self.pending.push((key, text.to_owned()));
        }
        if self.pending.len() + self.pending_openings.len() >= BUFFER {
            self.flush(builder)?;
        }
        Ok(())
    }

    /// Whether the cache held the row `key` (now written to `builder`).
    fn reused(&mut self, builder: &mut IndexBuilder, key: TextHash) -> Result<bool, StageError> {
        let Some(vector) = self.cache.as_ref().and_then(|c| c.get(key)) else {
            return Ok(false);
        };
        builder.add_vector(key, &vector)?;
        Ok(true)
    }

    /// Embeds everything buffered: texts with the passage encoder
    /// (`Embedder::embed_passages`), openings with the transformer (`Embedder::embed_many`).
    pub fn flush(&mut self, builder: &mut IndexBuilder) -> Result<(), StageError> {
        for (pending, by_transformer) in [(&self.pending, false), (&self.pending_openings, true)] {
            if pending.is_empty() {
                continue;
            }
            let started = Instant::now();
            let texts: Vec<&str> = pending.iter().map(|(_, t)| t.as_str()).collect();
            let embedded = if by_transformer {
                self.embedder.embed_many(&texts)?
            } else {
                self.embedder.embed_passages(&texts)?
            };
            for ((key, _), vector) in pending.iter().zip(&embedded.vectors) {
                builder.add_vector(*key, vector)?;
            }
            let computed = pending.len() as u64;
            if by_transformer {
                self.counts.openings_computed += computed;
                self.counts.openings_time += started.elapsed();
            } else {
                self.counts.computed += computed;
                self.counts.tokens += embedded.tokens as u64;
                self.counts.compute_time += started.elapsed();
            }
        }
        self.pending.clear();
        self.pending_openings.clear();
        Ok(())
    }
}
