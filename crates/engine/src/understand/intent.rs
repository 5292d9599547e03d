//! Which label sections a question's wording asks for: the section cues of `question-cues.tsv`
//! (word prefixes, the longest first) mapped to section keys group by group, then the
//! subsections of the populations it names. Pure; knows nothing of drugs or ranking.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

use super::cues::{cues, section_keys_of, SectionCue};
use super::lay::stems;
use super::populations::{population_names, populations};
use super::word_tables::{bad_row, parsed, words, WordClass};
use crate::tables::understand as tables;
use drugcite_core::label::{section_keys, section_name};
use drugcite_core::text::{name_words, occurrences};

/// The label subsections each population of `population-sections.tsv` asks for (21 CFR
/// 201.57(c)(9): 8.4 Pediatric Use, 8.5 Geriatric Use); the others are asked for by cues.
fn population_sections() -> &'static [(&'static str, Vec<&'static str>)] {
    static SECTIONS: LazyLock<Vec<(&'static str, Vec<&'static str>)>> = LazyLock::new(|| {
        let source = &tables::POPULATION_SECTIONS;
        let table = parsed(source);
        let (population, sections) = (table.column("population"), table.column("sections"));
        let rows = table.rows().iter().map(|row| {
            let name = row.cell(population);
            if !population_names().contains(&name) {
                bad_row(
                    source,
                    row,
                    format!("no population {name:?} in populations.tsv"),
                );
            }
            (name, section_keys_of(source, row, row.cell(sections)))
        });
        rows.collect()
    });
    &SECTIONS
}

/// The sections a wording asks for, in the order of the cue groups. Every cue found claims
/// its words, longest cue first, so a shorter cue inside a longer one does not count again:
/// "boxed warning" asks for the Boxed Warning, not also for Warnings and Precautions by its
/// "warning".
pub(super) fn section_intents(lower: &str) -> Vec<&'static str> {
    let cues = cues();
    let mut sections: Vec<&'static str> = Vec::new();
    let mut asked = vec![false; cues.sections.len()];
    for (_, _, entry) in claimed_cues(&format!(" {lower} ")) {
        asked[entry] = true;
    }
    let entries = asked.iter().enumerate().filter(|(_, a)| **a);
    for (entry, _) in entries {
        for section in cues.sections.get(entry).into_iter().flatten() {
            if !sections.contains(section) {
                sections.push(section);
            }
        }
    }
    sections
}

/// The sections a question asks for: those its own wording asks for, then those its topic (the
/// question without the words naming its subject) adds, a cue read past the subject's name
/// ("when should esmolol not be used" says "should not be used" around it).
pub(super) fn asked_sections(lower: &str, topic: &str) -> Vec<&'static str> {
    let mut sections = section_intents(lower);
    for read_past_subject in section_intents(topic) {
        if !sections.contains(&read_past_subject) {
            sections.push(read_past_subject);
        }
    }
    sections
}

/// The words of `lower` a section cue claims that leave the subject's text query: those of a
/// purpose cue (flag `leaves-query`), and those heading other sections than the cue asks for
/// ("use" of "used for" heads "Pediatric Use", not "Indications and Usage": every passage
/// repeats its heading, so in a text query such a word favours the sections headed alike over
/// the one asked).
pub(super) fn cue_words_left_out(lower: &str) -> Vec<String> {
    let padded = format!(" {lower} ");
    let mut words = Vec::new();
    for (span, cue, entry) in claimed_cues(&padded) {
        // An organ harm's words are what the answer's text says, not a section's cue.
        if cue.listed {
            continue;
        }
        let asked = &cues().sections[entry];
        let end = padded[span.end..]
            .find(|c: char| !c.is_alphanumeric())
            .map_or(padded.len(), |n| span.end + n);
        for word in name_words(&padded[span.start..end]) {
            let stems = stems(word);
            let heads_other =
                !heads_any(&stems, asked.iter().copied()) && heads_any(&stems, section_keys());
            if cue.leaves_query || heads_other {
                words.push(word.to_owned());
            }
        }
    }
    words
}

