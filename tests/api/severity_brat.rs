//! The graph's negation and severity rules (`graph::severity`) against the TAC 2017 brat
//! annotations of the shared data (`eval/tac2017-ars/`): every annotated adverse reaction, read
//! in its sentence as the graph build reads it. Prints the agreement; fails if it falls below
//! what the rules reach today.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use drugcite::graph::severity::{is_negated, severity};
use drugcite::graph::{RelationType, Severity};

use crate::helpers::shared_data;

/// Severity words are read this many bytes either side of a reaction, as in the graph build.
const REACH: usize = 80;

#[derive(Default, Debug)]
struct Agreement {
    reactions: usize,
    negated_gold: usize,
    negated_ours: usize,
    negated_both: usize,
    severity_gold: usize,
    severity_agree: usize,
    severity_spurious: usize,
}

/// A reaction: its span (first fragment), whether it is annotated negated, and the texts of
/// the severity spans attached to it.
struct Reaction {
    start: usize,
    end: usize,
    negated: bool,
    severities: Vec<String>,
}

fn reactions(ann: &str) -> Vec<Reaction> {
    let mut spans: HashMap<&str, (&str, usize, usize, &str)> = HashMap::new();
    let mut events: HashMap<&str, &str> = HashMap::new();
    let mut modifiers: Vec<(&str, Vec<(&str, &str)>)> = Vec::new();
    for line in ann.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields.as_slice() {
            [id, head, text] if id.starts_with('T') => {
                let mut parts = head.split([' ', ';']);
                let kind = parts.next().unwrap_or_default();
                let start = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
                let end = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
                spans.insert(id, (kind, start, end, text));
            }
            [id, args] if id.starts_with('E') => {
                let mut args = args.split(' ').filter_map(|a| a.split_once(':'));
                if let Some((_, trigger)) = args.next() {
                    events.insert(id, trigger);
                    modifiers.push((trigger, args.collect()));
                }
            }
            _ => {}
        }
    }
    modifiers
        .into_iter()
        .filter(|(t, _)| spans.get(t).is_some_and(|s| s.0 == "AdverseReaction"))
        .map(|(trigger, args)| {
            let (_, start, end, _) = spans[trigger];
            let negated = args.iter().any(|(role, _)| role.starts_with("Negated"));
            let severities = args
                .iter()
                .filter_map(|(_, event)| spans.get(events.get(event)?))
                .filter(|s| s.0 == "Severity")
                .map(|s| s.3.to_lowercase())
                .collect();
            Reaction {
                start,
                end,
                negated,
                severities,
            }
        })
        .collect()
}

/// The sentence around `start..end`: from after the last stop before it to the next stop.
fn sentence(text: &str, start: usize, end: usize) -> (usize, usize) {
    let stop = |c: char| matches!(c, '.' | ';' | '\n');
    let from = text[..start].rfind(stop).map_or(0, |at| at + 1);
    let to = text[end..].find(stop).map_or(text.len(), |at| end + at);
    (from, to)
}

/// severe, mild or none, as annotated.
fn gold_class(severities: &[String]) -> Option<&'static str> {
    let severe = [
        "severe", "serious", "grade 3", "grade 4", "grade 5", "life", "fatal",
    ];
    if severities
        .iter()
        .any(|s| severe.iter().any(|w| s.contains(w)))
    {
        Some("severe")
    } else if severities
        .iter()
        .any(|s| s.contains("mild") || s.contains("grade 1"))
    {
        Some("mild")
    } else {
        None
    }
}

fn our_class(severity: Option<Severity>) -> Option<&'static str> {
    match severity {
        Some(Severity::Serious | Severity::LifeThreatening) => Some("severe"),
        Some(Severity::Mild) => Some("mild"),
        _ => None,
    }
}

fn on_char_boundary(text: &str, mut at: usize, forward: bool) -> usize {
    while !text.is_char_boundary(at) {
        at = if forward { at + 1 } else { at - 1 };
    }
    at
}

fn measure(dir: &Path) -> Agreement {
    let mut agreement = Agreement::default();
    let mut seen = HashSet::new();
    for entry in std::fs::read_dir(dir.join("brat")).expect("brat directory") {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(dir.join("txt").join(format!("{stem}.txt"))).unwrap();
        let ann = std::fs::read_to_string(&path).unwrap();
        for reaction in reactions(&ann) {
            if reaction.end > text.len() || !seen.insert((stem.clone(), reaction.start)) {
                continue;
            }
            let (from, to) = sentence(&text, reaction.start, reaction.end);
            let sentence_text = &text[from..to];
            let ours = is_negated(sentence_text, reaction.start - from..reaction.end - from);
            agreement.reactions += 1;
            agreement.negated_gold += usize::from(reaction.negated);
            agreement.negated_ours += usize::from(ours);
            agreement.negated_both += usize::from(ours && reaction.negated);
            let lo = on_char_boundary(&text, reaction.start.saturating_sub(REACH), false);
            let hi = on_char_boundary(&text, (reaction.end + REACH).min(text.len()), true);
            let cues = text[lo..hi].to_lowercase();
            let ours = our_class(severity(RelationType::AdverseReaction, false, &cues));
            match gold_class(&reaction.severities) {
                Some(gold) => {
                    agreement.severity_gold += 1;
                    agreement.severity_agree += usize::from(ours == Some(gold));
                }
                None => agreement.severity_spurious += usize::from(ours.is_some()),
            }
        }
    }
    agreement
}

#[test]
fn negation_and_severity_rules_agree_with_the_brat_annotations() {
    let a = measure(&shared_data().join("eval/tac2017-ars"));
    let ratio = |n: usize, d: usize| n as f64 / d.max(1) as f64;
    let precision = ratio(a.negated_both, a.negated_ours);
    let recall = ratio(a.negated_both, a.negated_gold);
    let severity_agreement = ratio(a.severity_agree, a.severity_gold);
    let spurious = ratio(a.severity_spurious, a.reactions - a.severity_gold);
    println!(
        "brat agreement over {} reactions: negation precision {precision:.3} recall {recall:.3} \
         ({} annotated, {} ours); severity agreement {severity_agreement:.3} on {} annotated, \
         severity stated where none is annotated {spurious:.3}",
        a.reactions, a.negated_gold, a.negated_ours, a.severity_gold
    );
    assert!(a.negated_gold > 50 && a.severity_gold > 300, "{a:?}");
    assert!(precision >= 0.3 && recall >= 0.3, "{a:?}");
    assert!(severity_agreement >= 0.3, "{a:?}");
}
