//! "Most common side effects": the label's own order. A drug's adverse reactions are put in the
//! order its "most common" (or "most frequent") sentences list them, those no such sentence
//! names after, in the reasoner's order. Reads evidence text through verify; no traversal.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::LazyLock;

use super::service::GraphService;
use crate::error::EngineError;
use crate::graph::reason::Found;
use crate::graph::wording;
use crate::graph::RelationType;
use crate::verify::Verification;
use drugcite_core::domain::Fingerprint;
use drugcite_core::text::{occurrences, WordEdge};

/// How far after "most common" a listed reaction still counts as listed by it (bytes).
static LIST_REACH: LazyLock<usize> = LazyLock::new(|| wording::count("list_reach"));
/// The words that open a label's most common reactions (`label-cues.tsv`).
static LIST_OPENINGS: LazyLock<Vec<String>> =
    LazyLock::new(|| wording::label_cues("most-common-list", "substring"));

impl GraphService {
    /// Reorders `found` (adverse reactions first) by where the label's "most common" lists
    /// name each target; stable for everything else.
    pub(super) fn order_by_label_frequency(
        &self,
        found: &mut [Found<'_>],
    ) -> Result<(), EngineError> {
        let mut lists: HashMap<Fingerprint, Option<String>> = HashMap::new();
        for f in found
            .iter()
            .filter(|f| f.edge.kind == RelationType::AdverseReaction)
        {
            for evidence in &f.edge.evidence {
                if let Entry::Vacant(slot) = lists.entry(evidence.fingerprint) {
                    slot.insert(self.most_common_list(evidence.fingerprint)?);
                }
            }
        }
        let rank_of = |f: &Found| -> (bool, usize) {
            let name = f.target.name.to_lowercase();
            let position = f
                .edge
                .evidence
                .iter()
                .filter_map(|e| {
                    let list = lists.get(&e.fingerprint)?.as_ref()?;
                    occurrences(list, &name, WordEdge::WholeOrPlural).next()
                })
                .map(|span| span.start)
                .min();
            let is_reaction = f.edge.kind == RelationType::AdverseReaction;
            match position {
                Some(at) if is_reaction => (false, at),
                _ => (true, usize::MAX),
            }
        };
        found.sort_by_cached_key(rank_of);
        Ok(())
    }

    /// The lowercase text after "most common"/"most frequent" in the segment, if it says so.
    fn most_common_list(&self, fingerprint: Fingerprint) -> Result<Option<String>, EngineError> {
        let Verification::Verified(segment) = self.verify(fingerprint)? else {
            return Ok(None);
        };
        let lower = segment.text.to_lowercase();
        let start = LIST_OPENINGS
            .iter()
            .filter_map(|cue| lower.find(cue.as_str()))
            .min();
        Ok(start.map(|at| {
            let mut end = (at + *LIST_REACH).min(lower.len());
            while !lower.is_char_boundary(end) {
                end += 1;
            }
            lower[at..end].to_owned()
        }))
    }
}
