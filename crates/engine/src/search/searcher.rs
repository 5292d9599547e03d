//! The `Searcher`: runs retrieval (BM25, passage vectors, the subject's own texts), fusion and
//! collapse over the live generation for one question, and owns the query-vector cache. No HTTP,
//! no verify, no graph.

use std::collections::HashMap;
use std::sync::Arc;

use moka::sync::Cache;

use super::candidates::{
    asks_about_effect, effect_texts, lexical_pool, partner_texts, subject_nearest, subject_texts,
    with_missing,
};
use super::collapse::{AlsoIn, Collapsed};
use super::features::{NamedTexts, Weights};
use super::lexical::{analyse, LexicalHit};
use super::ranking::{rank, Candidates};
use super::section_space::SectionSpace;
use super::section_view::SectionView;
use super::{headings, indicated};
use crate::cache_stats::{CacheCounters, CacheStats};
use crate::embed::{EmbedError, Embedder};
use crate::error::EngineError;
use crate::index::{Live, LiveIndex};
use crate::understand::Understanding;
use drugcite_core::domain::{Question, SearchFilters, TextHash, TopK};
use drugcite_core::label::section_name;
use drugcite_store::{SegmentInfo, Snapshot, StoreError, StoredSegment};

/// A phrase's vector as the query-vector cache holds it.
type QueryVector = Arc<Vec<f32>>;

const QUERY_CACHE_ENTRIES: u64 = 10_000;
/// Candidates drawn from each retriever before fusion; more when filters will discard some.
pub(super) const CANDIDATES: usize = 300;
const FILTERED_CANDIDATES: usize = 5_000;

/// A search's answer: its texts, best first, and the drugs the question names of which the
/// index holds no label (read from the same understanding the ranking used).
pub struct SearchAnswer {
    pub hits: Vec<SearchHit>,
    pub unmatched_drugs: Vec<String>,
    /// Question words no label uses and the label words they were read as.
    pub read_as: Vec<crate::understand::ReadAs>,
}

/// One distinct text of a search answer: its best copy, and the other labels holding it.
pub struct SearchHit {
    pub segment: StoredSegment,
    pub also_in: AlsoIn,
}

pub struct Searcher {
    index: Arc<LiveIndex>,
    embedder: Option<Arc<Embedder>>,
    sections: Option<SectionSpace>,
    query_vectors: Cache<String, Arc<Vec<f32>>>,
    query_vector_counters: CacheCounters,
}

/// What retrieval found for one question, before ranking.
pub(super) struct Retrieved {
    pub(super) live: Arc<Live>,
    pub(super) understanding: Understanding,
    pub(super) lexical: Vec<LexicalHit>,
    pub(super) partners: NamedTexts,
    pub(super) semantic: Vec<(TextHash, f32)>,
    pub(super) query_vector: Option<Arc<Vec<f32>>>,
}

impl Searcher {
    /// Without an embedder, or over a generation ingested without one, search is lexical only.
    pub fn new(index: Arc<LiveIndex>, embedder: Option<Arc<Embedder>>) -> Self {
        Weights::learned(); // checked here, so a searcher never starts with unfitted weights
        let sections = embedder.as_ref().and_then(|e| match SectionSpace::embed(e) {
            Ok(space) => Some(space),
            Err(error) => {
                tracing::warn!(%error, "section descriptions not embedded; ranking without them");
                None
            }
        });
        Self {
            index,
            embedder,
            sections,
            query_vectors: Cache::new(QUERY_CACHE_ENTRIES),
            query_vector_counters: CacheCounters::default(),
        }
    }

    /// The query-vector cache's hits, misses and size since the process started.
    pub fn query_vector_cache_stats(&self) -> CacheStats {
        self.query_vector_counters
            .stats(self.query_vectors.entry_count())
    }

    /// Whether searches use embeddings (a model is loaded and the index has vectors).
    pub fn is_semantic(&self) -> bool {
        self.embedder.is_some() && self.index.current().dense.is_some()
    }

    /// Best-matching distinct texts for a question, best first, deterministic: each answered
    /// by its best copy that passes the filters, with the other such copies in `also_in`;
    /// never a passage that is only headings.
    pub fn search(
        &self,
        question: &Question,
        top_k: TopK,
        filters: &SearchFilters,
    ) -> Result<SearchAnswer, EngineError> {
        let pool = if filters.is_empty() {
            CANDIDATES
        } else {
            FILTERED_CANDIDATES
        };
        let found = self.retrieve(question, pool)?;
        let live = &found.live;
        let keep = |info: &SegmentInfo| matches_filters(&live.snapshot, info, filters);
        let mut hits = Vec::new();
        for collapsed in self.ranked(&found, &keep) {
            let hit = hit(live, collapsed)?;
            if !headings::is_heading_only(&hit.segment.text) {
                hits.push(hit);
            }
            if hits.len() == top_k.get() {
                break;
            }
        }
        Ok(SearchAnswer {
            hits,
            unmatched_drugs: found.understanding.unlabelled_drugs.clone(),
            read_as: found.understanding.read_as.clone(),
        })
    }

