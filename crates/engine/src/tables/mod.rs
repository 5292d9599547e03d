//! Every knowledge table the engine reads (word lists, cue tables, mappings, thresholds), as
//! data files with a source per row: one registry per reading area, each table parsed once
//! where it is used. `check_all` is what `drugcite serve` and `ingest` run first: a bad row stops
//! them with its file and line. Knows nothing of what a table means.

pub mod conditions;
pub mod graph;
pub mod search;
pub mod understand;

use drugcite_core::table::{TableError, TableSource};

/// Every table of the core and the engine.
pub fn all() -> impl Iterator<Item = &'static TableSource> {
    [
        drugcite_core::tables::ALL,
        conditions::ALL,
        graph::ALL,
        search::ALL,
        understand::ALL,
    ]
    .into_iter()
    .flatten()
    .copied()
}

/// Parses every table; the first bad row is the error. Returns how many tables there are.
pub fn check_all() -> Result<usize, TableError> {
    let mut count = 0;
    for table in all() {
        table.parse()?;
        count += 1;
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_table_parses_and_no_file_is_registered_twice() {
        super::check_all().unwrap();
        let mut files: Vec<&str> = super::all().map(|t| t.file).collect();
        files.sort_unstable();
        let count = files.len();
        files.dedup();
        assert_eq!(files.len(), count, "a table registered twice");
    }
}
