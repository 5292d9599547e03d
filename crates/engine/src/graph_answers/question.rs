//! A graph question as graph nodes: the question's reading (`understand::Reading`: its drugs
//! and classes, relation words, "which drugs", boxed warnings only, shared, form) mapped onto
//! the graph — drugs and classes as nodes, conditions (with curated synonyms) as the phrases
//! that count as them with the relations their nearest relation word asks, populations ("in
//! pregnancy") as population nodes, drugs without a label (graph nodes known from other labels'
//! text) and enzyme classes ("strong CYP3A4 inhibitors") as class nodes. Each drug, class and
//! condition is kept once, at most `MAX_NAMED_DRUGS` drugs and classes and `MAX_NAMED` conditions,
//! so a long question costs no more to answer than a short one. Reads no word table of its own;
//! pure: no traversal here.

use std::ops::Range;
use std::sync::Arc;

use crate::conditions::{Matcher, Purpose};
use crate::curated::ConditionSynonyms;
use crate::graph::build::target_nodes;
use crate::graph::enzymes::{enzyme_classes, question_class_names};
use crate::graph::findings::lab_findings;
use crate::graph::model::{Node, RelationType};
use crate::graph::query::{
    GraphQuestion, NamedCondition, NamedDrug, UnreadPhrase, MAX_NAMED, MAX_NAMED_DRUGS,
};
use crate::graph::relations::{Drugs, Target};
use crate::graph::Reasoner;
use crate::understand::ages::{is_pediatric, question_age};
use crate::understand::form::QuestionForm;
use crate::understand::measurements::measured;
use crate::understand::populations::{covered_names, populations};
use crate::understand::{
    default_relations, example_connector, is_filler, DrugMention, DrugVocabulary, Reading, Unasked,
};
use drugcite_core::label::LabelMeta;
use drugcite_core::text::{key_of, occurrences, words, Word, WordEdge};

/// `question` read against the graph of `reasoner`, the drug vocabulary of the live index and
/// its labels.
pub fn understand(
    reasoner: &Reasoner,
    question: &str,
    vocabulary: &DrugVocabulary,
    labels: &[Arc<LabelMeta>],
) -> GraphQuestion {
    let graph = reasoner.graph();
    let is_unlabelled = |word: &str| graph.is_unlabelled_drug(word);
    let understander = Understander {
        drugs: Drugs::new(vocabulary, labels),
        is_unlabelled: &is_unlabelled,
        matcher: reasoner.matcher(),
        synonyms: reasoner.synonyms(),
    };
    understander.understand(question)
}

/// What understanding needs from the live index and the curated data.
pub struct Understander<'a> {
    pub drugs: Drugs<'a>,
    /// Whether a word is the name of an unlabelled drug node of the graph.
    pub is_unlabelled: &'a dyn Fn(&str) -> bool,
    pub matcher: &'a Matcher,
    pub synonyms: &'a [ConditionSynonyms],
}