    /// The question understood, and its BM25 and dense candidates (none when it has no word
    /// to search for).
    pub(super) fn retrieve(
        &self,
        question: &Question,
        pool: usize,
    ) -> Result<Retrieved, EngineError> {
        let live = self.index.current();
        let understanding = live.vocabulary.understand(question.as_str());
        if analyse(&live.snapshot, question.as_str()).is_empty() {
            return Ok(Retrieved {
                live,
                understanding,
                lexical: Vec::new(),
                partners: NamedTexts::default(),
                semantic: Vec::new(),
                query_vector: None,
            });
        }
        let embed_phrase = self
            .embedder
            .as_deref()
            .map(|embedder| move |phrase: &str| self.query_vector(embedder, phrase));
        let embed = embed_phrase
            .as_ref()
            .map(|embed| embed as &indicated::EmbedPhrase<'_>);
        let understanding = indicated::with_indicated_subject(&live, understanding, embed)?;
        let understanding = indicated::with_indicated_partner(&live, understanding, embed)?;
        tracing::debug!(
            subject = ?understanding.drugs.iter().map(|d| (&d.word, d.class.as_deref(), d.labels.len())).collect::<Vec<_>>(),
            sections = ?understanding.sections,
            keywords = %understanding.keywords,
            subject_keywords = %understanding.subject_keywords,
            "question understood"
        );
        let or_question = |text: &'_ str| {
            if analyse(&live.snapshot, text).is_empty() {
                question.as_str().to_owned()
            } else {
                text.to_owned()
            }
        };
        let keywords = or_question(&understanding.keywords);
        let subject_keywords = or_question(&understanding.subject_keywords);
        let topic = or_question(&understanding.topic);
        let queries = (keywords.as_str(), subject_keywords.as_str());
        let lexical = || -> Result<_, StoreError> {
            let hits = lexical_pool(&live, queries, pool, &understanding)?;
            Ok((hits, partner_texts(&live, &understanding)?))
        };
        let effect_phrase =
            asks_about_effect(&live, &understanding).then_some(subject_keywords.as_str());
        let ((lexical, mut partners), vectors) = match (&self.embedder, &live.dense) {
            (Some(embedder), Some(_)) => {
                let phrases = [Some(topic.as_str()), effect_phrase];
                let (lexical, vectors) = self.beside_query_vectors(embedder, &phrases, lexical);
                (lexical?, Some(vectors?))
            }
            _ => (lexical()?, None),
        };
        let (query_vector, effect_vector) = match vectors {
            Some([topic, effect]) => (topic, effect),
            None => (None, None),
        };
        let semantic = match (&live.dense, &query_vector) {
            (Some(dense), Some(vector)) => {
                let subject_texts = subject_texts(&live, &understanding)?;
                let asked =
                    subject_nearest(&live, &understanding, (dense, vector), &subject_texts)?;
                let (naming, texts) = match &effect_vector {
                    Some(effect) => {
                        effect_texts(&live, &understanding, &subject_texts, (effect, vector))
                    }
                    None => Default::default(),
                };
                partners.naming_effect = texts;
                with_missing(with_missing(dense.nearest(vector, pool), asked), naming)
            }
            _ => Vec::new(),
        };
        Ok(Retrieved {
            live,
            understanding,
            lexical,
            partners,
            semantic,
            query_vector,
        })
    }

    /// The retrieved texts ranked with the learned weights, each by its best copy `keep` accepts.
    fn ranked(&self, found: &Retrieved, keep: &dyn Fn(&SegmentInfo) -> bool) -> Vec<Collapsed> {
        self.with_candidates(found, |candidates| {
            let live = &found.live;
            let understanding = &found.understanding;
            let weights = Weights::learned();
            rank(
                candidates,
                &live.catalog,
                &live.copies,
                understanding,
                weights,
                keep,
            )
        })
    }

    /// Runs `then` over the candidates of `found`, with its similarity functions.
    pub(super) fn with_candidates<T>(
        &self,
        found: &Retrieved,
        then: impl FnOnce(&Candidates) -> T,
    ) -> T {
        let live = &found.live;
        let query_vector = found.query_vector.as_deref();
        let similarity = |fp| {
            live.dense
                .as_ref()
                .zip(query_vector)
                .and_then(|(d, v)| d.similarity(fp, v))
        };
        let sections = self.sections.as_ref().zip(query_vector);
        let relative = sections.map(|(space, v)| space.relative_similarity(v));
        let section_similarity = |key: &str| {
            relative
                .as_ref()
                .map_or((0.0, 0.0), |r| (r.of(key), r.margin()))
        };
        let sections = SectionView::new(
            &live.label_sections,
            &section_similarity,
            &found.understanding,
        );
        let routes = &found.understanding.form_routes;
        let other_form = |label| live.vocabulary.given_otherwise(label, routes);
        then(&Candidates {
            lexical: &found.lexical,
            semantic: &found.semantic,
            similarity: &similarity,
            sections: &sections,
            partners: &found.partners,
            other_form: &other_form,
        })
    }

