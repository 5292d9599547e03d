//! The floor of a yes/no verdict read by meaning: when the graph and the floor sentences that
//! name the asked thing (`label_floor`) stay below a contraindication, each phrase the question
//! asks about (without the drug's names, none of the drug's own description) is compared, by
//! sentence embedding, with each more cautious sentence of the named drug's floor sections; the
//! most cautious sentence whose similarity reaches the fitted `meaning_floor_similarity` adds its
//! statement with that similarity shown. Only ever adds caution; never runs without the
//! transformer model.

use std::collections::BTreeSet;
use std::sync::{Arc, LazyLock};

use moka::sync::Cache;

use super::answer::{AnsweredRelationship, EvidenceText};
use super::label_floor::{
    allergy_words, floor_texts, labels_of, relationship, subjects, FloorText, TEXT_ID_PREFIX,
};
use super::own_words::{content_words, words, OwnWords};
use super::verdict::{stated_verdict, warning_instruction, Instruction, Verdict};
use crate::embed::{dot, Embedder};
use crate::error::EngineError;
use crate::graph::relations::{sentence_relation, sentences};
use crate::graph::wording::{text_key, threshold};
use crate::graph::{GraphQuestion, Node, NodeKind, RelationType};
use crate::index::Live;
use crate::search::collapse::AlsoIn;
use crate::verify::Verifier;
use drugcite_core::text::contains_any_word;

/// The least cosine similarity between a question and a floor sentence for the sentence to
/// answer it (`thresholds.tsv`: `meaning_floor_similarity`).
static SIMILARITY: LazyLock<f32> = LazyLock::new(|| threshold("meaning_floor_similarity") as f32);
/// Sentence vectors kept across questions.
const CACHED_SENTENCES: u64 = 50_000;
/// The fewest words of three letters or more a sentence needs to state something.
const MIN_CONTENT_WORDS: usize = 4;
/// The longest target name made of a sentence, in characters (the whole text is the evidence).
const TARGET_CHARS: usize = 160;

/// Compares questions with the floor sentences of the drugs they name, by meaning.
pub struct MeaningFloor {
    embedder: Arc<Embedder>,
    vectors: Cache<String, Arc<Vec<f32>>>,
}

/// A floor sentence more cautious than the verdict so far.
struct Candidate {
    /// The sentence without the drug's names, as compared.
    compared: String,
    sentence: String,
    /// What the sentence states, with what it says to do (`warning_instruction`).
    stated: (RelationType, Option<Instruction>),
    verdict: Verdict,
    /// Its text's index among the floor texts read.
    evidence: usize,
}

impl MeaningFloor {
    pub fn new(embedder: Arc<Embedder>) -> Self {
        Self {
            embedder,
            vectors: Cache::new(CACHED_SENTENCES),
        }
    }

    /// The statement of the floor sentence closest in meaning to the question, for each drug it
    /// names, when close enough and more cautious than `below`.
    pub fn statements(
        &self,
        live: &Live,
        verifier: &Verifier,
        question: &GraphQuestion,
        wording: &str,
        below: Verdict,
    ) -> Result<Vec<AnsweredRelationship>, EngineError> {
        let asks_allergy = contains_any_word(&wording.to_lowercase(), &allergy_words());
        let mut statements = Vec::new();
        for subject in subjects(live, question) {
            let labels = labels_of(live, &subject.name);
            let own = OwnWords::of(live, verifier, &subject.name)?;
            let phrases = asked_phrases(question, &own);
            let texts = floor_texts(live, verifier, &labels)?;
            let candidates = candidates(&texts, &own.names, below, asks_allergy);
            if phrases.is_empty() || candidates.is_empty() {
                continue;
            }
            let phrase_texts: Vec<&str> = phrases.iter().map(String::as_str).collect();
            let phrases = self.vectors(&phrase_texts)?;
            let compared: Vec<&str> = candidates.iter().map(|c| c.compared.as_str()).collect();
            let similarities = self.vectors(&compared)?.into_iter().map(|sentence| {
                phrases
                    .iter()
                    .map(|phrase| dot(phrase, &sentence))
                    .fold(f32::MIN, f32::max)
            });
            let answering = most_cautious_close(candidates.iter().zip(similarities));
            if let Some((similarity, best)) = answering {
                let stated = statement(&subject, best, &texts[best.evidence], similarity);
                let known = statements.iter().any(|s: &AnsweredRelationship| {
                    s.drug == stated.drug && s.target.id == stated.target.id
                });
                if !known {
                    statements.push(stated);
                }
            }
        }
        Ok(statements)
    }

    /// The transformer's vectors of `texts`, in order: remembered ones, the others embedded one
    /// by one (no padding: on 2 cores a batch of sentences of mixed length costs more) and
    /// remembered.
    fn vectors(&self, texts: &[&str]) -> Result<Vec<Arc<Vec<f32>>>, EngineError> {
        texts
            .iter()
            .map(|text| {
                if let Some(vector) = self.vectors.get(*text) {
                    return Ok(vector);
                }
                let vector = Arc::new(self.embedder.embed(&[text])?.pop().unwrap_or_default());
                self.vectors.insert((*text).to_owned(), Arc::clone(&vector));
                Ok(vector)
            })
            .collect()
    }
}

