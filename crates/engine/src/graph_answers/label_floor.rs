//! The floor of a yes/no verdict, read from the labels' own text: the current Contraindications,
//! Boxed Warning and Warnings texts (`verdict-floor-sections.tsv`) of each drug the question
//! names, sentence by sentence, that name the other thing asked about (a condition or population
//! by any of its phrases, a drug by its name, a class by its name). Only ever adds caution: it
//! never removes a relationship or lowers a verdict, and it counts the labels it read so "not
//! stated" can say of how many.

use std::collections::BTreeSet;
use std::sync::{Arc, LazyLock};

use drugcite_core::text::{contains_any_word, key_contains, key_of, occurrences, WordEdge};

use super::adjectives::adjective_keys;
use super::answer::{AnsweredRelationship, EvidenceText};
use super::broader_terms::broader_keys;
use super::coordination::names_in_coordination;
use super::verdict::{stated_verdict, warning_instruction, Instruction};
use crate::error::EngineError;
use crate::graph::relations::{section_relations, sentence_relation, sentences};
use crate::graph::severity::severity;
use crate::graph::wording::{count, text_key};
use crate::graph::{GraphQuestion, Hop, Node, NodeKind, RelationType};
use crate::index::Live;
use crate::search::collapse::AlsoIn;
use crate::search::lexical::labels_texts;
use crate::tables::graph as tables;
use crate::understand::ages::age_limits;
use crate::understand::measurements::{measured, Measured};
use crate::understand::thresholds::meets_a_limit;
use crate::understand::{name_parts, without_salts};
use crate::verify::{Verification, Verifier};
use drugcite_store::StoredSegment;

/// The sections whose statements can raise a verdict, with the relation each states
/// (`verdict-floor-sections.tsv`).
static SECTIONS: LazyLock<Vec<(String, RelationType)>> =
    LazyLock::new(|| section_relations(&tables::VERDICT_FLOOR_SECTIONS).collect());
/// The id of a condition read from the text that names no graph node: the prefix and its words.
pub const TEXT_ID_PREFIX: &str = "text:";
/// Distinct texts read per drug and section (`thresholds.tsv`: `floor_texts_read`).
static TEXTS_READ: LazyLock<usize> = LazyLock::new(|| count("floor_texts_read"));

/// Sentences about an allergy to what they name (`label-cues.tsv`, group `allergy`).
static ALLERGY: LazyLock<Vec<String>> =
    LazyLock::new(|| crate::graph::wording::label_cues("allergy", "phrase"));

/// Endings of the words that name a compound with the word after them (`label-cues.tsv`,
/// `substituent-ending`).
static SUBSTITUENT_ENDINGS: LazyLock<Vec<String>> =
    LazyLock::new(|| crate::graph::wording::label_cues("substituent-ending", "substring"));

/// What the labels of a yes/no question's drugs state about the other thing asked.
pub struct LabelFloor {
    /// One relationship per (drug, relation, target), its first stating text as evidence.
    pub statements: Vec<AnsweredRelationship>,
    /// The labels (set ids) whose texts were read.
    pub labels_read: BTreeSet<String>,
}

/// One thing a question asks about, as the labels may word it.
struct Asked {
    node: Node,
    /// Normalised keys (`key_of`) of its phrases.
    keys: Vec<String>,
    /// A population asked of a person whose age the question states: that age, in years (a
    /// sentence limited to other ages is not about them).
    age: Option<f32>,
    /// A value of a measurement the question states: a sentence setting a limit it meets
    /// names it ("LVEF < 55%" for "an LVEF of 50%").
    measured: Option<Measured>,
}