/// Whether one of `word_stems` is a word of the heading of a section of `keys`.
fn heads_any<'a>(word_stems: &[String], keys: impl IntoIterator<Item = &'a str>) -> bool {
    static HEADINGS: LazyLock<HashMap<&'static str, Vec<String>>> = LazyLock::new(|| {
        section_keys()
            .map(|key| (key, stems(&section_name(key))))
            .collect()
    });
    keys.into_iter().any(|key| {
        let heading = HEADINGS.get(key).map_or(&[][..], Vec::as_slice);
        word_stems.iter().any(|stem| heading.contains(stem))
    })
}

/// The section cues claiming words of `padded`, longest first (then the earlier, then the
/// earlier group), each with its group's entry.
fn claimed_cues(padded: &str) -> Vec<(Range<usize>, &'static SectionCue, usize)> {
    let cues = cues();
    let mut found: Vec<(Range<usize>, &'static SectionCue, usize)> = cues
        .section_cues
        .iter()
        .flat_map(|cue| occurrences(padded, &cue.cue, cue.edge).map(move |span| (span, cue)))
        .map(|(span, cue)| (span, cue, cue.entry))
        .collect();
    found.sort_by_key(|(span, _, entry)| (std::cmp::Reverse(span.len()), span.start, *entry));
    let mut claimed: Vec<(Range<usize>, &'static SectionCue, usize)> = Vec::new();
    for (span, cue, entry) in found {
        if !claimed
            .iter()
            .any(|(c, _, _)| c.start < span.end && span.start < c.end)
        {
            claimed.push((span, cue, entry));
        }
    }
    claimed
}

/// Whether the words right around the subject at `subject` join something to it (a joining
/// word right after it or right before it, `function-words.tsv`): whether the second thing is a
/// drug or a condition, the question asks what the label says of the pair, which the
/// interaction sections hold (with the contraindications and warnings among them).
pub(super) fn joined_to_subject(tokens: &[&str], subject: &Range<usize>) -> bool {
    let after = tokens.get(subject.end);
    let before = subject.start.checked_sub(1).map(|at| tokens[at]);
    after.is_some_and(|w| words(WordClass::JoiningAfter).contains(w))
        || before.is_some_and(|w| words(WordClass::JoiningBefore).contains(&w))
}

/// Adds, after those already asked for, the subsections of the populations `lower` names
/// ("Lexapro dose for older adults" also asks for Geriatric Use).
pub(super) fn add_population_sections(lower: &str, sections: &mut Vec<&'static str>) {
    for mention in populations(lower) {
        let wanted = population_sections()
            .iter()
            .filter(|(name, _)| *name == mention.name)
            .flat_map(|(_, wanted)| wanted.iter());
        for section in wanted {
            if !sections.contains(section) {
                sections.push(section);
            }
        }
    }
}

/// The sections a question about two drugs taken together asks for.
fn interaction_sections() -> Vec<&'static str> {
    cues().group_sections("interaction").to_vec()
}

/// The sections the dosing cues ("dose", "how often"…) ask for.
fn dosing_sections() -> Vec<&'static str> {
    cues().group_sections("dosing").to_vec()
}

/// The sections the general warnings cues ("risk", "stopping", "monitor"…) ask for.
fn general_warning_sections() -> Vec<&'static str> {
    cues().group_sections("general-warning").to_vec()
}

