//! The one format of drugcite's knowledge tables (word lists, cue tables, mappings, thresholds)
//! and its parser. A table is tab-separated text: `#` lines are comments, the first other line
//! names the columns, the last of which is `source`, and every row says where it comes from.
//! Parsing is the only way to a `Table`; it names the file and line of the first bad row.

use std::fmt;

/// The kinds of source a row may name, written `kind: detail` in the `source` column.
pub const SOURCE_KINDS: &[&str] = &[
    "label",      // a field or wording of the labels themselves (openFDA, SPL)
    "vocabulary", // an open vocabulary or code list, with its version
    "standard",   // a regulation, guidance or standard (21 CFR 201.57, ICH, USAN)
    "mined",      // the output of a mining script of the lab crate over named data
    "fitted",     // a value fitted by a lab script on the fit part of the dev questions
    "learned",    // learned by a lab command from annotations
    "curated",    // chosen by hand, for a reason stated in general terms
];

/// The columns of a threshold table: a named number and where it comes from.
pub const THRESHOLD_COLUMNS: &[&str] = &["name", "value", "source"];

/// A `TableSource` compiled in from `$file`, its path from the repository root (every crate
/// lives two folders below it): one literal names both the file the errors cite and the text
/// compiled in, so the two cannot drift apart.
#[macro_export]
macro_rules! table_source {
    ($file:literal, $columns:expr) => {
        $crate::table::TableSource {
            file: $file,
            text: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../", $file)),
            columns: $columns,
        }
    };
}

/// A table file's text, where it lives and the columns it must have (the last is `source`).
#[derive(Clone, Copy, Debug)]
pub struct TableSource {
    /// The file's path from the repository root, for error messages.
    pub file: &'static str,
    pub text: &'static str,
    pub columns: &'static [&'static str],
}

impl TableSource {
    pub fn parse(&self) -> Result<Table, TableError> {
        parse(self.file, self.text, self.columns)
    }

    /// The table, for a compiled-in file that the tables test has parsed: a failure here is
    /// a build that skipped its tests.
    pub fn rows(&self) -> Table {
        self.parse()
            .unwrap_or_else(|e| panic!("compiled-in table is invalid: {e}"))
    }
}

/// A bad table: the file, the 1-based line and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    pub file: String,
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.reason)
    }
}

impl std::error::Error for TableError {}

/// A parsed table: its rows in file order.
#[derive(Clone, Debug)]
pub struct Table {
    columns: Vec<String>,
    rows: Vec<Row>,
}

/// One row: its line in the file and its cells, one per column.
#[derive(Clone, Debug)]
pub struct Row {
    line: usize,
    cells: Vec<String>,
}

impl Table {
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The index of `column`; a name the table does not have is a programming error.
    pub fn column(&self, column: &str) -> usize {
        self.columns
            .iter()
            .position(|c| c == column)
            .unwrap_or_else(|| panic!("no column {column} in {:?}", self.columns))
    }

    /// The number a threshold table (columns `name`, `value`, `source`) gives `name`; a name
    /// the table lacks is a programming error, caught by the tables test of its reader.
    pub fn number(&self, name: &str) -> f64 {
        let (key, value) = (self.column("name"), self.column("value"));
        let row = self.rows.iter().find(|row| row.cells[key] == name);
        let row = row.unwrap_or_else(|| panic!("no threshold {name}"));
        row.cells[value]
            .parse()
            .expect("threshold values parse (checked at parse)")
    }

    /// Every row's value of `column`, in file order.
    pub fn values<'a>(&'a self, column: &str) -> impl Iterator<Item = &'a str> + 'a {
        let at = self.column(column);
        self.rows.iter().map(move |row| row.cells[at].as_str())
    }
}

impl Row {
    pub fn line(&self) -> usize {
        self.line
    }

    /// The cell at column index `at` (see `Table::column`).
    pub fn cell(&self, at: usize) -> &str {
        &self.cells[at]
    }

    /// The row's `source`.
    pub fn source(&self) -> &str {
        self.cells.last().map_or("", String::as_str)
    }
}