/// Reads the floor for `question` (asked as `wording`) over `live`.
pub fn label_floor(
    live: &Live,
    verifier: &Verifier,
    question: &GraphQuestion,
    wording: &str,
) -> Result<LabelFloor, EngineError> {
    let asks_allergy = contains_any_word(&wording.to_lowercase(), &allergy_words());
    let mut floor = LabelFloor {
        statements: Vec::new(),
        labels_read: BTreeSet::new(),
    };
    for subject in &subjects(live, question) {
        let mut asked = asked_about(question, subject);
        if asked.is_empty() {
            continue;
        }
        let labels = labels_of(live, &subject.name);
        let set_ids = labels
            .iter()
            .map(|&l| live.snapshot.labels()[l as usize].set_id.clone());
        floor.labels_read.extend(set_ids);
        let texts = floor_texts(live, verifier, &labels)?;
        let broader: Vec<Asked> = asked
            .iter()
            .filter(|thing| thing.measured.is_none() && thing.node.kind == NodeKind::Condition)
            .map(|thing| Asked {
                node: thing.node.clone(),
                keys: broader_keys(texts.iter().map(|t| t.segment.text.as_str()), &thing.keys),
                age: thing.age,
                measured: None,
            })
            .filter(|thing| !thing.keys.is_empty())
            .collect();
        asked.extend(broader);
        for text in &texts {
            for thing in &asked {
                let ignore_allergy = !asks_allergy && thing.node.kind != NodeKind::Condition;
                let Some((kind, told)) =
                    stated(&text.segment.text, text.kind, thing, ignore_allergy)
                else {
                    continue;
                };
                let known = floor.statements.iter().position(|s| {
                    s.drug == subject.name && s.kind == kind && s.target.id == thing.node.id
                });
                let caution = |told| stated_verdict(kind, told, false);
                let more_cautious = known
                    .is_some_and(|at| caution(told) < caution(floor.statements[at].instruction));
                if known.is_none() || more_cautious {
                    let evidence = EvidenceText {
                        segment: Arc::clone(&text.segment),
                        also_in: AlsoIn::default(),
                    };
                    let stated =
                        relationship(subject, &thing.node, (kind, told), text.section, evidence);
                    match known {
                        Some(at) => floor.statements[at] = stated,
                        None => floor.statements.push(stated),
                    }
                }
            }
        }
    }
    Ok(floor)
}

/// The labelled drugs a yes/no question names, and the labelled combination products of
/// those it names: whose labels' texts the floor reads.
pub(super) fn subjects(live: &Live, question: &GraphQuestion) -> Vec<Node> {
    let mut subjects: Vec<Node> = question
        .drugs
        .iter()
        .filter(|d| !d.is_class)
        .flat_map(|d| d.nodes.iter())
        .filter(|n| n.kind == NodeKind::Drug && !n.unlabelled)
        .cloned()
        .collect();
    subjects.extend(combinations_named(live, question));
    subjects
}

/// One current text of a floor section of a drug's labels.
pub(super) struct FloorText {
    pub section: &'static str,
    /// The relation a sentence of the section states.
    pub kind: RelationType,
    pub segment: Arc<StoredSegment>,
}

/// The current texts of the floor sections (`verdict-floor-sections.tsv`) in `labels`, at
/// most `floor_texts_read` per section, each verified.
pub(super) fn floor_texts(
    live: &Live,
    verifier: &Verifier,
    labels: &BTreeSet<u32>,
) -> Result<Vec<FloorText>, EngineError> {
    let mut texts = Vec::new();
    for (section, kind) in SECTIONS.iter() {
        for hit in labels_texts(live, labels, Some(section), *TEXTS_READ)? {
            if let Verification::Verified(segment) = verifier.verify(hit.best)? {
                texts.push(FloorText {
                    section: section.as_str(),
                    kind: *kind,
                    segment,
                });
            }
        }
    }
    Ok(texts)
}

