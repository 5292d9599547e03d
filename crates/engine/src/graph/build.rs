//! Builds the knowledge graph of a generation from its current segments: every statement of
//! every current segment of a relation-bearing section becomes (or strengthens) a relationship
//! from the label's drug, with the segment's fingerprint as evidence; drugs link to their
//! classes (enzyme-class strengths by what most labels list them under).
//! Each distinct (text, section) is analysed once (`analysis.rs`) and its statements reused
//! for every copy. Reads a snapshot, returns data; writing it is the caller's.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use super::analysis::{inputs_digest, Analyses, Found};
use super::class_level::class_statements;
use super::membership::ListedMemberships;
use super::model::{Evidence, GraphData, Node, RelationType, Relationship, Severity};
use super::names::{curated_names, has_usan_stem, listed_names, stem_names, table_row_names};
use super::relations::{relation_of_section, statements, Drugs, Target};
use crate::conditions::{self, Matcher, Purpose, VocabularyTerm};
use crate::understand::DrugVocabulary;
use drugcite_core::domain::TextHash;
use drugcite_core::label::LabelMeta;
use drugcite_store::{Snapshot, StoreError};

#[derive(Default)]
struct Accumulated {
    severity: Option<Severity>,
    evidence: BTreeSet<Evidence>,
}

type Edges = BTreeMap<(String, String, RelationType), Accumulated>;

/// The nodes a statement's target stands for, each once; for a `member_of` statement the
/// member's nodes, then the class.
pub fn target_nodes(target: &Target, labels: &[Arc<LabelMeta>]) -> Vec<Node> {
    match target {
        Target::Condition { id, name } => vec![Node::condition(id, name)],
        Target::Class(name) => vec![Node::class(name)],
        Target::Drug(ordinals) => {
            // One node per drug: its labels (at 100×, dozens of repackagers) name it alike.
            let mut seen = BTreeSet::new();
            ordinals
                .iter()
                .map(|l| Node::drug(&labels[*l as usize].drug.name))
                .filter(|node| seen.insert(node.id.clone()))
                .collect()
        }
        Target::Ingredient(name) => vec![Node::drug(name)],
        Target::Unlabelled(name) => vec![Node::unlabelled_drug(name)],
        Target::Population(name) => vec![Node::population(name)],
        Target::Member { member, class } => {
            let mut nodes = target_nodes(member, labels);
            nodes.push(Node::class(class));
            nodes
        }
    }
}

/// A built graph with the per-text analysis it was built from and the duplicate counts.
pub struct Built {
    pub graph: GraphData,
    pub analyses: Analyses,
    /// Live segments, and the distinct texts among them.
    pub segments: u64,
    pub distinct_texts: u64,
}

/// The graph of `snapshot`, conditions found with the matcher of `vocabulary`; the analysis of
/// the generation `previous` is reused for texts it holds when it was made from the same inputs.
pub fn build(
    snapshot: &Snapshot,
    vocabulary: &[VocabularyTerm],
    previous: Option<&Path>,
) -> Result<Built, StoreError> {
    let labels = snapshot.labels();
    let matcher = conditions::matcher(vocabulary);
    let current: Vec<Arc<LabelMeta>> = snapshot
        .current_labels()
        .map(|(_, l)| Arc::clone(l))
        .collect();
    let unlabelled = unlabelled_names(snapshot, &matcher)?;
    let inputs = format!(
        "{}+{}",
        inputs_digest(vocabulary, &current),
        names_digest(&unlabelled)
    );
    let mut analyses = Analyses::new(inputs, previous);
    let (mut segments, mut texts) = (0u64, HashSet::<TextHash>::new());
    let vocabulary = DrugVocabulary::of_current_labels(snapshot).with_unlabelled_drugs(unlabelled);
    let drugs = Drugs::new(&vocabulary, labels);
    let drug_of = |label: u32| Node::drug(&labels[label as usize].drug.name);
    let mut nodes: BTreeMap<String, Node> = BTreeMap::new();
    let mut edges: Edges = BTreeMap::new();
    let mut listed = ListedMemberships::default();
    let own_classes = classes_of_drugs(&vocabulary, labels);
    for (label, _) in snapshot.current_labels() {
        let drug = drug_of(label);
        nodes.insert(drug.id.clone(), drug);
    }
    let labelled_ids: HashSet<String> = nodes.keys().cloned().collect();
    snapshot.visit_segments(|segment| {
        if !segment.current {
            return;
        }
        segments += 1;
        texts.insert(segment.text_hash);
        if relation_of_section(segment.section_key).is_none() {
            return;
        }
        let from = drug_of(segment.label);
        let found = analyses.of(segment.text_hash, segment.section_key, || {
            statements(segment.text, segment.section_key, &matcher, &drugs)
                .into_iter()
                .map(|statement| Found {
                    targets: target_nodes(&statement.target, labels),
                    kind: statement.kind,
                    severity: statement.severity,
                    sentence: statement.sentence,
                })
                .collect()
        });
        let evidence = Evidence {
            fingerprint: segment.fingerprint,
            section: segment.section_key.to_owned(),
        };
        for statement in found.iter() {
            if statement.kind == RelationType::MemberOf {
                add_membership(&statement.targets, &from.id, &mut nodes, &mut listed);
                continue;
            }
            for to in statement.targets.iter().filter(|to| to.id != from.id) {
                add_edge(&mut edges, &from.id, to, statement, &evidence);
                nodes.entry(to.id.clone()).or_insert_with(|| to.clone());
            }
        }
        if let Some(own) = own_classes.get(&from.id) {
            for said in class_statements(&found, &from.id, own) {
                add_edge(
                    &mut edges,
                    &said.class.id,
                    said.partner,
                    said.statement,
                    &evidence,
                );
                nodes
                    .entry(said.partner.id.clone())
                    .or_insert_with(|| said.partner.clone());
            }
        }
    })?;
    for (member, class) in listed.kept() {
        let class = Node::class(&class).id;
        edges
            .entry((member, class, RelationType::MemberOf))
            .or_default();
    }
    for (class, members) in vocabulary.classes() {
        let class = Node::class(class);
        for member in members {
            let key = (
                drug_of(*member).id,
                class.id.clone(),
                RelationType::MemberOf,
            );
            edges.entry(key).or_default();
        }
        nodes.insert(class.id.clone(), class);
    }
    add_curated_members(&mut nodes, &mut edges, &labelled_ids);
    nodes
        .values_mut()
        .filter(|n| n.unlabelled)
        .for_each(|n| n.unlabelled = !labelled_ids.contains(&n.id));
    let graph = GraphData {
        nodes: nodes.into_values().collect(),
        relationships: edges
            .into_iter()
            .map(|((from, to, kind), edge)| Relationship {
                from,
                to,
                kind,
                severity: edge.severity,
                evidence: edge.evidence.into_iter().collect(),
            })
            .collect(),
    };
    Ok(Built {
        graph,
        analyses,
        segments,
        distinct_texts: texts.len() as u64,
    })
}