/// Parses `text` (the contents of `file`) as a table with exactly `columns`, the last of which
/// must be `source`. Every row needs one cell per column, no cell may start or end with a space,
/// the source must be `kind: detail` with a kind of `SOURCE_KINDS`, and no row may repeat another
/// (sources aside).
pub fn parse(file: &str, text: &str, columns: &[&str]) -> Result<Table, TableError> {
    let error = |line: usize, reason: String| TableError {
        file: file.to_owned(),
        line,
        reason,
    };
    if columns.last() != Some(&"source") {
        return Err(error(
            0,
            "the table's last column must be `source`".to_owned(),
        ));
    }
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(at, line)| (at + 1, line))
        .filter(|(_, line)| !line.starts_with('#') && !line.trim().is_empty());
    let (header_line, header) = lines
        .next()
        .ok_or_else(|| error(1, "no header line".to_owned()))?;
    let found: Vec<&str> = header.split('\t').collect();
    if found != columns {
        let want = columns.join("\\t");
        return Err(error(
            header_line,
            format!("header is {header:?}, expected {want:?}"),
        ));
    }
    let mut rows: Vec<Row> = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for (line, text) in lines {
        let cells: Vec<String> = text.split('\t').map(str::to_owned).collect();
        if cells.len() != columns.len() {
            let reason = format!("{} cells, expected {}", cells.len(), columns.len());
            return Err(error(line, reason));
        }
        if let Some(cell) = cells.iter().find(|c| c.trim() != c.as_str()) {
            return Err(error(line, format!("cell {cell:?} has spaces around it")));
        }
        check_source(cells.last().map_or("", String::as_str)).map_err(|r| error(line, r))?;
        if columns == THRESHOLD_COLUMNS && cells[1].parse::<f64>().is_err() {
            return Err(error(line, format!("value {:?} is not a number", cells[1])));
        }
        let key = cells[..cells.len() - 1].join("\t");
        if let Some(first) = seen.insert(key, line) {
            return Err(error(line, format!("repeats the row of line {first}")));
        }
        rows.push(Row { line, cells });
    }
    Ok(Table {
        columns: columns.iter().map(|c| (*c).to_owned()).collect(),
        rows,
    })
}

fn check_source(source: &str) -> Result<(), String> {
    let Some((kind, detail)) = source.split_once(": ") else {
        return Err(format!("source {source:?} is not `kind: detail`"));
    };
    if !SOURCE_KINDS.contains(&kind) {
        return Err(format!(
            "source kind {kind:?} is none of {}",
            SOURCE_KINDS.join(", ")
        ));
    }
    if detail.trim().is_empty() {
        return Err("source has no detail".to_owned());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLUMNS: &[&str] = &["word", "kind", "source"];

    fn parsed(text: &str) -> Result<Table, TableError> {
        parse("t.tsv", text, COLUMNS)
    }

    #[test]
    fn rows_are_read_under_their_header_with_comments_skipped() {
        let table = parsed("# a comment\nword\tkind\tsource\nmy\tpossessive\tcurated: English\n\nyour\tpossessive\tcurated: English\n").unwrap();
        assert_eq!(table.values("word").collect::<Vec<_>>(), ["my", "your"]);
        assert_eq!(table.rows()[1].line(), 5);
        assert_eq!(table.rows()[0].source(), "curated: English");
    }

    #[test]
    fn a_threshold_is_a_named_number() {
        let text = "name\tvalue\tsource\nfloor\t0.45\tcurated: x\n";
        let table = parse("t.tsv", text, THRESHOLD_COLUMNS).unwrap();
        assert_eq!(table.number("floor"), 0.45);
        let bad = parse(
            "t.tsv",
            "name\tvalue\tsource\nfloor\thigh\tcurated: x\n",
            THRESHOLD_COLUMNS,
        );
        assert_eq!(bad.unwrap_err().line, 2);
    }

    #[test]
    fn a_bad_row_is_named_by_file_and_line() {
        let header = "word\tkind\tsource\n";
        let cases = [
            ("word\tsource\n", 1, "header"),
            (&format!("{header}my\tpossessive\n") as &str, 2, "2 cells"),
            (
                &format!("{header}my\tpossessive\t\n"),
                2,
                "not `kind: detail`",
            ),
            (
                &format!("{header}my\tpossessive\tguess: it\n"),
                2,
                "none of",
            ),
            (
                &format!("{header}my \tpossessive\tcurated: x\n"),
                2,
                "spaces",
            ),
            (
                &format!("{header}my\tpossessive\tcurated: x\nmy\tpossessive\tcurated: y\n"),
                3,
                "repeats the row of line 2",
            ),
        ];
        for (text, line, reason) in cases {
            let e = parsed(text).unwrap_err();
            assert_eq!((e.file.as_str(), e.line), ("t.tsv", line), "{text:?}: {e}");
            assert!(e.to_string().contains(reason), "{e}");
        }
    }
}
