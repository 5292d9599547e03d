//! What one label segment states about its drug: the relation its section implies, the
//! conditions, drugs and classes it names, read sentence by sentence with negation ("no cases
//! of X were reported"), hedges ("not recommended" is a warning, not a contraindication) and
//! the severity rules of `severity.rs`. Also: populations and settings as targets, enzyme
//! classes and the members a label lists for them, drugs without a label of their own, and a
//! contraindication's target is what it is about, not the reason given for it ("taking
//! pimozide because of the risk of QT prolongation": pimozide, not QT prolongation). Pure text
//! work; the graph is assembled elsewhere.

use std::ops::Range;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, LazyLock};

use regex::Regex;

use super::cues::Cues;
use super::enzymes::enzyme_classes;
use super::model::{RelationType, Severity};
use super::names::{curated_names, has_usan_stem};
use super::severity::{is_negated, severity, window};
use crate::conditions::{Matcher, Purpose, SectionGroup};
use crate::label::LabelMeta;
use crate::search::understanding::populations::populations;
use crate::search::understanding::{name_parts, DrugVocabulary};
use crate::text::{contains_any_word, occurrences, WordEdge};

/// In a contraindication, what follows one of these is the reason given, not a target.
static REASON: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
    Regex::new(r"\b(?:because|due to|owing to|since|as (?:this|it|these|they) (?:may|can|could)|(?:may|can|could|might) (?:cause|result|lead|increase|prolong)|resulting in|leading to|increases? the risk|increased risk|(?:the )?risk of)\b")
        .expect("reason pattern")
});

/// A contraindications sentence with one of these states a caution, i.e. a warning.
const HEDGES: &[&str] = &[
    "not recommended",
    "not advised",
    "use with caution",
    "used with caution",
    "caution",
    "consider",
    "weigh",
];
/// An interactions sentence with one of these reports the absence of an interaction.
const NO_INTERACTION: &[&str] = &[
    "no clinically",
    "no significant",
    "no effect",
    "no dose adjustment",
    "not affect",
    "did not",
    "does not",
    "no interaction",
    "no pharmacokinetic",
    "not expected",
    "unlikely",
];

/// A warnings sentence with one of these speaks of using the drug with others: the drugs it
/// names ("concomitant use of other serotonergic drugs (including … tramadol …)") are
/// interactions, stated at the warning's level.
const CONCOMITANT: &[&str] = &[
    "concomitant",
    "concomitantly",
    "coadministration",
    "co-administration",
    "coadministered",
    "co-administered",
    "combined with",
    "in combination with",
    "together with",
];

/// Words the vocabularies list as conditions that only qualify another ("fatal"); they set
/// severity, never a relationship's target.
const OUTCOME_WORDS: &[&str] = &["fatal", "death", "deaths", "died", "mortality", "fatality"];
/// What a segment's relation points at.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    Condition {
        id: String,
        name: String,
    },
    /// Labels (ordinals) of the drug named.
    Drug(Vec<u32>),
    /// An ingredient named that only combination products of the index contain (lowercase).
    Ingredient(String),
    /// Lowercase class name.
    Class(String),
    /// A drug named in the text that has no label in the index (lowercase).
    Unlabelled(String),
    /// A population or setting (`populations.rs` canonical name).
    Population(String),
    /// `member` is listed in the text as one of the enzyme class `class` (kind `member_of`).
    Member {
        member: Box<Target>,
        class: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    pub target: Target,
    pub kind: RelationType,
    pub severity: Option<Severity>,
}

/// The relation a section states, if any.
pub fn relation_of_section(section_key: &str) -> Option<RelationType> {
    match section_key {
        "contraindications" | "do_not_use" => Some(RelationType::Contraindication),
        "boxed_warning"
        | "warnings_and_cautions"
        | "warnings"
        | "precautions"
        | "general_precautions" => Some(RelationType::Warning),
        "adverse_reactions" => Some(RelationType::AdverseReaction),
        "indications_and_usage" => Some(RelationType::Indication),
        "drug_interactions" => Some(RelationType::Interaction),
        _ => None,
    }
}