/// Strengthens (or makes) the edge `from` → `to` of the statement's kind with `evidence`.
fn add_edge(edges: &mut Edges, from: &str, to: &Node, statement: &Found, evidence: &Evidence) {
    let edge = edges
        .entry((from.to_owned(), to.id.clone(), statement.kind))
        .or_default();
    edge.severity = edge.severity.max(statement.severity);
    edge.evidence.insert(evidence.clone());
}

/// The class node ids each labelled drug (by node id) is a member of.
fn classes_of_drugs(
    vocabulary: &DrugVocabulary,
    labels: &[Arc<LabelMeta>],
) -> HashMap<String, HashSet<String>> {
    let mut out: HashMap<String, HashSet<String>> = HashMap::new();
    for (class, members) in vocabulary.classes() {
        for member in members {
            let drug = Node::drug(&labels[*member as usize].drug.name);
            out.entry(drug.id)
                .or_default()
                .insert(Node::class(class).id);
        }
    }
    out
}

/// Drugs without a label of their own that label text names are members of the curated
/// classes that list them (`graph/drug-classes.tsv`): naproxen of the NSAIDs, lisinopril of the
/// ACE inhibitors, so what a label states for the class reaches them.
fn add_curated_members(
    nodes: &mut BTreeMap<String, Node>,
    edges: &mut Edges,
    labelled: &HashSet<String>,
) {
    for class in crate::curated::drug_classes() {
        let members = class.members;
        let class = Node::class(&class.name.to_lowercase());
        for member in members {
            let id = Node::drug(&member.to_lowercase()).id;
            if nodes.contains_key(&id) && !labelled.contains(&id) {
                edges
                    .entry((id, class.id.clone(), RelationType::MemberOf))
                    .or_default();
                nodes
                    .entry(class.id.clone())
                    .or_insert_with(|| class.clone());
            }
        }
    }
}

/// The label of `source` lists the member nodes (all but the last) as of the class node (the
/// last); which of these become `member_of` edges is decided over all labels (`membership.rs`).
fn add_membership(
    targets: &[Node],
    source: &str,
    nodes: &mut BTreeMap<String, Node>,
    listed: &mut ListedMemberships,
) {
    let Some((class, members)) = targets.split_last() else {
        return;
    };
    nodes
        .entry(class.id.clone())
        .or_insert_with(|| class.clone());
    for member in members {
        nodes
            .entry(member.id.clone())
            .or_insert_with(|| member.clone());
        listed.add(source, &member.id, &class.name);
    }
}

/// Drug names the current labels' interaction, contraindication and warning texts give
/// without a label of their own: members of example lists, interaction table rows, words with
/// a USAN stem, and the
/// curated generics (the vocabulary drops those that name a label).
fn unlabelled_names(
    snapshot: &Snapshot,
    matcher: &Matcher,
) -> Result<BTreeSet<String>, StoreError> {
    let mut names = curated_names();
    snapshot.visit_segments(|segment| {
        let drug_section = matches!(
            relation_of_section(segment.section_key),
            Some(
                RelationType::Interaction | RelationType::Contraindication | RelationType::Warning
            )
        );
        if segment.current && drug_section {
            let listed = listed_names(segment.text)
                .into_iter()
                .chain(table_row_names(segment.text))
                .filter(|n| !is_plural(n) || has_usan_stem(n));
            names.extend(listed.chain(stem_names(segment.text)));
        }
    })?;
    names.retain(|name| !is_condition(name, matcher));
    Ok(names)
}

/// A plural class word of a list ("antacids", "ssris"), not a drug's name ("tacrolimus").
fn is_plural(word: &str) -> bool {
    word.ends_with('s') && !word.ends_with("us")
}

/// Whether the condition vocabularies know `name` as a condition ("anaphylaxis", "syncope").
fn is_condition(name: &str, matcher: &Matcher) -> bool {
    matcher
        .find(name, Purpose::Conditions)
        .iter()
        .any(|m| m.span == (0..name.len()))
}

fn names_digest(names: &BTreeSet<String>) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for name in names {
        hasher.update(name.as_bytes());
        hasher.update(b"\n");
    }
    format!("{:x}", hasher.finalize())
}
