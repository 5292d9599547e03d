//! The condition lexicon: every surface form of every known condition, keyed by its normalised
//! words, from the open vocabularies plus the terms drugcite curates in
//! `graph/adverse-reaction-terms.tsv` (with how often each was annotated as an adverse reaction
//! where it occurred; the file is written by `format_curated`, through `drugcite-lab extract`). Lookups only; which matches count is the matchers' business.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use super::vocabulary::VocabularyTerm;
use crate::tables::conditions as tables;
use crate::tables::graph::ADVERSE_REACTION_TERM_COLUMNS as CURATED_COLUMNS;
use drugcite_core::text::key_of;

/// The source of every row: the learner that writes the file (`format_curated`); the origin
/// column says where the learner found the term.
pub const CURATED_SOURCE: &str =
    "learned: drugcite-lab extract --learn (counts over the TAC 2017 ADR learning half)";

/// Terms longer than this many words are not matched: a capacity bound (the longest window the
/// matcher tries at each word), not a judgement on any term.
pub const MAX_TERM_WORDS: usize = 8;
/// Vocabulary names too general to stand for a condition on their own
/// (`tables/conditions/generic-condition-words.tsv`).
static GENERIC_WORDS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    let table = tables::GENERIC_CONDITION_WORDS.rows();
    table.values("word").map(str::to_owned).collect()
});
/// The lexicon's named numbers (`tables/conditions/thresholds.tsv`): a term found where it
/// occurred in the learning half is kept as an adverse-reaction term when at least
/// `keep_share_adverse` of its occurrences in Adverse Reactions sections were annotated as one
/// (lower there, where most condition words are reactions, than `keep_share_other` elsewhere);
/// a term only the labels' lists name is not taken for a condition once the learning half
/// showed it `min_seen_to_disprove` times without annotating it once; a vocabulary surface of at
/// most `acronym_max_bytes` bytes, none lowercase, is an abbreviation.
struct Thresholds {
    keep_share_adverse: f64,
    keep_share_other: f64,
    min_seen_to_disprove: u32,
    acronym_max_bytes: usize,
}

static THRESHOLDS: LazyLock<Thresholds> = LazyLock::new(|| {
    let table = tables::THRESHOLDS.rows();
    Thresholds {
        keep_share_adverse: table.number("keep_share_adverse"),
        keep_share_other: table.number("keep_share_other"),
        min_seen_to_disprove: table.number("min_seen_to_disprove") as u32,
        acronym_max_bytes: table.number("acronym_max_bytes") as usize,
    }
});

/// Which kind of section a text comes from, for the adverse-reaction statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SectionGroup {
    AdverseReactions,
    Other,
}

impl SectionGroup {
    /// "adverse reactions" (any case, any punctuation) or an openFDA adverse_reactions key.
    pub fn of_section(name: &str) -> Self {
        let letters: String = name
            .chars()
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        if letters.starts_with("adversereaction") {
            Self::AdverseReactions
        } else {
            Self::Other
        }
    }
}

/// Occurrences of a term in the learning half and how many were annotated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TermStats {
    pub adverse_seen: u32,
    pub adverse_annotated: u32,
    pub other_seen: u32,
    pub other_annotated: u32,
}

impl TermStats {
    fn keeps(&self, group: SectionGroup) -> bool {
        let (seen, annotated, share) = match group {
            SectionGroup::AdverseReactions => (
                self.adverse_seen,
                self.adverse_annotated,
                THRESHOLDS.keep_share_adverse,
            ),
            SectionGroup::Other => (
                self.other_seen,
                self.other_annotated,
                THRESHOLDS.keep_share_other,
            ),
        };
        seen == 0 || f64::from(annotated) >= share * f64::from(seen)
    }
}

/// Where a term comes from; a term may have several origins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Origins {
    pub vocabulary: bool,
    /// Annotated as an adverse reaction in the learning half of the annotations.
    pub annotated: bool,
    /// Listed as an adverse reaction in the labels' own "most common adverse reactions" lists.
    pub listed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub condition_id: String,
    pub condition_name: String,
    pub origins: Origins,
    pub stats: TermStats,
    /// An all-capitals abbreviation of the vocabulary ("MS"): matches only in capitals.
    pub acronym: bool,
}

impl Entry {
    /// Whether a match of this entry in a `group` section counts as an adverse reaction.
    pub fn is_adverse_term(&self, group: SectionGroup) -> bool {
        self.stats.keeps(group) && !self.is_generic()
    }

