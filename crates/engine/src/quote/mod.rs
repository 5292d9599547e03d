//! Quote check: whether a quoted passage is verbatim label text. Against a cited fingerprint's
//! segment, or against candidate segments from BM25 and search (optionally of one drug); every
//! segment is resolved through `Verifier` (re-hashed like /v1/verify). No HTTP, no ranking.

pub mod answer;
pub mod fold;
pub mod near;
mod request;

use serde::Serialize;

pub use answer::{quoted_passages, QuotedPassage};
pub use fold::Normalisation;
pub use near::{DiffOp, DiffPart};
pub use request::{CheckRequest, QuoteInputError, MAX_ANSWER_CHARS, MAX_QUOTES, MAX_QUOTE_CHARS};

use std::collections::BTreeSet;
use std::sync::LazyLock;

use crate::error::EngineError;
use crate::index::LiveIndex;
use crate::search::lexical::lexical_candidates;
use crate::search::Searcher;
use crate::verify::{Verification, Verifier};
use drugcite_core::domain::{Fingerprint, Question, SearchFilters, TopK};
use drugcite_core::label::{dailymed_url, section_name, Drug};
use drugcite_store::{Snapshot, StoredSegment, VersionStatus};
use fold::{fold, needed, Folding};
use near::{char_diff, closest_passage};

/// Candidate segments for a quote without a citation: distinct texts by BM25 over its words
/// (many labels share template sentences, so verbatim text can rank below 10), then search's
/// (pool sizes, bounding one request's work).
const LEXICAL_CANDIDATES: usize = 50;
const SEARCH_CANDIDATES: i64 = 10;
/// Candidates (best-ranked first) scanned for the closest passage when none holds the quote
/// (a pool size: each costs an alignment).
const NEAR_CANDIDATES: usize = 5;
/// Least similarity (see `near::Closest`) for a passage to be shown as a near miss
/// (`quote_near_miss_similarity` of `tables/search/thresholds.tsv`).
pub static NEAR_MISS_SIMILARITY: LazyLock<f64> =
    LazyLock::new(|| crate::tables::search::threshold("quote_near_miss_similarity"));
/// Largest alignment (quote bytes × segment bytes) computed for a near miss, so that one
/// request's work stays bounded (~20 ms each); larger pairs are skipped and the answer says so.
const MAX_ALIGNMENT_CELLS: usize = 16_000_000;

/// How a quote stands against the label text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    /// The quote is a verbatim substring of the segment's official text.
    Exact,
    /// Equal to a passage of the segment up to the listed normalisations only.
    Normalised,
    /// Not in the label; `passage` is the closest label text and `diff` what differs.
    NearMiss,
    /// No label passage is close to the quote.
    NotFound,
    /// The cited fingerprint does not verify, so the quote cannot be checked against it.
    CitationNotVerified,
}

/// The segment a quote was checked against, as /v1/verify shows it.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QuotedSegment {
    /// The segment's exact official text.
    pub text: String,
    /// 128 characters of 0/1; cite it, resolve it with /v1/verify.
    pub fingerprint: String,
    pub drug: Drug,
    pub section: String,
    pub source: QuoteSource,
    pub set_id: String,
    /// Whether the label version holding the text is the current one.
    pub label_status: VersionStatus,
}

#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QuoteSource {
    /// Public DailyMed record of the label.
    pub url: String,
}

impl From<&StoredSegment> for QuotedSegment {
    fn from(segment: &StoredSegment) -> Self {
        Self {
            text: segment.text.clone(),
            fingerprint: segment.fingerprint.to_string(),
            drug: segment.label.drug.clone(),
            section: section_name(&segment.section_key).into_owned(),
            source: QuoteSource {
                url: dailymed_url(&segment.label.set_id),
            },
            set_id: segment.label.set_id.clone(),
            label_status: segment.standing.status,
        }
    }
}

/// Where in the segment's text the matched (or closest) passage lies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Passage {
    /// The label's exact text at these offsets.
    pub text: String,
    /// UTF-8 byte offsets into `segment.text`, end exclusive.
    pub byte_start: usize,
    pub byte_end: usize,
    /// Unicode scalar value (character) offsets into `segment.text`, end exclusive.
    pub char_start: usize,
    pub char_end: usize,
}

impl Passage {
    fn of(text: &str, start: usize, end: usize) -> Self {
        let char_start = text[..start].chars().count();
        Self {
            text: text[start..end].to_owned(),
            byte_start: start,
            byte_end: end,
            char_start,
            char_end: char_start + text[start..end].chars().count(),
        }
    }
}

