//! Verdict scoring for yes/no questions at POST /v1/graph, in the format of
//! `eval/verdict-questions.jsonl` (issue 54): how cautious each verdict is, which verdicts an
//! expectation accepts, when a verdict is dangerous or a false alarm, and whether the evidence
//! cites the label sentence. Pure; asking the server and printing is `verdicts_cli`.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use serde_json::Value;

/// One line of a verdict question file.
#[derive(Clone, Debug, Deserialize)]
pub struct VerdictQuestion {
    pub id: String,
    pub shape: String,
    pub question: String,
    pub drug: String,
    pub target: String,
    pub expect: Expect,
    pub why: Why,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Why {
    pub set_id: String,
    pub section: Option<String>,
    pub text: Option<String>,
}

/// What the label says, as the annotator read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expect {
    Contraindicated,
    Avoid,
    /// A boxed warning: met by a `warning` whose evidence is in the Boxed Warning, or anything
    /// more cautious.
    BoxedWarning,
    /// A warning or precaution: met by `warning`, `interaction_stated` or `use_with_caution`.
    Warning,
    /// The same band as `Warning` (an interaction with a dose change or monitoring to do).
    UseWithCaution,
    NotStated,
    NoInteractionStated,
}

/// The caution rank of `boxed_warning`, of a plain `warning`, and of nothing stated.
const BOXED: u8 = 2;
const WARNING: u8 = 5;
const NOTHING: u8 = 8;

/// How cautious a verdict is: 0 the most (`contraindicated`), 8 the least (nothing stated), in
/// the order of the engine's `Verdict`; `None` for a value the scorer does not know.
pub fn caution(verdict: &str) -> Option<u8> {
    Some(match verdict {
        "contraindicated" => 0,
        "avoid" => 1,
        "boxed_warning" => 2,
        "use_with_caution" => 3,
        "interaction_stated" => 4,
        "warning" => 5,
        "adverse_reaction" => 6,
        "indicated" => 7,
        "no_interaction_stated" | "not_stated" | "no_label_indexed" => NOTHING,
        _ => return None,
    })
}

impl Expect {
    /// The band of caution ranks (most, least cautious) that answers the expectation exactly.
    pub fn band(self) -> (u8, u8) {
        match self {
            Expect::Contraindicated => (0, 0),
            Expect::Avoid => (1, 1),
            Expect::BoxedWarning => (0, WARNING),
            Expect::Warning | Expect::UseWithCaution => (2, WARNING),
            Expect::NotStated | Expect::NoInteractionStated => (NOTHING, NOTHING),
        }
    }

    fn expects_nothing(self) -> bool {
        matches!(self, Expect::NotStated | Expect::NoInteractionStated)
    }
}

/// One answer's outcome against its expectation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    Correct,
    /// Less cautious than the label (a missing verdict where one was expected, too).
    Dangerous,
    /// More cautious than the label.
    FalseAlarm,
    /// No verdict (or an unknown value) where the label states nothing: wrong, not dangerous.
    NoVerdict,
}

/// The outcome of `verdict` (the answer's `data.verdict`, `None` when absent or null);
/// `boxed` tells whether some returned warning cites the Boxed Warning.
pub fn judge(expect: Expect, verdict: Option<&str>, boxed: bool) -> Outcome {
    let Some(rank) = verdict.and_then(caution) else {
        return if expect.expects_nothing() {
            Outcome::NoVerdict
        } else {
            Outcome::Dangerous
        };
    };
    let (most, least) = expect.band();
    if rank < most {
        Outcome::FalseAlarm
    } else if rank > least || (expect == Expect::BoxedWarning && rank > BOXED && !boxed) {
        Outcome::Dangerous
    } else {
        Outcome::Correct
    }
}

/// Whether some returned `warning` relationship has evidence from the Boxed Warning.
pub fn has_boxed_warning(relationships: &[Value]) -> bool {
    relationships.iter().any(|rel| {
        rel["type"] == "warning"
            && rel["evidence"].as_array().is_some_and(|evidence| {
                evidence.iter().any(|e| {
                    e["section"]
                        .as_str()
                        .is_some_and(|s| s.to_lowercase().contains("boxed"))
                })
            })
    })
}

const STOP: &[&str] = &[
    "with",
    "that",
    "this",
    "these",
    "those",
    "from",
    "have",
    "been",
    "were",
    "which",
    "their",
    "there",
    "patients",
    "patient",
    "contraindicated",
    "known",
    "other",
    "into",
    "when",
    "also",
    "should",
    "because",
    "including",
    "used",
    "use",
    "such",
    "than",
    "more",
    "less",
    "tablets",
    "injection",
    "history",
];

