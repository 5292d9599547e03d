//! drugcite's lab, as a library for the `drugcite-lab` binary and its tests: scoring search and
//! graph answers and yes/no verdicts on question files, comparing two runs' answers, the
//! ranking's training rows, and learning the extractor's term file and the graph's severity cues from annotations.
//! Depends on the engine; nothing in the product depends on it.

pub mod agreement;
pub mod answers;
pub mod brat;
pub mod cue_learning;
pub mod eval;
pub mod eval_cli;
pub mod eval_graph;
pub mod extract_cli;
pub mod extractor_learning;
mod output;
pub mod severity_cli;
pub mod tables;
pub mod tagger;
pub mod training;
pub mod verdicts;
pub mod verdicts_cli;

pub use output::write_stdout;