/// The check of one quote.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QuoteCheck {
    /// The quote as given.
    pub quote: String,
    /// The fingerprint cited for it, if any.
    pub cited_fingerprint: Option<String>,
    #[serde(rename = "match")]
    pub kind: MatchKind,
    /// For `normalised`: every normalisation the match needed (else empty).
    pub normalisations: Vec<Normalisation>,
    /// The segment matched, or holding the closest passage; null for `not_found` and
    /// `citation_not_verified`.
    pub segment: Option<QuotedSegment>,
    /// The matched or closest passage; null when there is no segment.
    pub passage: Option<Passage>,
    /// 1 − edit distance / quote length over normalised text; 1 for exact and normalised.
    pub similarity: Option<f64>,
    /// For `near_miss`: the character diff from the quote to `passage.text`.
    pub diff: Option<Vec<DiffPart>>,
    pub message: String,
}

#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QuoteSummary {
    pub count: usize,
    pub exact: usize,
    pub normalised: usize,
    pub near_miss: usize,
    pub not_found: usize,
    pub citation_not_verified: usize,
    /// Every quote is verbatim label text (`exact`).
    pub all_verbatim: bool,
}

#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QuoteReport {
    /// One check per quote, in the order given.
    pub quotes: Vec<QuoteCheck>,
    pub summary: QuoteSummary,
}

/// What a quote is checked against: the live index (for BM25 candidates), search, and verify
/// (every segment a check shows is re-resolved through it).
pub struct QuoteSources<'a> {
    pub index: &'a LiveIndex,
    pub searcher: &'a Searcher,
    pub verifier: &'a Verifier,
}

