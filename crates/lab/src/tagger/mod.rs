//! The learned adverse-reaction tagger's research step (issue 55): brat files read into words
//! with per-type BIO tags, a cross-validation split by label, TAC-style exact-span scoring,
//! the designs' features and trained head, and the `tagger-cv` run. Declarations only.

pub mod bert;
pub mod clock;
pub mod cost;
pub mod cv;
pub mod features;
pub mod finetune;
pub mod folds;
pub mod head;
pub mod mentions;
pub mod reader;
pub mod report;
pub mod rules;
pub mod score;
pub mod viterbi;