    /// The transformer's vector of `text`, from the query-vector cache or embedded now.
    fn query_vector(&self, embedder: &Embedder, text: &str) -> Result<Arc<Vec<f32>>, EmbedError> {
        match self.cached_query_vector(text) {
            Some(vector) => Ok(vector),
            None => self.remember_query_vector(text, embedder.embed(&[text])),
        }
    }

    /// Runs `work` and finds the vector of each phrase given: from the cache, or embedded one
    /// by one (a phrase's vector never depends on what it was batched with) on another of the
    /// search threads while `work` runs (on 2 cores a new question's wall time is then the
    /// longer of the two, not their sum).
    fn beside_query_vectors<T: Send, const N: usize>(
        &self,
        embedder: &Embedder,
        phrases: &[Option<&str>; N],
        work: impl FnOnce() -> T,
    ) -> (T, Result<[Option<QueryVector>; N], EmbedError>) {
        let cached = phrases.map(|phrase| phrase.map(|p| (p, self.cached_query_vector(p))));
        let missing: Vec<&str> = cached
            .iter()
            .flatten()
            .filter(|(_, vector)| vector.is_none())
            .map(|(phrase, _)| *phrase)
            .collect();
        if missing.is_empty() {
            return (work(), Ok(cached.map(|c| c.and_then(|(_, v)| v))));
        }
        let embed_each = || -> Result<Vec<_>, EmbedError> {
            let each = missing.iter().map(|phrase| embedder.embed(&[phrase]));
            each.map(|embedded| Ok(Arc::new(embedded?.remove(0))))
                .collect()
        };
        let (embedded, done) = crate::workers::beside(embed_each, work);
        let vectors = embedded.map(|embedded| {
            let fresh: HashMap<&str, Arc<Vec<f32>>> = missing.into_iter().zip(embedded).collect();
            for (phrase, vector) in &fresh {
                self.query_vectors
                    .insert((*phrase).to_owned(), Arc::clone(vector));
            }
            cached.map(|c| c.and_then(|(phrase, v)| v.or_else(|| fresh.get(phrase).cloned())))
        });
        (done, vectors)
    }

    /// `text`'s vector if the cache holds it, counted as a hit or a miss.
    fn cached_query_vector(&self, text: &str) -> Option<Arc<Vec<f32>>> {
        let cached = self.query_vectors.get(text);
        match cached {
            Some(_) => self.query_vector_counters.hit(),
            None => self.query_vector_counters.miss(),
        }
        cached
    }

    /// The one vector `embedded` holds for `text`, kept in the cache when there is one.
    fn remember_query_vector(
        &self,
        text: &str,
        embedded: Result<Vec<Vec<f32>>, EmbedError>,
    ) -> Result<Arc<Vec<f32>>, EmbedError> {
        let vector = Arc::new(embedded?.remove(0));
        self.query_vectors
            .insert(text.to_owned(), Arc::clone(&vector));
        Ok(vector)
    }
}

fn hit(live: &Live, collapsed: Collapsed) -> Result<SearchHit, EngineError> {
    let address = live
        .catalog
        .get(collapsed.representative)
        .expect("a ranked copy is in the catalog")
        .address;
    Ok(SearchHit {
        segment: live.snapshot.segment(address)?,
        also_in: AlsoIn::of(&collapsed.others, &live.catalog, live.snapshot.labels()),
    })
}

/// Current segments only (never a superseded or withdrawn version), within the filters.
fn matches_filters(snapshot: &Snapshot, info: &SegmentInfo, filters: &SearchFilters) -> bool {
    if !info.current {
        return false;
    }
    let label = &snapshot.labels()[info.label as usize];
    let drug_ok = filters.drug.as_ref().is_none_or(|wanted| {
        label.drug.name.contains(wanted.as_str()) || label.search_names.iter().any(|n| n == wanted)
    });
    let section_ok = filters.section.as_ref().is_none_or(|wanted| {
        info.section_key.as_ref() == wanted
            || section_name(&info.section_key)
                .to_lowercase()
                .replace([' ', '-'], "_")
                == *wanted
    });
    let route_ok = filters
        .route
        .as_ref()
        .is_none_or(|wanted| label.drug.route.contains(wanted));
    drug_ok && section_ok && route_ok
}
