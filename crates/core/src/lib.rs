//! drugcite's core: the domain values a request is parsed into, the label model (openFDA
//! records and SPL documents → sections → segments → fingerprints) and the text helpers every
//! crate shares. Pure: no files, no network, no async.

pub mod domain;
pub mod label;
pub mod table;
pub mod tables;
pub mod text;