/// The most cautious candidate at or above `meaning_floor_similarity`, the closest among equals,
/// with its similarity.
fn most_cautious_close<'c>(
    scored: impl Iterator<Item = (&'c Candidate, f32)>,
) -> Option<(f32, &'c Candidate)> {
    scored
        .filter(|(_, similarity)| *similarity >= *SIMILARITY)
        .min_by(|(a, x), (b, y)| a.verdict.cmp(&b.verdict).then(y.total_cmp(x)))
        .map(|(candidate, similarity)| (similarity, candidate))
}

/// What the question asks about besides its drug, each as written: the conditions read and
/// the runs of words nothing read, without the drug's names, and none the drug's own
/// description holds every word of (`own`).
fn asked_phrases(question: &GraphQuestion, own: &OwnWords) -> Vec<String> {
    let written = question.conditions.iter().map(|c| c.text.as_str());
    let unread = question.unread_phrases.iter().map(|p| p.text.as_str());
    let mut phrases: Vec<String> = written
        .chain(unread)
        .map(|p| without_words(p, &own.names))
        .filter(|p| content_words(p).next().is_some() && !own.describe(p))
        .collect();
    phrases.sort();
    phrases.dedup();
    phrases
}

/// The floor sentences of `texts` more cautious than `below`, each distinct sentence once,
/// allergy sentences only when the question asks about an allergy.
fn candidates(
    texts: &[FloorText],
    names: &BTreeSet<String>,
    below: Verdict,
    asks_allergy: bool,
) -> Vec<Candidate> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for (at, text) in texts.iter().enumerate() {
        let boxed = text.section == "boxed_warning";
        for range in sentences(&text.segment.text) {
            let sentence = text.segment.text[range].trim();
            let lower = sentence.to_lowercase();
            if !asks_allergy && contains_any_word(&lower, &allergy_words()) {
                continue;
            }
            let Some(kind) = sentence_relation(text.kind, &lower) else {
                continue;
            };
            let told = warning_instruction(kind, &lower);
            let Some(verdict) = stated_verdict(kind, told, boxed).filter(|v| *v < below) else {
                continue;
            };
            let compared = without_words(sentence, names);
            if !states_something(&compared) || !seen.insert(text_key(&compared)) {
                continue;
            }
            out.push(Candidate {
                compared,
                sentence: sentence.to_owned(),
                stated: (kind, told),
                verdict,
                evidence: at,
            });
        }
    }
    out
}

/// Whether a sentence has words enough to state something: a heading with "None." or a
/// cross-reference ("( 4 )") has not.
fn states_something(sentence: &str) -> bool {
    content_words(sentence).count() >= MIN_CONTENT_WORDS
}

/// `text` without the words in `names` (compared lowercase, punctuation aside).
fn without_words(text: &str, names: &BTreeSet<String>) -> String {
    text.split_whitespace()
        .filter(|w| {
            let bare: String = words(w).collect::<Vec<_>>().join(" ");
            bare.is_empty() || !bare.split(' ').all(|part| names.contains(part))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The statement of the candidate `best` of `text`: its sentence (cut to `TARGET_CHARS`) as
/// the target, `text` as the evidence, the similarity shown.
fn statement(
    subject: &Node,
    best: &Candidate,
    text: &FloorText,
    similarity: f32,
) -> AnsweredRelationship {
    let name: String = if best.sentence.chars().count() > TARGET_CHARS {
        let cut: String = best.sentence.chars().take(TARGET_CHARS).collect();
        format!("{cut}…")
    } else {
        best.sentence.clone()
    };
    let target = Node {
        id: format!("{TEXT_ID_PREFIX}{}", text_key(&best.compared)),
        kind: NodeKind::Condition,
        name,
        unlabelled: false,
    };
    let evidence = EvidenceText {
        segment: Arc::clone(&text.segment),
        also_in: AlsoIn::default(),
    };
    let mut stated = relationship(subject, &target, best.stated, text.section, evidence);
    stated.meaning = Some(similarity);
    stated
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> BTreeSet<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn the_drugs_names_are_left_out_of_what_is_compared() {
        let names = names(&["eszopiclone", "lunesta"]);
        assert_eq!(
            without_words("Can she keep using Lunesta (eszopiclone)?", &names),
            "Can she keep using"
        );
        assert_eq!(
            without_words("LUNESTA is contraindicated in patients", &names),
            "is contraindicated in patients"
        );
    }

    #[test]
    fn a_heading_or_a_cross_reference_states_nothing() {
        assert!(!states_something("4 CONTRAINDICATIONS None."));
        assert!(!states_something("( 4 )"));
        assert!(states_something(
            "Do not use in patients with severe hepatic impairment."
        ));
    }

    #[test]
    fn a_word_only_partly_a_name_stays() {
        let names = names(&["sodium", "oxybate"]);
        assert_eq!(
            without_words("sodium-free diet with oxybate", &names),
            "sodium-free diet with"
        );
    }
}
