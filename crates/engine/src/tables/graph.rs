//! The knowledge tables `graph` reads, compiled in from `crates/engine/tables/` (and `graph/`
//! for the graph vocabularies): one `TableSource` per file, parsed where it is used.

use drugcite_core::table::TableSource;

/// Every table of this area, for `check_all`.
pub const ALL: &[&TableSource] = &[];