/// Everything `text` (a segment of section `section_key`) states, in text order.
pub fn statements(
    text: &str,
    section_key: &str,
    matcher: &Matcher,
    drugs: &Drugs,
) -> Vec<Statement> {
    let Some(section_kind) = relation_of_section(section_key) else {
        return Vec::new();
    };
    let boxed = section_key == "boxed_warning";
    let mut out = Vec::new();
    for sentence in sentences(text) {
        let sentence_text = &text[sentence];
        let lower = sentence_text.to_lowercase();
        let kind = match section_kind {
            RelationType::Contraindication if contains_any_word(&lower, HEDGES) => {
                RelationType::Warning
            }
            other => other,
        };
        if lower.contains("not contraindicated") {
            continue;
        }
        let reason_at = (kind == RelationType::Contraindication)
            .then(|| REASON.find(&lower).map(|m| m.start()))
            .flatten()
            .unwrap_or(lower.len());
        let severity_of = |cues: &str| severity(kind, boxed, cues);
        if kind != RelationType::Interaction {
            for (target, around, at) in conditions(sentence_text, section_kind, matcher) {
                if at < reason_at {
                    let cues = sentence_text[around].to_lowercase();
                    out.push(Statement::new(target, kind, severity_of(&cues)));
                }
            }
        }
        let severity = severity_of(&lower);
        if matches!(kind, RelationType::Contraindication | RelationType::Warning) {
            for population in populations(&lower)
                .into_iter()
                .filter(|p| p.span.start < reason_at)
            {
                out.push(Statement::new(
                    Target::Population(population.name),
                    kind,
                    severity,
                ));
            }
        }
        let concomitant =
            section_kind == RelationType::Warning && contains_any_word(&lower, CONCOMITANT);
        let names_drugs = concomitant
            || matches!(
                section_kind,
                RelationType::Interaction | RelationType::Contraindication
            );
        if names_drugs && !contains_any_word(&lower, NO_INTERACTION) {
            let drug_kind = if concomitant {
                RelationType::Interaction
            } else {
                kind
            };
            for target in drug_targets(&lower, drugs) {
                out.push(Statement::new(target, drug_kind, severity));
            }
        }
        out.extend(enzyme_members(&lower, drugs));
    }
    out
}

impl Statement {
    fn new(target: Target, kind: RelationType, severity: Option<Severity>) -> Self {
        Self {
            target,
            kind,
            severity,
        }
    }
}

/// The members a sentence lists for the enzyme classes it names, as `member_of` statements.
fn enzyme_members(lower: &str, drugs: &Drugs) -> Vec<Statement> {
    let mut out = Vec::new();
    for class in enzyme_classes(lower) {
        for member in &class.members {
            let Some(target) = drugs.by_name(member) else {
                continue;
            };
            for name in &class.names {
                let target = Target::Member {
                    member: Box::new(target.clone()),
                    class: name.clone(),
                };
                out.push(Statement::new(target, RelationType::MemberOf, None));
            }
        }
    }
    out
}

/// The conditions a sentence states for the section's relation, negated ones and outcome
/// words left out, each with the part of the sentence its severity is read from.
fn conditions(
    sentence: &str,
    section_kind: RelationType,
    matcher: &Matcher,
) -> Vec<(Target, Range<usize>, usize)> {
    let purpose = match section_kind {
        RelationType::AdverseReaction => Purpose::AdverseReactions(SectionGroup::AdverseReactions),
        RelationType::Warning => Purpose::Outcomes,
        _ => Purpose::Conditions,
    };
    matcher
        .find(sentence, purpose)
        .into_iter()
        .filter(|m| !is_negated(sentence, m.span.clone(), Cues::learned()))
        .filter(|m| !OUTCOME_WORDS.contains(&m.key.as_str()))
        .map(|m| {
            let around = window(sentence, m.span.clone(), Cues::learned().severity_reach);
            let target = Target::Condition {
                id: m.condition_id,
                name: m.condition_name,
            };
            (target, around, m.span.start)
        })
        .collect()
}