    fn is_generic(&self) -> bool {
        !self.origins.annotated && GENERIC_WORDS.contains(&self.condition_name)
    }

    /// Whether a match of this entry names a condition at all (any section, any relation):
    /// not a generic word, and not a list item the learning half saw often but never
    /// annotated ("greater" of "greater than 2%").
    pub fn is_condition(&self) -> bool {
        let s = self.stats;
        let seen = s.adverse_seen + s.other_seen;
        let annotated = s.adverse_annotated + s.other_annotated;
        let only_listed = !self.origins.vocabulary && !self.origins.annotated;
        let disproved = only_listed && seen >= THRESHOLDS.min_seen_to_disprove && annotated == 0;
        !self.is_generic() && !disproved
    }
}

/// One row of the curated file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CuratedTerm {
    pub term: String,
    pub origins: Origins,
    pub stats: TermStats,
}

/// The rows of the compiled-in file (checked as a table: header, sources).
pub fn curated_terms() -> Vec<CuratedTerm> {
    let table = crate::tables::graph::ADVERSE_REACTION_TERMS.rows();
    table
        .rows()
        .iter()
        .filter_map(|row| {
            let fields: Vec<&str> = (0..CURATED_COLUMNS.len()).map(|at| row.cell(at)).collect();
            curated_term(&fields)
        })
        .collect()
}

/// Rows `term, origin (vocabulary|annotated|listed joined by '+'), adverse_seen,
/// adverse_annotated, other_seen, other_annotated[, source]`; `#` lines and the header skipped.
pub fn parse_curated(text: &str) -> Vec<CuratedTerm> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|line| curated_term(&line.split('\t').collect::<Vec<&str>>()))
        .collect()
}

/// One row's fields as a term; `None` for a row of another shape or a header.
fn curated_term(fields: &[&str]) -> Option<CuratedTerm> {
    let ([term, origin, a_seen, a_ann, o_seen, o_ann]
    | [term, origin, a_seen, a_ann, o_seen, o_ann, _]) = fields
    else {
        return None;
    };
    let number = |f: &str| f.trim().parse::<u32>().ok();
    let stats = TermStats {
        adverse_seen: number(a_seen)?,
        adverse_annotated: number(a_ann)?,
        other_seen: number(o_seen)?,
        other_annotated: number(o_ann)?,
    };
    let origins = Origins {
        vocabulary: origin.split('+').any(|o| o == "vocabulary"),
        annotated: origin.split('+').any(|o| o == "annotated"),
        listed: origin.split('+').any(|o| o == "listed"),
    };
    Some(CuratedTerm {
        term: term.trim().to_lowercase(),
        origins,
        stats,
    })
}

pub fn format_curated(term: &CuratedTerm) -> String {
    let o = term.origins;
    let origin: Vec<&str> = [
        (o.vocabulary, "vocabulary"),
        (o.annotated, "annotated"),
        (o.listed, "listed"),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, name)| *name)
    .collect();
    let s = term.stats;
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{CURATED_SOURCE}",
        term.term,
        origin.join("+"),
        s.adverse_seen,
        s.adverse_annotated,
        s.other_seen,
        s.other_annotated
    )
}

/// drugcite's own id for a condition no vocabulary names: the normalised words, hyphenated.
pub fn project_id(key: &str) -> String {
    format!("drugcite:{}", key.replace(' ', "-"))
}

#[derive(Clone, Debug, Default)]
pub struct Lexicon {
    entries: HashMap<String, Entry>,
    annotated_keys: Vec<String>,
}

impl Lexicon {
    /// The vocabulary terms (first surface of a key wins) and the curated terms with their
    /// statistics.
    pub fn build(vocabulary: &[VocabularyTerm], curated: &[CuratedTerm]) -> Self {
        let mut lexicon = Self::default();
        for term in vocabulary {
            for surface in std::iter::once(&term.name).chain(&term.synonyms) {
                lexicon.add_vocabulary_surface(term, surface);
            }
        }
        for term in curated {
            lexicon.add_curated(term);
        }
        lexicon
    }