impl Understander<'_> {
    pub fn understand(&self, question: &str) -> GraphQuestion {
        let reading = self.drugs.vocabulary().read(question);
        let lower = reading.text.as_str();
        let mut covered: Vec<Range<usize>> = reading
            .relation_cues
            .iter()
            .map(|c| c.span.clone())
            .collect();
        // A drug named as an example of the class before it ("MAO inhibitors (e.g.,
        // selegiline)") asks about the class, not about a second partner.
        let enzyme_ends = enzyme_classes(lower).into_iter().map(|c| c.span.end);
        let connectors: Vec<Range<usize>> = enzyme_ends
            .filter_map(|end| example_connector(lower, end))
            .chain(reading.example_connectors.iter().cloned())
            .collect();
        let examples: Vec<usize> = connectors.iter().map(|c| c.end).collect();
        covered.extend(
            connectors
                .iter()
                .map(|c| c.start..word_at(lower, c.end).end),
        );
        let mentions = &reading.understanding;
        let mut drugs = self.named_drugs(lower, &mentions.drugs, &examples, &mut covered);
        drugs.extend(enzyme_drugs(lower, &mut covered));
        let unlabelled =
            self.unlabelled(lower, &mentions.unlabelled_drugs, &examples, &mut covered);
        drugs.extend(unlabelled.iter().map(|name| NamedDrug {
            nodes: vec![Node::unlabelled_drug(name)],
            is_class: false,
        }));
        drugs.truncate(MAX_NAMED_DRUGS);
        let mut conditions = self.named_populations(&reading, &mut covered);
        let age = question_age(lower);
        covered.extend(age.iter().map(|(span, _)| span.clone()));
        let measured = measured(lower);
        covered.extend(measured.iter().map(|m| m.span.clone()));
        if let Some(named) = age.as_ref().and_then(|age| self.pediatric(&reading, age)) {
            if !conditions.iter().any(|c| c.name == named.name) {
                conditions.push(named);
            }
        }
        conditions.extend(self.named_conditions(&reading, &mut covered));
        conditions.truncate(MAX_NAMED);
        let guessed_class = self
            .classes_by_head(lower, &mut covered)
            .filter(|_| drugs.len() < MAX_NAMED_DRUGS)
            .map(|(class, words)| {
                drugs.push(class);
                words
            });
        let mut relation_types = reading.relation_types();
        let form = reading.form;
        let two_drugs = drugs.len() > 1 && conditions.is_empty();
        if form == QuestionForm::YesNo && two_drugs && relation_types.is_empty() {
            relation_types = default_relations(Unasked::TwoDrugsYesNo);
        }
        // The common side effects are ordered by how often the label says they occur: its
        // adverse reactions, not its warnings.
        if form == QuestionForm::CommonSideEffects {
            relation_types.retain(|k| *k != RelationType::Warning);
        }
        GraphQuestion {
            drugs,
            conditions,
            relation_types,
            asks_which: reading.asks_which,
            boxed_only: reading.boxed_only,
            shared: reading.shared,
            unrecognized: reading.unrecognized(&covered),
            age_months: age.map(|(_, years)| (years * 12.0).round() as u32),
            measured: measured
                .iter()
                .map(|m| lower[m.span.clone()].to_owned())
                .collect(),
            unread_phrases: reading
                .unrecognized_runs(&covered)
                .into_iter()
                .map(|run| UnreadPhrase {
                    relations: reading.governing_relations(&run),
                    text: reading.text[run].to_owned(),
                })
                .collect(),
            form,
            unlabelled,
            guessed_class,
            read_as: reading.read_as,
        }
    }

    /// The drugs without a label the question names that are unlabelled drug nodes of the
    /// graph: those the vocabulary knows (it also knows curated names and drug-name stems the
    /// graph has no node for — those stay "not understood"), and other words of the question.
    fn unlabelled(
        &self,
        lower: &str,
        known: &[String],
        examples: &[usize],
        covered: &mut Vec<Range<usize>>,
    ) -> Vec<String> {
        let is_example = |name: &str| lower.find(name).is_some_and(|at| examples.contains(&at));
        let mut names: Vec<String> = known
            .iter()
            .filter(|name| (self.is_unlabelled)(name) && !is_example(name))
            .cloned()
            .collect();
        for word in words(lower) {
            let text = &lower[word.span.clone()];
            let is_covered = covered
                .iter()
                .any(|r| r.start <= word.span.start && word.span.end <= r.end);
            if !is_covered && !names.iter().any(|n| n == text) && (self.is_unlabelled)(text) {
                names.push(text.to_owned());
            }
        }
        for name in &names {
            covered.extend(phrase_spans(lower, name));
        }
        names
    }

    /// The drugs and classes the question names, but for drugs named as examples of a class
    /// (`examples`: where they start), which the class already stands for.
    fn named_drugs(
        &self,
        lower: &str,
        mentions: &[DrugMention],
        examples: &[usize],
        covered: &mut Vec<Range<usize>>,
    ) -> Vec<NamedDrug> {
        let mut named = Vec::new();
        for mention in mentions {
            let at = lower.find(&mention.word);
            if mention.class.is_none() && at.is_some_and(|at| examples.contains(&at)) {
                continue;
            }
            let (target, is_class) = match &mention.class {
                Some(class) => (Some(Target::Class(class.clone())), true),
                None => (self.drugs.named(&mention.word, &mention.labels), false),
            };
            let Some(target) = target else { continue };
            if let Some(at) = at {
                let end = at + mention.word.len();
                covered.push(at..end);
                covered.extend(self.renamed_after(lower, end, &target));
            }
            let drug = NamedDrug {
                nodes: target_nodes(&target, self.drugs.labels()),
                is_class,
            };
            if named.len() < MAX_NAMED && !named.contains(&drug) {
                named.push(drug);
            }
        }
        named
    }

    /// The word right after `end` (past spaces, a comma, slash or opening bracket) when it names
    /// the same drug as `target` ("Zoloft" of "sertraline (Zoloft)"): read with the mention.
    fn renamed_after(&self, lower: &str, end: usize, target: &Target) -> Option<Range<usize>> {
        let start = lower.len() - lower[end..].trim_start_matches([' ', '(', ',', '/']).len();
        let word = word_at(lower, start);
        let named = (!word.is_empty()).then(|| self.drugs.by_name(&lower[word.clone()]));
        (named.flatten().as_ref() == Some(target)).then_some(word)
    }

    /// Classes named by a phrase of the question's own that ends in the last two words of
    /// class names, among the words nothing else accounted for ("iodinated contrast agents" →
    /// every "… contrast agent" class: radiographic, gadolinium-based, …), read by that head,
    /// with the words read. A guess: the answer drops it when it finds nothing with it ("CYP
    /// enzyme inhibitors" is not the angiotensin converting enzyme inhibitors).
    fn classes_by_head(
        &self,
        lower: &str,
        covered: &mut Vec<Range<usize>>,
    ) -> Option<(NamedDrug, String)> {
        let is_free = |w: &Word| {
            !covered
                .iter()
                .any(|r| r.start <= w.span.start && w.span.end <= r.end)
                && !is_filler(&w.norm)
                && w.norm.chars().all(char::is_alphabetic)
        };
        let free: Vec<Word> = words(lower).into_iter().filter(is_free).collect();
        let vocabulary_classes = self.drugs.vocabulary().classes();
        let names = vocabulary_classes.keys().copied();
        let (classes, span) = crate::graph::heads::classes_by_head(lower, &free, names)?;
        covered.push(span.clone());
        let class = NamedDrug {
            nodes: classes.iter().map(|n| Node::class(n)).collect(),
            is_class: true,
        };
        Some((class, lower[span].to_owned()))
    }

    /// Populations and settings the question names, as conditions standing for population nodes
    /// and for the conditions of the same words ("renal impairment").
    fn named_populations(
        &self,
        reading: &Reading,
        covered: &mut Vec<Range<usize>>,
    ) -> Vec<NamedCondition> {
        let lower = reading.text.as_str();
        populations(lower)
            .into_iter()
            .map(|mention| {
                covered.push(mention.span.clone());
                NamedCondition {
                    text: lower[mention.span.clone()].to_owned(),
                    ids: covered_names(&mention.name)
                        .iter()
                        .map(|n| Node::population(n).id)
                        .collect(),
                    keys: self.phrases_of(base_name(&mention.name)),
                    relations: reading.governing_relations(&mention.span),
                    name: mention.name,
                }
            })
            .collect()
    }

    /// The pediatric population of a question about a person younger than the pediatric age
    /// (`thresholds.tsv`: `pediatric_below_years`), as if it had named "pediatric patients".
    fn pediatric(&self, reading: &Reading, age: &(Range<usize>, f32)) -> Option<NamedCondition> {
        let (span, years) = age;
        if !is_pediatric(*years) {
            return None;
        }
        let name = populations("pediatric patients").into_iter().next()?.name;
        Some(NamedCondition {
            text: reading.text[span.clone()].to_owned(),
            ids: covered_names(&name)
                .iter()
                .map(|n| Node::population(n).id)
                .collect(),
            keys: self.phrases_of(base_name(&name)),
            relations: reading.governing_relations(span),
            name,
        })
    }

    /// Normalised keys of `name` and of its curated synonyms.
    fn phrases_of(&self, name: &str) -> Vec<String> {
        let key = key_of(name);
        self.synonyms
            .iter()
            .find(|g| g.phrases.iter().any(|p| key_of(p) == key))
            .map_or_else(
                || vec![key.clone()],
                |g| g.phrases.iter().map(|p| key_of(p)).collect(),
            )
    }

    /// Normalised keys of `phrases` and of the condition each reads as in label text, when
    /// the reading drops no more than a leading word ("major adverse cardiovascular events"
    /// reads as the label's "adverse cardiovascular event"; "mace" is its synonym).
    fn keys_as_labels_read(&self, phrases: &[String]) -> Vec<String> {
        let mut keys: Vec<String> = phrases.iter().map(|p| key_of(p)).collect();
        for phrase in phrases {
            let read = self.matcher.find(phrase, Purpose::Outcomes).into_iter();
            let whole = read.filter(|m| {
                m.span.end == phrase.len() && phrase[..m.span.start].split_whitespace().count() <= 1
            });
            keys.extend(whole.map(|m| key_of(&m.condition_name)));
        }
        keys.sort();
        keys.dedup();
        keys
    }

    fn named_conditions(
        &self,
        reading: &Reading,
        covered: &mut Vec<Range<usize>>,
    ) -> Vec<NamedCondition> {
        let lower = reading.text.as_str();
        let mut spans: Vec<(Range<usize>, String, Vec<String>)> = Vec::new();
        for group in self.synonyms {
            for phrase in &group.phrases {
                for span in phrase_spans(lower, phrase) {
                    spans.push((span, group.phrases[0].clone(), group.phrases.clone()));
                }
            }
        }
        for finding in lab_findings(lower) {
            let name = lower[finding.span.clone()].to_owned();
            spans.push((finding.span, name, finding.phrases));
        }
        for mention in self.matcher.find(lower, Purpose::Conditions) {
            let synonyms = self
                .synonyms
                .iter()
                .find(|g| g.phrases.iter().any(|p| key_of(p) == mention.key));
            let phrases = synonyms.map_or_else(|| vec![mention.key.clone()], |g| g.phrases.clone());
            spans.push((mention.span, mention.condition_name, phrases));
        }
        spans.sort_by(|a, b| a.0.start.cmp(&b.0.start).then(b.0.end.cmp(&a.0.end)));
        let mut named: Vec<NamedCondition> = Vec::new();
        let mut taken: Vec<Range<usize>> = Vec::new();
        for (span, name, phrases) in spans {
            let overlaps = |r: &Range<usize>| r.start < span.end && span.start < r.end;
            if taken.iter().any(overlaps) || covered.iter().any(overlaps) {
                continue;
            }
            taken.push(span.clone());
            let keys = self.keys_as_labels_read(&phrases);
            add_condition(
                &mut named,
                NamedCondition {
                    text: lower[span.clone()].to_owned(),
                    name,
                    keys,
                    ids: Vec::new(),
                    relations: reading.governing_relations(&span),
                },
            );
        }
        covered.extend(taken);
        named
    }
}

