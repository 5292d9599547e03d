//! The question recast for another reading when the one asked finds nothing or needs a
//! narrower form: every relation type (`widened`), the term itself before its synonyms
//! (`literal`), the named drug as subject before a named class (`drug_first`). Questions in,
//! questions out; no graph work.

use crate::graph::model::RelationType;
use crate::graph::query::{GraphQuestion, NamedDrug};

use super::found::DEFAULT_TYPES;
use drugcite_core::text::key_of;

/// The question with every relation type asked, for every condition too: what the graph
/// states between the things a yes/no question names when it does not state what was asked.
pub(super) fn widened(question: &GraphQuestion) -> GraphQuestion {
    let all: Vec<RelationType> = DEFAULT_TYPES.to_vec();
    let mut wide = question.clone();
    wide.relation_types.clone_from(&all);
    for condition in &mut wide.conditions {
        condition.relations.clone_from(&all);
    }
    wide
}

/// The question with each condition standing for the words the question uses only, not their
/// curated synonyms, when that differs: a yes/no question is answered about the term itself
/// first ("Is lactic acidosis a contraindication of metformin?" finds where lactic acidosis
/// sits — a boxed warning — before the contraindication of the related "metabolic acidosis").
pub(super) fn literal(question: &GraphQuestion) -> Option<GraphQuestion> {
    let mut literal = question.clone();
    let mut differs = false;
    for condition in &mut literal.conditions {
        let own = key_of(&condition.text);
        if condition.ids.is_empty() && condition.keys != [own.clone()] {
            condition.keys = vec![own];
            differs = true;
        }
    }
    differs.then_some(literal)
}

/// The named drugs and classes a question is about: all when it compares them ("share"), else
/// the first one (the others are partners).
pub(super) fn subjects_of(question: &GraphQuestion) -> Vec<&NamedDrug> {
    if question.shared {
        question.drugs.iter().collect()
    } else {
        question.drugs.iter().take(1).collect()
    }
}

/// The question with its first named drug (not class) as subject, when a class was named
/// first: "Does naproxen interact with loop diuretics?" asks about naproxen whatever order the
/// reading lists them in, and a class subject reaches partners only through its labelled
/// members. `None` when there is nothing to recast.
pub(super) fn drug_first(question: &GraphQuestion) -> Option<GraphQuestion> {
    if question.asks_which || question.shared || !question.drugs.first()?.is_class {
        return None;
    }
    let drug = question.drugs.iter().position(|d| !d.is_class)?;
    let mut recast = question.clone();
    let named = recast.drugs.remove(drug);
    recast.drugs.insert(0, named);
    Some(recast)
}