/// The relation a text of `section` states about `thing`, with what a Warnings sentence says to
/// do about it (`warning_instruction`): of the sentences that name it and deny nothing, the most
/// cautious; none when no sentence does.
fn stated(
    text: &str,
    section_kind: RelationType,
    thing: &Asked,
    ignore_allergy: bool,
) -> Option<(RelationType, Option<Instruction>)> {
    let naming = sentences(text).into_iter().filter_map(|range| {
        let lower = text[range].to_lowercase();
        if ignore_allergy && contains_any_word(&lower, &allergy_words()) {
            return None;
        }
        let key = text_key(&lower);
        let named = (thing.keys.iter().any(|k| key_contains(&key, k))
            && !only_in_compounds(&lower, thing))
            || (thing.node.kind == NodeKind::Condition
                && thing.keys.iter().any(|k| names_in_coordination(&lower, k)))
            || thing
                .measured
                .as_ref()
                .is_some_and(|m| meets_a_limit(m, &lower));
        let applies = match thing.age {
            Some(age) => of_age(&lower, age, named),
            None => named,
        };
        let kind = applies
            .then(|| sentence_relation(section_kind, &lower))
            .flatten()?;
        Some((kind, warning_instruction(kind, &lower)))
    });
    naming.min_by_key(|&(kind, told)| stated_verdict(kind, told, false))
}

/// Whether a condition read from the question's own words ("alcohol") occurs in a sentence
/// (lowercase) only as the end of compounds' names ("benzyl alcohol").
fn only_in_compounds(lower: &str, thing: &Asked) -> bool {
    if !thing.node.id.starts_with(TEXT_ID_PREFIX) || thing.measured.is_some() {
        return false;
    }
    let name = thing.node.name.to_lowercase();
    let mut found = occurrences(lower, &name, WordEdge::WholeOrPlural).peekable();
    found.peek().is_some() && found.all(|at| in_compound(lower, at.start))
}

/// Whether a sentence (lowercase) is about a person of `age` years: its age limits include
/// the age, or it sets none and names the population (`named`).
fn of_age(lower: &str, age: f32, named: bool) -> bool {
    let limits = age_limits(lower);
    if limits.is_empty() {
        named
    } else {
        limits.iter().any(|limit| limit.includes(age))
    }
}