/// Enzyme and transporter classes the question names, as classes standing for every class
/// node of the graph they cover (see `enzymes::question_class_names`).
fn enzyme_drugs(lower: &str, covered: &mut Vec<Range<usize>>) -> Vec<NamedDrug> {
    enzyme_classes(lower)
        .into_iter()
        .map(|class| {
            covered.push(class.span.clone());
            NamedDrug {
                nodes: question_class_names(&class)
                    .iter()
                    .map(|n| Node::class(n))
                    .collect(),
                is_class: true,
            }
        })
        .collect()
}

/// Where `phrase` occurs in `lower` on word boundaries (a plural `s` allowed), and the singular
/// of a plural phrase of several words ("a blood clot" of "blood clots").
fn phrase_spans(lower: &str, phrase: &str) -> Vec<Range<usize>> {
    let singular = phrase
        .strip_suffix('s')
        .filter(|rest| !rest.ends_with('s') && rest.contains(' '));
    let mut spans: Vec<Range<usize>> =
        occurrences(lower, phrase, WordEdge::WholeOrPlural).collect();
    if let Some(singular) = singular {
        let more = occurrences(lower, singular, WordEdge::Whole);
        spans.extend(
            more.filter(|s| !spans.iter().any(|t| t.start == s.start))
                .collect::<Vec<_>>(),
        );
    }
    spans
}