    fn add_vocabulary_surface(&mut self, term: &VocabularyTerm, surface: &str) {
        let key = key_of(surface);
        let word_count = key.split(' ').count();
        if key.is_empty() || word_count > MAX_TERM_WORDS || self.entries.contains_key(&key) {
            return;
        }
        let acronym = surface.len() <= THRESHOLDS.acronym_max_bytes
            && surface.chars().all(|c| !c.is_lowercase());
        self.entries.insert(
            key,
            Entry {
                condition_id: term.id.clone(),
                condition_name: term.name.to_lowercase(),
                origins: Origins {
                    vocabulary: true,
                    ..Origins::default()
                },
                stats: TermStats::default(),
                acronym,
            },
        );
    }

    fn add_curated(&mut self, term: &CuratedTerm) {
        let key = key_of(&term.term);
        if key.is_empty() || key.split(' ').count() > MAX_TERM_WORDS {
            return;
        }
        if term.origins.annotated {
            self.annotated_keys.push(key.clone());
        }
        match self.entries.get_mut(&key) {
            Some(entry) => {
                entry.stats = term.stats;
                entry.origins.annotated |= term.origins.annotated;
                entry.origins.listed |= term.origins.listed;
                entry.acronym &= !term.origins.annotated;
            }
            None if term.origins.annotated || term.origins.listed => {
                let entry = Entry {
                    condition_id: project_id(&key),
                    condition_name: term.term.clone(),
                    origins: term.origins,
                    stats: term.stats,
                    acronym: false,
                };
                self.entries.insert(key, entry);
            }
            None => {}
        }
    }

    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.get(key)
    }

    /// Keys of the terms annotated as adverse reactions in the learning half.
    pub fn annotated_keys(&self) -> &[String] {
        &self.annotated_keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocabulary() -> Vec<VocabularyTerm> {
        vec![
            VocabularyTerm {
                id: "DOID:9352".into(),
                name: "type 2 diabetes mellitus".into(),
                synonyms: vec!["type 2 diabetes".into()],
            },
            VocabularyTerm {
                id: "DOID:2377".into(),
                name: "multiple sclerosis".into(),
                synonyms: vec!["MS".into()],
            },
        ]
    }

    #[test]
    fn synonyms_share_their_term_id_and_abbreviations_are_marked() {
        let lexicon = Lexicon::build(&vocabulary(), &[]);
        assert_eq!(
            lexicon.get("type 2 diabete").unwrap().condition_id,
            "DOID:9352"
        );
        assert!(lexicon.get("m").is_none());
        assert!(lexicon.get("ms").unwrap().acronym);
    }

    #[test]
    fn curated_rows_add_project_terms_and_statistics() {
        let curated = parse_curated(
            "# comment\nterm\torigin\tadverse_seen\tadverse_annotated\tother_seen\tother_annotated\n\
             alt increased\tannotated\t4\t4\t1\t0\nmultiple sclerosis\tvocabulary\t5\t0\t0\t0\n",
        );
        let lexicon = Lexicon::build(&vocabulary(), &curated);
        let alt = lexicon.get("alt increased").unwrap();
        assert_eq!(alt.condition_id, "drugcite:alt-increased");
        assert!(alt.is_adverse_term(SectionGroup::AdverseReactions));
        assert!(!alt.is_adverse_term(SectionGroup::Other));
        let ms = lexicon.get("multiple sclerosis").unwrap();
        assert!(!ms.is_adverse_term(SectionGroup::AdverseReactions));
        assert!(ms.is_condition());
        assert_eq!(lexicon.annotated_keys(), ["alt increased"]);
        let listed = parse_curated("greater\tlisted\t32\t0\t17\t0\n");
        let lexicon = Lexicon::build(&[], &listed);
        assert!(!lexicon.get("greater").unwrap().is_condition());
    }

    #[test]
    fn every_row_of_the_compiled_file_is_a_term() {
        let table = crate::tables::graph::ADVERSE_REACTION_TERMS.rows();
        assert_eq!(curated_terms().len(), table.rows().len());
    }

    #[test]
    fn curated_rows_round_trip() {
        let rows = parse_curated("nausea\tvocabulary+annotated+listed\t10\t9\t2\t1\n");
        assert_eq!(parse_curated(&format_curated(&rows[0])), rows);
    }

    #[test]
    fn section_groups_read_names_and_keys() {
        assert_eq!(
            SectionGroup::of_section("ADVERSE REACTIONS"),
            SectionGroup::AdverseReactions
        );
        assert_eq!(
            SectionGroup::of_section("adverse_reactions_table"),
            SectionGroup::AdverseReactions
        );
        assert_eq!(
            SectionGroup::of_section("warnings and precautions"),
            SectionGroup::Other
        );
    }
}
