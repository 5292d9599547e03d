use super::*;
use crate::graph::model::{Evidence, GraphData, Node, Relationship, Severity};
use drugcite_core::domain::Fingerprint;
use drugcite_core::text::key_of;

fn evidence(n: u64, section: &str) -> Vec<Evidence> {
    (0..n)
        .map(|i| Evidence {
            fingerprint: Fingerprint::from_halves(i, n),
            section: section.into(),
        })
        .collect()
}

fn edge(
    from: &str,
    to: &str,
    kind: RelationType,
    severity: Option<Severity>,
    n: u64,
    section: &str,
) -> Relationship {
    Relationship {
        from: from.into(),
        to: to.into(),
        kind,
        severity,
        evidence: evidence(n, section),
    }
}

/// b interacts with class k, whose members are a and c; a causes bleeding (life-
/// threatening), c has a boxed warning about gastrointestinal bleeding; a and b cause nausea.
fn graph() -> KnowledgeGraph {
    use RelationType::*;
    KnowledgeGraph::new(GraphData {
        nodes: vec![
            Node::drug("a"),
            Node::drug("b"),
            Node::drug("c"),
            Node::class("k"),
            Node::condition("DOID:1", "bleeding"),
            Node::condition("DOID:2", "gastrointestinal bleeding"),
            Node::condition("DOID:3", "nausea"),
        ],
        relationships: vec![
            edge(
                "drug:a",
                "DOID:1",
                AdverseReaction,
                Some(Severity::LifeThreatening),
                2,
                "adverse_reactions",
            ),
            edge(
                "drug:c",
                "DOID:2",
                Warning,
                Some(Severity::Serious),
                1,
                "boxed_warning",
            ),
            edge(
                "drug:b",
                "class:k",
                Interaction,
                Some(Severity::Moderate),
                1,
                "drug_interactions",
            ),
            edge("drug:a", "class:k", MemberOf, None, 0, ""),
            edge("drug:c", "class:k", MemberOf, None, 0, ""),
            edge(
                "drug:a",
                "DOID:3",
                AdverseReaction,
                None,
                1,
                "adverse_reactions",
            ),
            edge(
                "drug:b",
                "DOID:3",
                AdverseReaction,
                None,
                3,
                "adverse_reactions",
            ),
        ],
    })
}

fn named(name: &str, class: bool) -> NamedDrug {
    NamedDrug {
        nodes: vec![if class {
            Node::class(name)
        } else {
            Node::drug(name)
        }],
        is_class: class,
    }
}

fn condition(name: &str, relations: &[RelationType]) -> NamedCondition {
    NamedCondition {
        text: name.into(),
        name: name.into(),
        keys: vec![key_of(name)],
        ids: vec![],
        relations: relations.to_vec(),
    }
}

fn summary(found: &[Found]) -> Vec<(String, &'static str, String, usize)> {
    found
        .iter()
        .map(|f| {
            (
                f.drug.name.clone(),
                f.edge.kind.as_str(),
                f.target.name.clone(),
                f.path.len(),
            )
        })
        .collect()
}

#[test]
fn which_drugs_interact_through_a_class_and_cause_a_condition() {
    let question = GraphQuestion {
        drugs: vec![named("b", false)],
        conditions: vec![condition(
            "bleeding",
            &[RelationType::AdverseReaction, RelationType::Warning],
        )],
        relation_types: vec![RelationType::Interaction, RelationType::AdverseReaction],
        asks_which: true,
        ..GraphQuestion::default()
    };
    let graph = graph();
    let found = graph.answer(&question, 2, 10);
    assert_eq!(
        summary(&found),
        [
            ("a".into(), "adverse_reaction", "bleeding".into(), 1),
            ("b".into(), "interaction", "k".into(), 2),
            ("c".into(), "warning", "gastrointestinal bleeding".into(), 1),
            ("b".into(), "interaction", "k".into(), 2),
        ]
    );
    assert_eq!(found[1].path[1].kind, "has_member");
    assert!(
        graph.answer(&question, 1, 10).is_empty(),
        "the class step needs a second hop"
    );
}

#[test]
fn a_contraindication_with_a_class_links_drugs_like_an_interaction() {
    let data = GraphData {
        nodes: vec![
            Node::drug("a"),
            Node::drug("d"),
            Node::class("k"),
            Node::condition("DOID:3", "nausea"),
        ],
        relationships: vec![
            edge(
                "drug:d",
                "class:k",
                RelationType::Contraindication,
                Some(Severity::Serious),
                1,
                "contraindications",
            ),
            edge(
                "drug:d",
                "DOID:3",
                RelationType::Contraindication,
                Some(Severity::Serious),
                1,
                "contraindications",
            ),
            edge("drug:a", "class:k", RelationType::MemberOf, None, 0, ""),
        ],
    };
    let graph = KnowledgeGraph::new(data);
    let question = GraphQuestion {
        drugs: vec![named("k", true)],
        relation_types: vec![RelationType::Contraindication],
        asks_which: true,
        ..GraphQuestion::default()
    };
    let found = graph.answer(&question, 2, 10);
    assert_eq!(
        summary(&found),
        [("d".into(), "contraindication", "k".into(), 1)]
    );
}