/// The span of the word starting at `start` (letters, digits and hyphens).
fn word_at(lower: &str, start: usize) -> Range<usize> {
    let length = lower[start..]
        .find(|c: char| !c.is_alphanumeric() && c != '-')
        .unwrap_or(lower.len() - start);
    start..start + length
}

/// A population's name without its grade: the condition words it shares with the vocabularies.
fn base_name(name: &str) -> &str {
    name.split_once(" (").map_or(name, |(base, _)| base)
}

/// Adds a condition unless the same one is already named with the same relation types (a
/// repeat asks nothing new); past `MAX_NAMED` distinct conditions the rest are left out.
fn add_condition(named: &mut Vec<NamedCondition>, condition: NamedCondition) {
    let repeat = named
        .iter()
        .any(|c| c.keys == condition.keys && c.relations == condition.relations);
    if !repeat && named.len() < MAX_NAMED {
        named.push(condition);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plural_phrase_is_also_found_in_the_singular() {
        let lower = "i have a blood clot in my leg";
        assert_eq!(phrase_spans(lower, "blood clots").first(), Some(&(9..19)));
        assert_eq!(phrase_spans("two blood clots", "blood clots").len(), 1);
        assert!(phrase_spans("diabetes", "diabetes").len() == 1);
    }
}