/// Whether the word at `at` of `sentence` is the end of a compound's name: the word right
/// before it is a substituent (`label-cues.tsv`, `substituent-ending`: "benzyl alcohol").
pub(super) fn in_compound(sentence: &str, at: usize) -> bool {
    let before = sentence[..at].trim_end_matches(' ');
    let previous = before
        .rsplit(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or_default()
        .to_lowercase();
    before.len() < at
        && previous.len() > 3
        && SUBSTITUENT_ENDINGS
            .iter()
            .any(|ending| previous.ends_with(ending.as_str()))
}

/// The other things the question names besides `subject`: its conditions and populations, and
/// the other drugs and classes.
fn asked_about(question: &GraphQuestion, subject: &Node) -> Vec<Asked> {
    let mut asked = Vec::new();
    for condition in &question.conditions {
        let mut keys: BTreeSet<String> = condition.keys.iter().cloned().collect();
        keys.insert(key_of(&condition.text));
        keys.insert(key_of(&condition.name));
        let adjectival: Vec<String> = keys.iter().flat_map(|k| adjective_keys(k)).collect();
        keys.extend(adjectival);
        let id = condition
            .ids
            .first()
            .cloned()
            .unwrap_or_else(|| format!("{TEXT_ID_PREFIX}{}", key_of(&condition.name)));
        let kind = if id.starts_with("population:") {
            NodeKind::Population
        } else {
            NodeKind::Condition
        };
        let node = Node {
            id,
            kind,
            name: condition.name.clone(),
            unlabelled: false,
        };
        let age = question
            .age_months
            .filter(|_| kind == NodeKind::Population)
            .map(|months| months as f32 / 12.0);
        asked.push(Asked {
            node,
            keys: keys.into_iter().filter(|k| !k.is_empty()).collect(),
            age,
            measured: None,
        });
    }
    for text in &question.measured {
        asked.extend(measured(text).into_iter().map(|value| Asked {
            node: Node {
                id: format!("{TEXT_ID_PREFIX}{}", key_of(text)),
                kind: NodeKind::Condition,
                name: text.clone(),
                unlabelled: false,
            },
            keys: Vec::new(),
            age: None,
            measured: Some(value),
        }));
    }
    let ingredients = first_words(&name_parts(&subject.name));
    let others = question.drugs.iter().filter(|named| {
        !named
            .nodes
            .iter()
            .any(|n| n.id == subject.id || ingredients.contains(&first_word(&n.name)))
    });
    for named in others {
        for node in &named.nodes {
            let keys: BTreeSet<String> = [key_of(&node.name), key_of(&without_salts(&node.name))]
                .into_iter()
                .filter(|k| !k.is_empty())
                .collect();
            asked.push(Asked {
                node: node.clone(),
                keys: keys.into_iter().collect(),
                age: None,
                measured: None,
            });
        }
    }
    asked
}

/// The labelled combination products whose every ingredient the question names as a drug of
/// its own ("serdexmethylphenidate and dexmethylphenidate" read as two drugs): the product's
/// label states what the question asks about as much as its ingredients' labels.
fn combinations_named(live: &Live, question: &GraphQuestion) -> Vec<Node> {
    let named: BTreeSet<String> = question
        .drugs
        .iter()
        .filter(|d| !d.is_class)
        .flat_map(|d| d.nodes.iter().map(|n| first_word(&n.name)))
        .collect();
    if named.len() < 2 {
        return Vec::new();
    }
    let combinations: BTreeSet<&str> = live
        .snapshot
        .labels()
        .iter()
        .map(|meta| meta.drug.name.as_str())
        .filter(|name| {
            let parts = first_words(&name_parts(name));
            parts.len() >= 2 && parts.iter().all(|part| named.contains(part))
        })
        .collect();
    combinations.into_iter().map(Node::drug).collect()
}

fn first_word(name: &str) -> String {
    name.split_whitespace()
        .next()
        .unwrap_or_default()
        .to_owned()
}

fn first_words(parts: &[String]) -> BTreeSet<String> {
    parts
        .iter()
        .map(|p| first_word(p))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The ordinals of the labels whose drug is `name`.
pub(super) fn labels_of(live: &Live, name: &str) -> BTreeSet<u32> {
    live.snapshot
        .labels()
        .iter()
        .enumerate()
        .filter(|(_, meta)| meta.drug.name == name)
        .map(|(at, _)| at as u32)
        .collect()
}

/// A floor statement: `subject`'s `kind` (with what its sentence says to do) about `target`,
/// one evidence text in `section`.
pub(super) fn relationship(
    subject: &Node,
    target: &Node,
    (kind, instruction): (RelationType, Option<Instruction>),
    section: &str,
    evidence: EvidenceText,
) -> AnsweredRelationship {
    let boxed = section == "boxed_warning";
    AnsweredRelationship {
        drug: subject.name.clone(),
        target: target.clone(),
        kind,
        severity: severity(kind, boxed, &evidence.segment.text.to_lowercase()),
        evidence: vec![evidence],
        evidence_count: 1,
        instruction,
        path: vec![Hop {
            from: subject.name.clone(),
            kind: kind.as_str(),
            to: target.name.clone(),
        }],
        meaning: None,
    }
}

pub(super) fn allergy_words() -> Vec<&'static str> {
    ALLERGY.iter().map(String::as_str).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_condition_met_only_inside_compounds_is_not_named() {
        let alcohol = Asked {
            node: Node {
                id: format!("{TEXT_ID_PREFIX}alcohol"),
                kind: NodeKind::Condition,
                name: "alcohol".to_owned(),
                unlabelled: false,
            },
            keys: vec![key_of("alcohol")],
            age: None,
            measured: None,
        };
        assert!(only_in_compounds("contains benzyl alcohol.", &alcohol));
        assert!(!only_in_compounds(
            "avoid alcohol and benzyl alcohol.",
            &alcohol
        ));
        assert!(!only_in_compounds("no mention here.", &alcohol));
    }

    #[test]
    fn the_end_of_a_compounds_name_is_not_the_word_alone() {
        let sentence = "Known hypersensitivity to benzyl alcohol (in the vials)";
        assert!(in_compound(sentence, sentence.find("alcohol").unwrap()));
        let drink = "Patients who consume alcohol during treatment";
        assert!(!in_compound(drink, drink.find("alcohol").unwrap()));
        let list = "such as benzyl, alcohol";
        assert!(!in_compound(list, list.find("alcohol").unwrap()));
    }
}
