//! A medication list ("she takes A, B, C and D — any dangerous combinations?"): every pair of
//! the named drugs answered as its own yes/no question — the graph's statements between the two
//! and the floor from both labels' text — with the most cautious statement as the pair's
//! verdict. Nothing about drugs outside the list. Owns the pairing; the answering is the
//! service's and the floor's.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use super::answer::{Floored, GraphAnswer, PairVerdict};
use crate::error::EngineError;
use crate::graph::query::{NamedDrug, MAX_NAMED_DRUGS};
use crate::graph::wording::count;
use crate::graph::{GraphQuestion, RelationType};
use crate::understand::form::QuestionForm;

/// The fewest drugs that make a list rather than a question about one pair.
const MIN_LISTED: usize = 3;
/// Relationships shown per pair, most cautious first (`thresholds.tsv`: `shown_per_pair`).
static SHOWN_PER_PAIR: LazyLock<usize> = LazyLock::new(|| count("shown_per_pair"));

/// Whether `question` names a list of drugs to check against each other: at least three drugs
/// (no class), no condition, not a "which drugs" or "in common" question.
pub fn is_medication_list(question: &GraphQuestion) -> bool {
    let drugs = question.drugs.iter().filter(|d| !d.is_class).count();
    drugs >= MIN_LISTED
        && question.drugs.iter().all(|d| !d.is_class)
        && question.conditions.is_empty()
        && !question.asks_which
        && !question.shared
}

/// The pair of drugs a yes/no question names beside its conditions ("takes Camzyos … being
/// treated for TB and needs rifampin. Can he take both?"): the conditions may be only why each
/// is taken, so the pair is asked too ("both" here asks about taking them together, not what
/// they share).
pub fn named_pair(question: &GraphQuestion) -> Option<GraphQuestion> {
    match question.drugs.as_slice() {
        [a, b] if !question.conditions.is_empty() && !question.asks_which => {
            Some(pair_question(question, a, b))
        }
        _ => None,
    }
}

/// The yes/no question about one pair of the list.
pub fn pair_question(list: &GraphQuestion, a: &NamedDrug, b: &NamedDrug) -> GraphQuestion {
    GraphQuestion {
        drugs: vec![a.clone(), b.clone()],
        conditions: Vec::new(),
        relation_types: vec![RelationType::Contraindication, RelationType::Interaction],
        asks_which: false,
        boxed_only: false,
        shared: false,
        form: QuestionForm::YesNo,
        guessed_class: None,
        ..list.clone()
    }
}

/// Every pair of the list answered by `answer_pair` (the pair's yes/no question in, its
/// relationships with the labels' floor out), pairs most cautious first; the answer's verdict
/// is the list's most cautious pair's.
pub fn answer_list(
    understood: GraphQuestion,
    mut answer_pair: impl FnMut(&GraphQuestion) -> Result<Floored, EngineError>,
) -> Result<GraphAnswer, EngineError> {
    let mut answered: Vec<(Floored, [String; 2], Vec<String>)> = Vec::new();
    let mut labels: BTreeSet<String> = BTreeSet::new();
    for (a, b) in pairs(&understood) {
        let mut floored = answer_pair(&pair_question(&understood, a, b))?;
        labels.append(&mut floored.labels);
        let names = [a, b].map(|d| d.nodes[0].name.clone());
        let unlabelled = [a, b]
            .iter()
            .flat_map(|d| d.nodes.iter().filter(|n| n.unlabelled))
            .map(|n| n.name.clone())
            .collect();
        answered.push((floored, names, unlabelled));
    }
    answered.sort_by_key(|(floored, _, _)| floored.verdict);
    let mut relationships = Vec::new();
    let mut pairs = Vec::new();
    for (floored, drugs, unlabelled) in answered {
        let stated = floored.relationships.len();
        let first = relationships.len();
        relationships.extend(floored.relationships.into_iter().take(*SHOWN_PER_PAIR));
        pairs.push(PairVerdict {
            drugs,
            verdict: floored.verdict,
            relationships: (first..relationships.len()).collect(),
            stated,
            unlabelled,
        });
    }
    Ok(GraphAnswer {
        total: pairs.iter().map(|p| p.stated).sum(),
        verdict: pairs.first().map(|p| p.verdict),
        labels_read: Some(labels.len()),
        understood,
        relationships,
        pairs: Some(pairs),
    })
}

/// Every pair of the drugs named (at most `MAX_NAMED_DRUGS`), in list order.
pub fn pairs(list: &GraphQuestion) -> Vec<(&NamedDrug, &NamedDrug)> {
    let drugs: Vec<&NamedDrug> = list.drugs.iter().take(MAX_NAMED_DRUGS).collect();
    let mut out = Vec::new();
    for (at, a) in drugs.iter().enumerate() {
        for b in &drugs[at + 1..] {
            out.push((*a, *b));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Node;

    fn drug(name: &str) -> NamedDrug {
        NamedDrug {
            nodes: vec![Node::drug(name)],
            is_class: false,
        }
    }

    #[test]
    fn three_drugs_and_nothing_else_are_a_list_and_every_pair_is_asked_once() {
        let list = GraphQuestion {
            drugs: vec![drug("a"), drug("b"), drug("c"), drug("d")],
            ..GraphQuestion::default()
        };
        assert!(is_medication_list(&list));
        let names: Vec<(String, String)> = pairs(&list)
            .iter()
            .map(|(a, b)| (a.nodes[0].name.clone(), b.nodes[0].name.clone()))
            .collect();
        assert_eq!(names.len(), 6);
        assert_eq!(names[0], ("a".into(), "b".into()));
        assert_eq!(names[5], ("c".into(), "d".into()));
        let pair = pair_question(&list, &list.drugs[0], &list.drugs[3]);
        assert_eq!(pair.form, QuestionForm::YesNo);
        assert_eq!(pair.drugs.len(), 2);
    }

    #[test]
    fn two_drugs_a_condition_or_a_which_question_are_no_list() {
        let two = GraphQuestion {
            drugs: vec![drug("a"), drug("b")],
            ..GraphQuestion::default()
        };
        assert!(!is_medication_list(&two));
        let which = GraphQuestion {
            drugs: vec![drug("a"), drug("b"), drug("c")],
            asks_which: true,
            ..GraphQuestion::default()
        };
        assert!(!is_medication_list(&which));
    }
}
