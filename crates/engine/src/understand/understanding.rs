//! What search reads of a question (`Understanding`): the drugs and classes it names with the
//! labels they cover, the sections it asks for, its topic and query words, the partners named
//! beside its subject. Values only; `DrugVocabulary::understand` fills them.

use std::collections::BTreeSet;
use std::ops::Range;

/// A drug or drug class the question names, and the labels (by ordinal) it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrugMention {
    pub word: String,
    /// The class's name (lowercase) when the mention is a class phrase.
    pub class: Option<String>,
    pub labels: BTreeSet<u32>,
    /// Those of `labels` that combine the drug with other ingredients.
    pub combinations: BTreeSet<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Understanding {
    /// In order of first mention: the first is the question's subject unless `subject_open`.
    pub drugs: Vec<DrugMention>,
    /// The question asks which drugs ("drugs contraindicated with MAO inhibitors"): the drugs
    /// it names are partners of the answer, not its subject.
    pub subject_open: bool,
    /// Requested section keys, strongest first, without repeats.
    pub sections: Vec<&'static str>,
    /// The question without the words naming its subject ("atorvastatin", "cholesterol
    /// medicine"): what the text of an answer should match, while the subject selects labels.
    pub topic: String,
    /// The question without the class phrase naming its subject, plus the label wording of
    /// its everyday phrases: the words of a BM25 query (a drug name stays, it matches the
    /// labels' names).
    pub keywords: String,
    /// The keywords without the words naming a drug subject (its name, misspelled or not, and
    /// the names of its own ingredients): the BM25 query within the subject's labels, where
    /// every passage is the subject's and its name only rewards repeating it. Equal to
    /// `keywords` for a class subject or none.
    pub subject_keywords: String,
    /// Drug names the question uses that no label of the index carries (drugs named in label
    /// text, learned through `DrugVocabulary::with_unlabelled_drugs`; curated brands and class
    /// members without a label; words shaped like drug names), in question order.
    pub unlabelled_drugs: Vec<String>,
    /// The names (lowercase phrases) a label text uses for the partners the question names
    /// beside its subject: their words, generics, class phrases and members, and drugs named
    /// that have no label (empty without a subject or a partner).
    pub partner_names: BTreeSet<String>,
    /// The labels of those partners (drugs or classes with labels, none shared with the
    /// subject's) and the names their text uses for the subject (both empty without them).
    pub partner_labels: BTreeSet<u32>,
    pub subject_names: BTreeSet<String>,
    /// Question words no indexed label uses and the label words they were read as
    /// (`DrugVocabulary::with_label_words`), in question order.
    pub read_as: Vec<ReadAs>,
    /// The routes (lowercase, as openFDA spells them) of the forms the question names a
    /// medicine by ("fish oil pills" → oral, "eye drops" → ophthalmic); empty without one.
    pub form_routes: BTreeSet<String>,
}

impl Understanding {
    /// The drug (or class, or condition's labels) the question is about: its first mention,
    /// unless it asks for drugs in general.
    pub fn subject(&self) -> Option<&DrugMention> {
        self.drugs.first().filter(|_| !self.subject_open)
    }
}

/// What the vocabulary needs of one indexed label: its ordinal, generic name, lowercase names
/// (generic, brands, substances) and FDA established classes.
pub struct LabelNames<'a> {
    pub label: u32,
    pub generic: &'a str,
    pub names: &'a [String],
    /// Its brand names, as the label writes them.
    pub brands: &'a [String],
    pub classes: &'a [String],
    /// The routes its products are given by, as openFDA writes them ("ORAL").
    pub routes: &'a [String],
}

/// A drug or class found in a question: the words it spans and whether they are a class phrase.
pub(super) struct Found {
    pub(super) span: Range<usize>,
    pub(super) class: bool,
    pub(super) mention: DrugMention,
}

/// A question word and the words it was read as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadAs {
    pub asked: String,
    pub read: String,
}

/// `text` with each word at `spans` that `read` reads as something else replaced by that
/// reading, and the readings in text order: how the respeller and the acronym reader rewrite a
/// question.
pub(super) fn rewritten(
    text: &str,
    spans: impl IntoIterator<Item = Range<usize>>,
    mut read: impl FnMut(&str) -> Option<String>,
) -> (String, Vec<ReadAs>) {
    let mut out = String::with_capacity(text.len());
    let mut read_as = Vec::new();
    let mut copied = 0;
    for span in spans {
        let asked = &text[span.clone()];
        let Some(read) = read(asked) else {
            continue;
        };
        out.push_str(&text[copied..span.start]);
        out.push_str(&read);
        copied = span.end;
        read_as.push(ReadAs {
            asked: asked.to_owned(),
            read,
        });
    }
    out.push_str(&text[copied..]);
    (out, read_as)
}