/// The drugs and classes a label text can name: the index's vocabulary and its labels, and
/// the curated brands (brand → first word of the generic name).
pub struct Drugs<'a> {
    vocabulary: &'a DrugVocabulary,
    labels: &'a [Arc<LabelMeta>],
    brands: &'static HashMap<String, String>,
}

/// Most ingredients a product may list for its name to stand for one of them (homeopathic
/// mixtures list dozens, "serotonin" among them).
const MAX_INGREDIENTS: usize = 3;

/// The drugs, classes, enzyme classes and unlabelled drugs a sentence names.
fn drug_targets(sentence: &str, drugs: &Drugs) -> Vec<Target> {
    let understood = drugs.vocabulary().understand(sentence);
    let mut targets: Vec<Target> = understood
        .drugs
        .into_iter()
        .filter(|mention| mention.class.is_some() || is_written(sentence, &mention.word))
        .filter_map(|mention| match mention.class {
            Some(class) => Some(Target::Class(class)),
            None => drugs.named(&mention.word, &mention.labels),
        })
        .collect();
    targets.extend(
        understood
            .unlabelled_drugs
            .into_iter()
            .map(Target::Unlabelled),
    );
    for class in enzyme_classes(sentence) {
        targets.extend(class.names.into_iter().map(Target::Class));
    }
    targets
}

impl<'a> Drugs<'a> {
    pub fn new(vocabulary: &'a DrugVocabulary, labels: &'a [Arc<LabelMeta>]) -> Self {
        Self {
            vocabulary,
            labels,
            brands: crate::curated::brand_generics(),
        }
    }

    pub fn vocabulary(&self) -> &DrugVocabulary {
        self.vocabulary
    }

    pub fn labels(&self) -> &[Arc<LabelMeta>] {
        self.labels
    }

    /// What a one-word drug name of a text refers to: a label's drug, else an unlabelled drug.
    pub fn by_name(&self, name: &str) -> Option<Target> {
        let understood = self.vocabulary.understand(name);
        if let Some(mention) = understood.drugs.into_iter().find(|m| m.class.is_none()) {
            return self.named(&mention.word, &mention.labels);
        }
        understood
            .unlabelled_drugs
            .into_iter()
            .next()
            .map(Target::Unlabelled)
    }

    /// What a drug word of a text refers to: the single-ingredient labels it names (by
    /// generic or brand name); else the ingredient itself, when a product of a few ingredients
    /// contains it; else nothing.
    pub fn named(&self, word: &str, labels: &BTreeSet<u32>) -> Option<Target> {
        let meta = |l: &u32| &self.labels[*l as usize];
        let single: Vec<u32> = labels
            .iter()
            .filter(|l| {
                let m = meta(l);
                let parts = name_parts(&m.drug.name);
                let generic = first_word(&m.drug.name);
                let generic_word =
                    generic == word || self.brands.get(word).is_some_and(|g| g == generic);
                let brand = m
                    .drug
                    .brand_names
                    .iter()
                    .any(|b| b.eq_ignore_ascii_case(word));
                parts.len() == 1 && (generic_word || brand)
            })
            .copied()
            .collect();
        if !single.is_empty() {
            return Some(Target::Drug(single));
        }
        let ingredient = labels.iter().any(|l| {
            let parts = name_parts(&meta(l).drug.name);
            parts.len() <= MAX_INGREDIENTS && parts.iter().any(|p| first_word(p) == word)
        });
        if ingredient {
            return Some(Target::Ingredient(word.to_owned()));
        }
        is_drug_name(word).then(|| Target::Unlabelled(word.to_owned()))
    }
}

/// A word that only kits or many-ingredient products of the index contain is still a drug of
/// its own when its form says so (a USAN stem: "clarithromycin" of a triple pack) or the curated
/// tables name it: a drug without a label of its own.
fn is_drug_name(word: &str) -> bool {
    static CURATED: LazyLock<BTreeSet<String>> = LazyLock::new(curated_names);
    has_usan_stem(word) || CURATED.contains(word)
}