/// The sections a question pairing its subject with another medicine asks for: those of an
/// interaction when its wording asks for none or only for warnings in general ("after stopping
/// an maoi can I start tapentadol": the stopping is the partner's, the question the pair's),
/// the interaction's after the dosing sections when it asks only how to dose (the dose an
/// interaction sets is given in either: "azathioprine dose when starting allopurinol"), its
/// wording's otherwise ("X with Y overdose").
pub fn paired_sections(asked: Vec<&'static str>) -> Vec<&'static str> {
    if asked.is_empty() || asked == general_warning_sections() {
        interaction_sections()
    } else if asked == dosing_sections() {
        let interaction = interaction_sections().into_iter();
        let more: Vec<_> = interaction.filter(|s| !asked.contains(s)).collect();
        [asked, more].concat()
    } else {
        asked
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::vocabulary;

    #[test]
    fn a_pair_asks_for_interactions_unless_its_wording_asks_for_more() {
        let v = vocabulary();
        let sections = |q: &str| v.understand(q).sections;
        assert_eq!(sections("statin with pimozide")[0], "drug_interactions");
        assert_eq!(
            sections("after stopping a statin can I start pimozide")[0],
            "drug_interactions"
        );
        assert_eq!(
            sections("pimozide stopping suddenly")[0],
            "warnings_and_cautions",
            "no pair: the stopping is the subject's"
        );
        assert_eq!(sections("zoloft with pimozide overdose")[0], "overdosage");
        assert_eq!(
            sections("sertraline dose when starting pimozide")[..2],
            ["dosage_and_administration", "drug_interactions"],
            "the dose an interaction sets is given in either"
        );
        assert_eq!(sections("sertraline dose"), ["dosage_and_administration"]);
    }

    #[test]
    fn a_cue_is_read_past_the_subject_s_name() {
        let v = vocabulary();
        let sections = |q: &str| v.understand(q).sections;
        assert_eq!(
            sections("When should pimozide not be used?"),
            ["contraindications"],
            "\"should … not be used\" around the name"
        );
    }

    #[test]
    fn a_whole_word_cue_does_not_ask_for_a_longer_word() {
        let v = vocabulary();
        let sections = |q: &str| v.understand(q).sections;
        assert!(sections("sertraline seizures in patients with epilepsy")
            .contains(&"contraindications"));
        assert!(
            !sections("sertraline seizures in patients without epilepsy")
                .contains(&"contraindications")
        );
        assert!(sections("sertraline while lactating").contains(&"nursing_mothers"));
        assert!(!sections("sertraline and lactate dehydrogenase").contains(&"nursing_mothers"));
        assert!(!sections("sertraline jaw pain after dental work").contains(&"mechanism_of_action"));
        assert_eq!(
            sections("how does sertraline work")[0],
            "mechanism_of_action"
        );
        assert!(!sections("must notify the doctor about sertraline").contains(&"contraindications"));
    }

    #[test]
    fn section_intents_follow_the_wording() {
        let v = vocabulary();
        assert_eq!(
            v.understand("Who should not take atorvastatin?").sections[0],
            "contraindications"
        );
        assert_eq!(
            v.understand("Does it have a black box warning?").sections,
            ["boxed_warning"],
            "the warning of a boxed warning asks for no other warnings"
        );
        assert!(v
            .understand("boxed warning and other warnings")
            .sections
            .contains(&"warnings_and_cautions"));
        assert_eq!(
            v.understand("stroke warning").sections[..2],
            ["boxed_warning", "warnings_and_cautions"],
            "a label's boxed warning is headed WARNING"
        );
        assert_eq!(
            v.understand("warnings and precautions of sertraline")
                .sections[0],
            "warnings_and_cautions"
        );
        assert!(v
            .understand("most common side effects")
            .sections
            .contains(&"adverse_reactions"));
        assert_eq!(v.understand("overdose symptoms").sections, ["overdosage"]);
        assert_eq!(
            v.understand("took too many sertraline").sections,
            ["overdosage"]
        );
        for ingestion in [
            "my toddler swallowed a sertraline tablet",
            "what if a child swallows sertraline",
            "sertraline ingested by a child",
        ] {
            assert_eq!(
                v.understand(ingestion).sections[0],
                "overdosage",
                "{ingestion}"
            );
        }
        assert!(
            !v.understand("sertraline trouble swallowing")
                .sections
                .contains(&"overdosage"),
            "a symptom is no ingestion"
        );

        assert_eq!(
            v.understand("What is tamsulosin used for?").sections,
            ["indications_and_usage"]
        );
        assert_eq!(
            v.understand("what does sertraline treat").sections,
            ["indications_and_usage"]
        );
        assert!(
            !v.understand("sertraline rash after 4 weeks of treatment")
                .sections
                .contains(&"indications_and_usage"),
            "a therapy's noun asks nothing"
        );
        assert!(
            !v.understand("sertraline weight gain after kidney transplant")
                .sections
                .contains(&"use_in_specific_populations"),
            "a transplant names the patients, not an impaired kidney"
        );
        assert_eq!(
            v.understand("can sertraline be given to someone with glaucoma")
                .sections[0],
            "contraindications"
        );
        assert_eq!(
            v.understand("sertraline if allergic to sulfa").sections,
            ["contraindications"]
        );
        assert_eq!(
            v.understand("sertraline serious allergic reactions")
                .sections[0],
            "warnings_and_cautions",
            "a reaction the drug causes is a warning"
        );
        assert_eq!(
            v.understand("the treatment for depression").sections,
            ["indications_and_usage"]
        );
        for purpose in [
            "sertraline uses",
            "who takes sertraline",
            "sertraline is it for",
        ] {
            assert_eq!(
                v.understand(purpose).sections,
                ["indications_and_usage"],
                "{purpose}"
            );
        }
        for contraindicated in [
            "who should not take sertraline",
            "who shouldn't take sertraline",
        ] {
            assert_eq!(
                v.understand(contraindicated).sections,
                ["contraindications"],
                "{contraindicated}"
            );
        }
        assert!(v
            .understand("safe in pregnancy?")
            .sections
            .contains(&"pregnancy"));
        assert!(v
            .understand("kidney impairment")
            .sections
            .contains(&"use_in_specific_populations"));
        for harm in ["sertraline kidney stones", "sertraline acute kidney injury"] {
            assert_eq!(
                v.understand(harm).sections,
                [
                    "adverse_reactions",
                    "warnings_and_cautions",
                    "warnings",
                    "boxed_warning"
                ],
                "an organ phrase labels write for a harm: {harm}"
            );
        }
        assert!(
            !v.understand("sertraline for kidney stones")
                .sections
                .contains(&"dosage_and_administration"),
            "an organ phrase of a harm claims its organ word, which asks for no dosing"
        );
        assert_eq!(
            v.understand("sertraline dose in renal failure").sections[0],
            "dosage_and_administration"
        );
        assert!(v.understand("sertraline dosing").sections[0] == "dosage_and_administration");
        assert_eq!(
            v.understand("sertraline pimozide").sections[0],
            "drug_interactions",
            "two drugs named together ask how they interact"
        );
        assert!(
            v.understand("carbidopa levodopa").sections.is_empty(),
            "the ingredients of one combination are not partners"
        );
        assert!(v.understand("sertraline").sections.is_empty());
        assert_eq!(
            v.understand("sertraline dose for older adults").sections,
            [
                "dosage_and_administration",
                "geriatric_use",
                "use_in_specific_populations"
            ],
            "a population asks for its subsection after the cue's"
        );
        assert_eq!(
            v.understand("is sertraline safe for children").sections,
            ["pediatric_use", "use_in_specific_populations"]
        );
        assert!(
            v.understand("sertraline complex sleep behaviors")
                .sections
                .is_empty(),
            "a later word of a name is no partner"
        );
        assert_eq!(
            v.understand("sertraline and ferrlecit").sections[0],
            "drug_interactions"
        );
        assert!(
            v.understand("uncontraindicated").sections.is_empty(),
            "cues start at a word boundary"
        );
    }

    #[test]
    fn a_word_right_around_the_subject_joins_something_to_it() {
        use super::joined_to_subject;
        let joined = |question: &str, subject| {
            let tokens: Vec<&str> = question.split(' ').collect();
            joined_to_subject(&tokens, &subject)
        };
        assert!(joined("cipro with antacids or milk", 0..1));
        assert!(joined("can I drink beer while taking tinidazole", 6..7));
        assert!(!joined("atomoxetine in patients with heart problems", 0..1));
        assert!(joined("grapefruit juice with atorvastatin", 3..4));
        assert!(!joined("metformin", 0..1));
    }

    #[test]
    fn cue_words_left_out_head_other_sections_or_ask_a_purpose() {
        use super::cue_words_left_out;
        assert_eq!(cue_words_left_out("what is it used for"), ["used"]);
        assert_eq!(cue_words_left_out("who takes droxidopa"), ["who", "takes"]);
        assert_eq!(cue_words_left_out("gemtesa uses"), ["uses"]);
        assert_eq!(
            cue_words_left_out("taken with alcohol"),
            Vec::<String>::new()
        );
        assert!(cue_words_left_out("is it safe in pregnancy").is_empty());
        assert!(cue_words_left_out("black box warning").is_empty());
        assert!(cue_words_left_out("contraindicated in asthma").is_empty());
        assert!(cue_words_left_out("overdose").is_empty());
    }
}
