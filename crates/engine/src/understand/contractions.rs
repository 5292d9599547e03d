//! Negative contractions written out ("shouldn't" is "should not"), so that the cue phrases
//! reading a question ("should not take") meet them as labels write them: "<verb>n't" is
//! "<verb> not" but for the stems of `contractions.tsv` ("can't" is "cannot"). Pure text work.

use std::sync::LazyLock;

use regex::Regex;

use super::word_tables::parsed;
use crate::tables::understand as tables;

/// `lower` (lowercase) with its negative contractions written out (straight or curly
/// apostrophe).
pub(super) fn expand_contractions(lower: &str) -> String {
    // The form of a negative contraction: a word ending in "n't"; what it says is the table's.
    static CONTRACTION: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\b([a-z]+)n['’]t\b").expect("contraction pattern"));
    static WRITTEN_OUT: LazyLock<Vec<(&'static str, &'static str)>> = LazyLock::new(|| {
        let table = parsed(&tables::CONTRACTIONS);
        let (stem, written_out) = (table.column("stem"), table.column("written_out"));
        let rows = table.rows().iter();
        rows.map(|row| (row.cell(stem), row.cell(written_out)))
            .collect()
    });
    CONTRACTION
        .replace_all(lower, |caps: &regex::Captures| {
            let stem = &caps[1];
            match WRITTEN_OUT.iter().find(|(s, _)| *s == stem) {
                Some((_, written_out)) => (*written_out).to_owned(),
                None => format!("{stem} not"),
            }
        })
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_contractions_are_written_out() {
        assert_eq!(
            expand_contractions("who shouldn't take it, can't i? it won’t work, don't"),
            "who should not take it, cannot i? it will not work, do not"
        );
        assert_eq!(expand_contractions("grandma's pills"), "grandma's pills");
    }
}