/// Whether `word` is written in `sentence` as it is, not only read as a misspelling of it (the
/// question reader forgives "chronic" for "chromic"; label text is taken as written).
fn is_written(sentence: &str, word: &str) -> bool {
    occurrences(sentence, word, WordEdge::WholeOrPlural)
        .next()
        .is_some()
}

fn first_word(name: &str) -> &str {
    name.split_whitespace().next().unwrap_or_default()
}

/// Byte ranges of the sentences of `text`: split after `.`, `;`, `?`, `!` followed by white
/// space, and at line breaks.
pub fn sentences(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (at, &b) in bytes.iter().enumerate() {
        let stop = matches!(b, b'.' | b';' | b'?' | b'!')
            && bytes.get(at + 1).is_none_or(|n| n.is_ascii_whitespace());
        if stop || b == b'\n' {
            if text[start..=at].trim().len() > 1 {
                out.push(start..at + 1);
            }
            start = at + 1;
        }
    }
    if text[start..].trim().len() > 1 {
        out.push(start..text.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conditions::{Lexicon, VocabularyTerm};
    use crate::label::{Drug, NameSource};
    use crate::search::understanding::LabelNames;

    fn matcher() -> Matcher {
        let term = |id: &str, name: &str| VocabularyTerm {
            id: id.into(),
            name: name.into(),
            synonyms: vec![],
        };
        let vocabulary = [
            term("DOID:1", "renal impairment"),
            term("DOID:2", "bleeding"),
            term("DOID:3", "agranulocytosis"),
            term("DOID:4", "nausea"),
            term("DOID:5", "liver failure"),
        ];
        Matcher::new(Lexicon::build(&vocabulary, &[]))
    }

    fn label(name: &str, brand: &str) -> Arc<LabelMeta> {
        Arc::new(LabelMeta {
            label_id: name.into(),
            set_id: name.into(),
            version: "1".into(),
            effective_time: "20240101".into(),
            drug: Drug {
                name: name.into(),
                brand_names: vec![brand.into()],
                ..Drug::default()
            },
            name_source: NameSource::GenericName,
            search_names: vec![name.into(), brand.to_lowercase()],
            classes: vec![],
        })
    }

    fn statements_of(text: &str, section: &str) -> Vec<(String, RelationType, Option<Severity>)> {
        let labels = [
            label("warfarin sodium", "Coumadin"),
            label("aspirin", "Bayer"),
        ];
        let vocabulary =
            DrugVocabulary::build(labels.iter().enumerate().map(|(i, l)| LabelNames {
                label: i as u32,
                generic: &l.drug.name,
                names: &l.search_names,
                classes: &l.classes,
            }));
        let drugs = Drugs::new(&vocabulary, &labels);
        statements(text, section, &matcher(), &drugs)
            .into_iter()
            .map(|s| {
                let target = match s.target {
                    Target::Condition { name, .. } => name,
                    Target::Drug(labels) => format!("drug {labels:?}"),
                    Target::Ingredient(name) => format!("ingredient {name}"),
                    Target::Class(name) => format!("class {name}"),
                    Target::Unlabelled(name) => format!("unlabelled {name}"),
                    Target::Population(name) => format!("population {name}"),
                    Target::Member { member, class } => format!("{member:?} in {class}"),
                };
                (target, s.kind, s.severity)
            })
            .collect()
    }

    #[test]
    fn a_hedged_contraindication_is_a_warning_and_a_plain_one_is_serious() {
        let found = statements_of(
            "Contraindicated in patients with renal impairment. Use in patients with bleeding is not recommended.",
            "contraindications",
        );
        assert_eq!(
            found,
            [
                (
                    "renal impairment".into(),
                    RelationType::Contraindication,
                    Some(Severity::Serious)
                ),
                (
                    "population renal impairment".into(),
                    RelationType::Contraindication,
                    Some(Severity::Serious)
                ),
                (
                    "bleeding".into(),
                    RelationType::Warning,
                    Some(Severity::Moderate)
                ),
            ]
        );
    }

    #[test]
    fn the_reason_given_is_not_the_target_and_enzyme_classes_are_targets() {
        let found = statements_of(
            "Contraindicated in pregnancy because of the risk of bleeding.",
            "contraindications",
        );
        assert_eq!(
            found,
            [(
                "population pregnancy".into(),
                RelationType::Contraindication,
                Some(Severity::Serious)
            )]
        );
        let found = statements_of(
            "Avoid strong CYP3A4 inhibitors (e.g., ketoconazole).",
            "drug_interactions",
        );
        let class_interaction = (
            "class strong cyp3a inhibitors".to_owned(),
            RelationType::Interaction,
            Some(Severity::Serious),
        );
        assert!(found.contains(&class_interaction), "{found:?}");
        assert!(
            found
                .iter()
                .any(|(target, kind, _)| *kind == RelationType::MemberOf
                    && target.contains("ketoconazole")
                    && target.ends_with("in strong cyp3a inhibitors")),
            "the listed example is a member of the class: {found:?}"
        );
    }

    #[test]
    fn denied_conditions_are_not_adverse_reactions() {
        let found = statements_of(
            "Nausea occurred in 5% of patients. No cases of agranulocytosis were reported. \
             Bleeding was not observed.",
            "adverse_reactions",
        );
        assert_eq!(
            found,
            [("nausea".into(), RelationType::AdverseReaction, None)]
        );
    }

    #[test]
    fn severity_reads_the_words_near_the_condition_and_the_section() {
        let fatal = statements_of(
            "Cases of fatal liver failure have been reported.",
            "warnings_and_cautions",
        );
        assert_eq!(fatal[0].2, Some(Severity::LifeThreatening));
        let boxed = statements_of("WARNING: BLEEDING.", "boxed_warning");
        assert_eq!(boxed[0].2, Some(Severity::Serious));
        let listed = statements_of(
            "Hepatobiliary: fatal liver failure Gastrointestinal: nausea",
            "adverse_reactions",
        );
        assert_eq!(
            listed[1],
            ("nausea".into(), RelationType::AdverseReaction, None)
        );
        let mild = statements_of("Mild nausea was reported.", "adverse_reactions");
        assert_eq!(mild[0].2, Some(Severity::Mild));
        assert!(statements_of("Nausea was reported.", "how_supplied").is_empty());
    }

    #[test]
    fn drugs_a_warning_names_for_concomitant_use_are_interactions_at_its_level() {
        let found = statements_of(
            "The risk is increased with concomitant use of other drugs (including aspirin).",
            "warnings_and_cautions",
        );
        assert_eq!(
            found,
            [(
                "drug [1]".into(),
                RelationType::Interaction,
                Some(Severity::Moderate)
            )]
        );
        assert!(
            statements_of("Aspirin was studied in adults.", "warnings_and_cautions").is_empty(),
            "a warning that does not speak of using them together names no interaction"
        );
    }

    #[test]
    fn label_text_is_read_as_written_and_stemmed_names_without_a_label_are_drugs() {
        let found = statements_of("Avoid warfarn.", "drug_interactions");
        assert!(
            found
                .iter()
                .all(|(target, _, _)| !target.starts_with("drug")),
            "a misspelling is forgiven in questions, not in labels: {found:?}"
        );
        assert!(is_drug_name("clarithromycin") && !is_drug_name("tablets"));
    }

    #[test]
    fn interactions_name_drugs_by_generic_or_brand_but_not_their_absence() {
        let found = statements_of(
            "Avoid concomitant use of Coumadin, which increases the risk of bleeding. \
             No clinically significant interaction with aspirin was observed.",
            "drug_interactions",
        );
        assert_eq!(
            found,
            [(
                "drug [0]".into(),
                RelationType::Interaction,
                Some(Severity::Serious)
            )]
        );
    }
}