/// The words of a label sentence that evidence must repeat: lowercase words of four letters or
/// more, not in `STOP`, each once.
pub fn key_words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() >= 4 && !STOP.contains(&w.as_str()))
        .collect()
}

/// Share of a sentence's key words an evidence text must contain to cite it.
const CITED_SHARE: f64 = 0.6;

/// Whether some returned relationship's evidence text contains at least `CITED_SHARE` of the
/// key words of `why` (`None` when the question has no label sentence or it has no key word).
pub fn evidence_cited(why: Option<&str>, relationships: &[Value]) -> Option<bool> {
    let words = key_words(why?);
    if words.is_empty() {
        return None;
    }
    let cites = |text: &str| {
        let text = text.to_lowercase();
        let found = words.iter().filter(|w| text.contains(w.as_str())).count();
        found as f64 >= CITED_SHARE * words.len() as f64
    };
    Some(relationships.iter().any(|rel| {
        rel["evidence"].as_array().is_some_and(|evidence| {
            evidence
                .iter()
                .any(|e| cites(e["text"].as_str().unwrap_or_default()))
        })
    }))
}

/// One scored question.
#[derive(Clone, Debug)]
pub struct Scored {
    pub shape: String,
    pub outcome: Outcome,
    pub cited: Option<bool>,
}

/// Printable counts of a group of scored questions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Row {
    pub n: usize,
    pub correct: usize,
    pub dangerous: usize,
    pub false_alarms: usize,
    pub no_verdict: usize,
    pub cited: usize,
    pub citable: usize,
}

impl Row {
    pub fn accuracy(&self) -> f64 {
        self.correct as f64 / self.n.max(1) as f64
    }

    fn add(&mut self, scored: &Scored) {
        self.n += 1;
        match scored.outcome {
            Outcome::Correct => self.correct += 1,
            Outcome::Dangerous => self.dangerous += 1,
            Outcome::FalseAlarm => self.false_alarms += 1,
            Outcome::NoVerdict => self.no_verdict += 1,
        }
        if let Some(cited) = scored.cited {
            self.citable += 1;
            self.cited += usize::from(cited);
        }
    }
}

