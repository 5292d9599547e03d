//! Search: candidates from BM25 (lexical/) and from passage vectors, the subject's texts and the
//! texts naming the effect a question asks about, gathered per question (candidates.rs); a
//! medicine named by its condition (indicated.rs); the fitted fusion (features.rs, ranking.rs,
//! provenance.rs, section_space.rs, section_view.rs); one answer per distinct text (collapse.rs), none that is only
//! headings (headings.rs); the `Searcher` that runs them (searcher.rs) and the lab's view of its
//! candidates (explain.rs). Question reading is `understand`'s. No HTTP, no verify, no graph.

mod candidates;
pub mod collapse;
mod explain;
pub mod features;
pub mod headings;
pub mod indicated;
pub mod lexical;
mod provenance;
pub mod ranking;
mod searcher;
pub mod section_space;
pub mod section_view;

pub use explain::{CandidateCopy, CandidateFeatures, CandidateText};
pub use searcher::{SearchAnswer, SearchHit, Searcher};