#[test]
fn a_class_subject_reaches_its_members_and_boxed_only_keeps_boxed_evidence() {
    let question = GraphQuestion {
        drugs: vec![named("k", true)],
        conditions: vec![condition("bleeding", &[RelationType::Warning])],
        relation_types: vec![RelationType::Warning],
        boxed_only: true,
        ..GraphQuestion::default()
    };
    let graph = graph();
    let found = graph.answer(&question, 2, 10);
    assert_eq!(
        summary(&found),
        [("c".into(), "warning", "gastrointestinal bleeding".into(), 2)]
    );
    assert!(graph.answer(&question, 1, 10).is_empty());
}

#[test]
fn shared_keeps_targets_every_drug_reaches_and_ranking_is_stable() {
    let question = GraphQuestion {
        drugs: vec![named("a", false), named("b", false)],
        relation_types: vec![RelationType::AdverseReaction],
        shared: true,
        ..GraphQuestion::default()
    };
    let graph = graph();
    let found = graph.answer(&question, 2, 10);
    assert_eq!(
        summary(&found),
        [
            ("b".into(), "adverse_reaction", "nausea".into(), 1),
            ("a".into(), "adverse_reaction", "nausea".into(), 1),
        ]
    );
    assert_eq!(
        summary(&graph.answer(&question, 2, 1)),
        summary(&found[..1])
    );
}

/// d's label contraindicates class k and lists k among its interactions (with more evidence);
/// it also contraindicates m, a listed member of k.
#[test]
fn a_direct_statement_of_the_asked_kind_beats_interactions_and_member_chains() {
    use RelationType::*;
    let serious = Some(Severity::Serious);
    let graph = KnowledgeGraph::new(GraphData {
        nodes: vec![Node::drug("d"), Node::drug("m"), Node::class("k")],
        relationships: vec![
            edge(
                "drug:d",
                "class:k",
                Interaction,
                serious,
                5,
                "drug_interactions",
            ),
            edge(
                "drug:d",
                "class:k",
                Contraindication,
                serious,
                1,
                "contraindications",
            ),
            edge(
                "drug:d",
                "drug:m",
                Contraindication,
                serious,
                3,
                "contraindications",
            ),
            edge("drug:m", "class:k", MemberOf, None, 0, ""),
        ],
    });
    let question = GraphQuestion {
        drugs: vec![named("k", true)],
        relation_types: vec![Contraindication],
        asks_which: true,
        ..GraphQuestion::default()
    };
    let found = graph.answer(&question, 2, 10);
    assert_eq!(
        summary(&found)[0],
        ("d".into(), "contraindication", "k".into(), 1),
        "{:?}",
        summary(&found)
    );
}

#[test]
fn a_class_level_statement_reaches_members_and_a_broader_class_speaks_for_a_narrower() {
    let data = GraphData {
        nodes: vec![
            Node::drug("ibuprofen"),
            Node::unlabelled_drug("lithium"),
            Node::class("nsaid"),
            Node::class("diuretic (lay)"),
            Node::class("loop diuretic"),
        ],
        relationships: vec![
            edge(
                "drug:ibuprofen",
                "class:nsaid",
                RelationType::MemberOf,
                None,
                0,
                "",
            ),
            edge(
                "class:nsaid",
                "drug:lithium",
                RelationType::Interaction,
                None,
                2,
                "drug_interactions",
            ),
            edge(
                "class:nsaid",
                "class:diuretic (lay)",
                RelationType::Interaction,
                None,
                1,
                "drug_interactions",
            ),
        ],
    };
    let graph = KnowledgeGraph::new(data);
    let ask = |drugs: Vec<NamedDrug>| GraphQuestion {
        drugs,
        relation_types: vec![RelationType::Interaction],
        form: QuestionForm::YesNo,
        ..GraphQuestion::default()
    };
    let lithium = graph.answer(
        &ask(vec![named("ibuprofen", false), named("lithium", false)]),
        2,
        10,
    );
    assert_eq!(
        summary(&lithium),
        [("nsaid".into(), "interaction", "lithium".into(), 2)]
    );
    let loop_first = ask(vec![
        named("loop diuretic", true),
        named("ibuprofen", false),
    ]);
    assert_eq!(
        summary(&graph.answer(&loop_first, 2, 10)),
        [("nsaid".into(), "interaction", "diuretic (lay)".into(), 2)],
        "the drug named after the class is the subject; \"diuretics\" speaks for loop diuretics"
    );
}
