//! A graph question as the reasoner takes it: the drugs and classes it names as graph nodes,
//! the conditions with the phrases that count as them and the relations asked of each, and the
//! question's form. Built from the question's reading by `graph_answers::question`; data only.

use crate::understand::form::QuestionForm;
use crate::understand::ReadAs;

use super::model::{Node, RelationType};

/// Most distinct conditions kept from one question (the first named); the reasoner expands no
/// more than these.
pub const MAX_NAMED: usize = 8;
/// Most distinct drugs and classes kept from one question (the first named): a medication list
/// of up to this many is checked pair by pair.
pub const MAX_NAMED_DRUGS: usize = 20;

/// A drug or class the question names and the graph nodes it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedDrug {
    pub nodes: Vec<Node>,
    pub is_class: bool,
}

/// A condition the question names: its words as asked, the phrases that count as the same
/// condition, and the relation types the nearest relation word asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedCondition {
    pub text: String,
    pub name: String,
    /// Normalised keys (see `conditions::text::key_of`) of every phrase of the condition.
    pub keys: Vec<String>,
    /// Node ids it stands for besides those matched by `keys` (a population's nodes).
    pub ids: Vec<String>,
    pub relations: Vec<RelationType>,
}

/// A run of question words nothing read (`Reading::unrecognized_runs`), with the relation types
/// the nearest relation word asks for: a condition the labels may name in words the
/// vocabulary lacks ("closed epiphyses").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnreadPhrase {
    pub text: String,
    pub relations: Vec<RelationType>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GraphQuestion {
    pub drugs: Vec<NamedDrug>,
    pub conditions: Vec<NamedCondition>,
    /// Every relation type a relation word of the question asks for, in question order.
    pub relation_types: Vec<RelationType>,
    /// "Which drugs …": the answer is drugs, the drugs named are partners, not subjects.
    pub asks_which: bool,
    pub boxed_only: bool,
    pub shared: bool,
    /// Content words nothing above accounts for.
    pub unrecognized: Vec<String>,
    /// The runs of words nothing above accounts for, as phrases.
    pub unread_phrases: Vec<UnreadPhrase>,
    /// The age of the person asked about, in months, when the question states it.
    pub age_months: Option<u32>,
    /// The values of clinical measurements the question states, as written ("crcl 15
    /// ml/min"): a label sentence's limit they meet names them (`understand::thresholds`).
    pub measured: Vec<String>,
    pub form: QuestionForm,
    /// Names of the drugs named that have no label in the index (they are partners).
    pub unlabelled: Vec<String>,
    /// The words of the last named class when it was only guessed by its head
    /// (`classes_by_head`): an answer that finds nothing with it is answered without it.
    pub guessed_class: Option<String>,
    /// Question words no label uses and the label words they were read as.
    pub read_as: Vec<ReadAs>,
}

impl GraphQuestion {
    /// The question without its guessed class, its words back among those not understood.
    pub fn without_guess(&self) -> Option<GraphQuestion> {
        let words = self.guessed_class.as_ref()?;
        let mut plain = self.clone();
        plain.drugs.pop();
        plain
            .unrecognized
            .extend(words.split_whitespace().map(str::to_owned));
        plain.guessed_class = None;
        Some(plain)
    }

    /// Why the question cannot be answered as asked, if it cannot.
    pub fn note(&self) -> Option<&'static str> {
        if self.drugs.is_empty() && self.conditions.is_empty() {
            Some("no drug, drug class or condition known to the graph was recognised in the question")
        } else if self.drugs.is_empty() && !self.asks_which {
            Some("no drug or drug class known to the graph was recognised; ask \"which drugs …\" to search all drugs")
        } else {
            None
        }
    }
}