/// Checks every quote of `request`: a cited one against its segment (through `Verifier`), the
/// others against candidate segments from BM25 and search.
pub fn check_quotes(
    engine: &QuoteSources,
    request: &CheckRequest,
) -> Result<QuoteReport, EngineError> {
    let quotes = request
        .passages()
        .iter()
        .map(|p| check_one(engine, &p.quote, p.fingerprint, request.filters()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut summary = QuoteSummary {
        count: quotes.len(),
        ..QuoteSummary::default()
    };
    for check in &quotes {
        *match check.kind {
            MatchKind::Exact => &mut summary.exact,
            MatchKind::Normalised => &mut summary.normalised,
            MatchKind::NearMiss => &mut summary.near_miss,
            MatchKind::NotFound => &mut summary.not_found,
            MatchKind::CitationNotVerified => &mut summary.citation_not_verified,
        } += 1;
    }
    summary.all_verbatim = summary.count > 0 && summary.exact == summary.count;
    Ok(QuoteReport { quotes, summary })
}

fn check_one(
    engine: &QuoteSources,
    quote: &str,
    cited: Option<Fingerprint>,
    filters: &SearchFilters,
) -> Result<QuoteCheck, EngineError> {
    let segments = match cited {
        Some(fingerprint) => match engine.verifier.verify(fingerprint)? {
            Verification::Verified(segment) => vec![segment.as_ref().clone()],
            Verification::Mismatch { distance } => {
                return Ok(unverified(quote, fingerprint, &format!(
                    "the cited fingerprint does not verify: the nearest indexed one differs in {distance} of 128 bits"
                )))
            }
            Verification::NotFound => {
                return Ok(unverified(quote, fingerprint, "the cited fingerprint is not in the verify index"))
            }
        },
        None => candidates(engine, quote, filters)?,
    };
    Ok(judge(quote, cited, &segments))
}

/// Candidate segments for an uncited quote, each re-resolved through verify: the best BM25
/// matches of the quote's words (verbatim text shares all of them), then search's best answers
/// to the quote as a question (which also catch a reworded quote), without repeats.
fn candidates(
    engine: &QuoteSources,
    quote: &str,
    filters: &SearchFilters,
) -> Result<Vec<StoredSegment>, EngineError> {
    let Ok(question) = Question::parse(Some(quote.to_owned())) else {
        return Ok(Vec::new());
    };
    let live = engine.index.current();
    let within = filters
        .drug
        .as_deref()
        .map(|wanted| drug_labels(&live.snapshot, wanted));
    let lexical = lexical_candidates(&live, quote, LEXICAL_CANDIDATES, within.as_ref())?;
    let top_k = TopK::parse(Some(SEARCH_CANDIDATES)).expect("SEARCH_CANDIDATES is within 1-100");
    let searched = engine.searcher.search(&question, top_k, filters)?;
    let fingerprints = lexical
        .iter()
        .map(|hit| hit.best)
        .chain(searched.hits.iter().map(|hit| hit.segment.fingerprint));
    let mut segments: Vec<StoredSegment> = Vec::new();
    for fingerprint in fingerprints {
        if segments.iter().any(|s| s.fingerprint == fingerprint) {
            continue;
        }
        if let Verification::Verified(segment) = engine.verifier.verify(fingerprint)? {
            segments.push(segment.as_ref().clone());
        }
    }
    Ok(segments)
}

/// The current labels `SearchFilters::drug` admits: the generic name contains it, or it is
/// one of the label's generic, brand or substance names (search's drug filter rule).
fn drug_labels(snapshot: &Snapshot, wanted: &str) -> BTreeSet<u32> {
    snapshot
        .current_labels()
        .filter(|(_, label)| {
            label.drug.name.contains(wanted) || label.search_names.iter().any(|n| n == wanted)
        })
        .map(|(ordinal, _)| ordinal)
        .collect()
}

/// The best standing of `quote` against `segments` (best-ranked first): an exact match in any,
/// else a normalised one, else the closest passage of the first few.
fn judge(quote: &str, cited: Option<Fingerprint>, segments: &[StoredSegment]) -> QuoteCheck {
    let mut check = QuoteCheck {
        quote: quote.to_owned(),
        cited_fingerprint: cited.map(|fp| fp.to_string()),
        kind: MatchKind::NotFound,
        normalisations: Vec::new(),
        segment: None,
        passage: None,
        similarity: None,
        diff: None,
        message: String::new(),
    };
    if let Some((segment, start)) = segments
        .iter()
        .find_map(|s| s.text.find(quote).map(|start| (s, start)))
    {
        check.kind = MatchKind::Exact;
        check.similarity = Some(1.0);
        check.passage = Some(Passage::of(&segment.text, start, start + quote.len()));
        check.message = located("is verbatim label text", segment);
        check.segment = Some(QuotedSegment::from(segment));
    } else if let Some((segment, (start, end))) = segments
        .iter()
        .find_map(|s| normalised_span(quote, &s.text).map(|span| (s, span)))
    {
        check.kind = MatchKind::Normalised;
        check.normalisations = needed(quote, &segment.text[start..end]);
        check.similarity = Some(1.0);
        check.passage = Some(Passage::of(&segment.text, start, end));
        check.message = located("matches label text only up to normalisation", segment);
        check.segment = Some(QuotedSegment::from(segment));
    } else {
        near_or_not_found(&mut check, quote, segments);
    }
    check
}

fn near_or_not_found(check: &mut QuoteCheck, quote: &str, segments: &[StoredSegment]) {
    let (alignable, too_long): (Vec<&StoredSegment>, Vec<&StoredSegment>) = segments
        .iter()
        .take(NEAR_CANDIDATES)
        .partition(|s| quote.len().saturating_mul(s.text.len()) <= MAX_ALIGNMENT_CELLS);
    let closest = alignable
        .into_iter()
        .filter_map(|s| closest_passage(quote, &s.text).map(|c| (s, c)))
        .fold(
            None,
            |best: Option<(&StoredSegment, near::Closest)>, (s, c)| match best {
                Some((_, b)) if b.similarity >= c.similarity => best,
                _ => Some((s, c)),
            },
        );
    match closest {
        Some((segment, closest)) if closest.similarity >= *NEAR_MISS_SIMILARITY => {
            let passage = Passage::of(&segment.text, closest.start, closest.end);
            check.kind = MatchKind::NearMiss;
            check.similarity = Some(closest.similarity);
            check.diff = Some(char_diff(quote, &passage.text));
            check.passage = Some(passage);
            check.message = located("is not label text; the closest passage differs", segment);
            check.segment = Some(QuotedSegment::from(segment));
        }
        _ => {
            check.message = if check.cited_fingerprint.is_some() {
                "the quote is not in the cited segment, and no passage of it is close".into()
            } else {
                "no passage of the candidate segments (BM25 over the quote's words and search) matches the quote or is close to it; cite a fingerprint to check one segment".into()
            };
            if !too_long.is_empty() {
                check.message.push_str(&format!(
                    " ({} candidate segment(s) too long to search for a near match were skipped)",
                    too_long.len()
                ));
            }
        }
    }
}

/// The span of `text` equal to `quote` once both are folded by every normalisation.
fn normalised_span(quote: &str, text: &str) -> Option<(usize, usize)> {
    let quote = fold(quote, Folding::ALL, true);
    if quote.text.is_empty() {
        return None;
    }
    let folded = fold(text, Folding::ALL, false);
    let at = folded.text.find(&quote.text)?;
    let from = folded.text[..at].chars().count();
    Some(folded.original_span(from, from + quote.text.chars().count()))
}

fn located(what: &str, segment: &StoredSegment) -> String {
    let mut message = format!(
        "the quote {what} in the {} section of the {} label",
        section_name(&segment.section_key),
        segment.label.drug.name
    );
    let standing = match segment.standing.status {
        VersionStatus::Current => "",
        VersionStatus::Superseded => {
            " (a superseded label version; the current one no longer says it)"
        }
        VersionStatus::Withdrawn => " (a label that is no longer published)",
    };
    message.push_str(standing);
    message
}

fn unverified(quote: &str, fingerprint: Fingerprint, message: &str) -> QuoteCheck {
    QuoteCheck {
        quote: quote.to_owned(),
        cited_fingerprint: Some(fingerprint.to_string()),
        kind: MatchKind::CitationNotVerified,
        normalisations: Vec::new(),
        segment: None,
        passage: None,
        similarity: None,
        diff: None,
        message: message.to_owned(),
    }
}