/// Rows per shape (alphabetically), then the contraindication statements together (every shape
/// but `warning_pair` and `negative`), then `overall`.
pub fn rows(scored: &[Scored]) -> Vec<(String, Row)> {
    let mut shapes: BTreeMap<String, Row> = BTreeMap::new();
    let (mut contra, mut all) = (Row::default(), Row::default());
    for s in scored {
        shapes.entry(s.shape.clone()).or_default().add(s);
        if s.shape != "warning_pair" && s.shape != "negative" {
            contra.add(s);
        }
        all.add(s);
    }
    let mut out: Vec<(String, Row)> = shapes.into_iter().collect();
    out.push(("contraindications".into(), contra));
    out.push(("overall".into(), all));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn less_cautious_is_dangerous_more_cautious_a_false_alarm() {
        use Outcome::*;
        let c = Expect::Contraindicated;
        assert_eq!(judge(c, Some("contraindicated"), false), Correct);
        assert_eq!(judge(c, Some("avoid"), false), Dangerous);
        assert_eq!(judge(c, Some("warning"), true), Dangerous);
        assert_eq!(judge(c, Some("not_stated"), false), Dangerous);
        assert_eq!(
            judge(c, None, false),
            Dangerous,
            "no verdict for a label statement"
        );
        assert_eq!(
            judge(c, Some("maybe"), false),
            Dangerous,
            "an unknown value"
        );
        assert_eq!(
            judge(Expect::Avoid, Some("contraindicated"), false),
            FalseAlarm
        );
        assert_eq!(
            judge(Expect::Avoid, Some("use_with_caution"), false),
            Dangerous
        );
        for w in [Expect::Warning, Expect::UseWithCaution] {
            assert_eq!(judge(w, Some("warning"), false), Correct);
            assert_eq!(judge(w, Some("use_with_caution"), false), Correct);
            assert_eq!(judge(w, Some("interaction_stated"), false), Correct);
            assert_eq!(judge(w, Some("avoid"), false), FalseAlarm);
            assert_eq!(judge(w, Some("adverse_reaction"), false), Dangerous);
        }
        let n = Expect::NotStated;
        assert_eq!(judge(n, Some("not_stated"), false), Correct);
        assert_eq!(judge(n, Some("no_interaction_stated"), false), Correct);
        assert_eq!(judge(n, Some("adverse_reaction"), false), FalseAlarm);
        assert_eq!(judge(n, None, false), NoVerdict);
    }

    #[test]
    fn a_boxed_warning_needs_boxed_evidence_or_more_caution() {
        let b = Expect::BoxedWarning;
        assert_eq!(judge(b, Some("warning"), true), Outcome::Correct);
        assert_eq!(judge(b, Some("warning"), false), Outcome::Dangerous);
        assert_eq!(judge(b, Some("avoid"), false), Outcome::Correct);
        assert_eq!(judge(b, Some("boxed_warning"), false), Outcome::Correct);
        assert_eq!(
            judge(Expect::Warning, Some("boxed_warning"), false),
            Outcome::Correct
        );
        assert_eq!(judge(b, Some("contraindicated"), false), Outcome::Correct);
        assert_eq!(judge(b, Some("adverse_reaction"), true), Outcome::Dangerous);
        let boxed = json!({"type": "warning", "evidence": [{"section": "Boxed Warning"}]});
        let plain =
            json!({"type": "warning", "evidence": [{"section": "Warnings and Precautions"}]});
        let other = json!({"type": "adverse_reaction", "evidence": [{"section": "Boxed Warning"}]});
        assert!(has_boxed_warning(&[plain.clone(), boxed]));
        assert!(!has_boxed_warning(&[plain, other]));
    }

    #[test]
    fn the_caution_order_is_the_engines_verdict_order() {
        let order = [
            "contraindicated",
            "avoid",
            "boxed_warning",
            "use_with_caution",
            "interaction_stated",
            "warning",
            "adverse_reaction",
            "indicated",
            "no_interaction_stated",
        ];
        let ranks: Vec<u8> = order.iter().map(|v| caution(v).unwrap()).collect();
        assert!(ranks.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(caution("not_stated"), caution("no_interaction_stated"));
    }

    #[test]
    fn evidence_cites_a_sentence_when_it_repeats_most_of_its_key_words() {
        let why = "Patients with a history of seizures are contraindicated.";
        assert_eq!(key_words(why).into_iter().collect::<Vec<_>>(), ["seizures"]);
        let sentence =
            "Amiloride should not be given to patients receiving spironolactone or triamterene.";
        let hit = json!({"evidence": [{"text": "… AMILORIDE should not be GIVEN to patients receiving spironolactone, triamterene …"}]});
        let miss = json!({"evidence": [{"text": "Amiloride and hyperkalemia."}]});
        assert_eq!(
            evidence_cited(Some(sentence), &[miss.clone(), hit]),
            Some(true)
        );
        assert_eq!(evidence_cited(Some(sentence), &[miss]), Some(false));
        assert_eq!(evidence_cited(None, &[]), None);
    }

    #[test]
    fn rows_count_outcomes_per_shape_and_for_the_contraindications() {
        let s = |shape: &str, outcome, cited| Scored {
            shape: shape.into(),
            outcome,
            cited,
        };
        let scored = [
            s("list", Outcome::Correct, Some(true)),
            s("list", Outcome::Dangerous, Some(false)),
            s("negative", Outcome::FalseAlarm, None),
            s("warning_pair", Outcome::Correct, Some(true)),
        ];
        let rows = rows(&scored);
        let get = |name: &str| rows.iter().find(|(n, _)| n == name).unwrap().1;
        assert_eq!(get("list").dangerous, 1);
        assert_eq!(get("list").accuracy(), 0.5);
        assert_eq!(get("contraindications").n, 2);
        let all = get("overall");
        assert_eq!((all.n, all.correct, all.false_alarms), (4, 2, 1));
        assert_eq!((all.cited, all.citable), (2, 3));
        assert_eq!(rows.last().unwrap().0, "overall");
    }

    #[test]
    fn a_question_line_parses() {
        let line = r#"{"id":"v001","shape":"list","question":"q","drug":"d","target":"t",
            "target_kind":"condition","expect":"boxed_warning",
            "why":{"set_id":"s","section":"Boxed Warning","text":"x"},"qualifier":null}"#;
        let q: VerdictQuestion = serde_json::from_str(line).unwrap();
        assert_eq!(q.expect, Expect::BoxedWarning);
        assert!(
            serde_json::from_str::<VerdictQuestion>(&line.replace("boxed_warning", "maybe"))
                .is_err()
        );
    }
}
