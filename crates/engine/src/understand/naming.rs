//! A question's partners (drugs or classes named beside its subject) and the words a label text
//! would use for them: the question's word, what their labels call their drug (the leading name
//! word of a one-ingredient generic), a class's phrases, curated members and FDA class name, and
//! for a drug the phrases of the classes it belongs to ("ibuprofen" → "nsaid").
//! Over the mentions already found and data from the labels; no searching here.

use std::collections::BTreeSet;

use super::drug_words::singular;
use super::{DrugMention, DrugVocabulary};

impl DrugVocabulary {
    /// The drugs named after the subject, by a class or a word a name begins with, that share
    /// none of its labels (other drugs, not ingredients of the subject's combination): two
    /// drugs named together ask how they interact.
    pub(super) fn partners<'d>(&self, drugs: &'d [DrugMention]) -> Vec<&'d DrugMention> {
        let leads = |w: &str| self.leading.contains(w);
        let named = |d: &DrugMention| {
            d.class.is_some() || leads(&d.word) || singular(&d.word).is_some_and(leads)
        };
        match drugs {
            [subject, others @ ..] => others
                .iter()
                .filter(|other| named(other) && other.labels.is_disjoint(&subject.labels))
                .collect(),
            [] => Vec::new(),
        }
    }

    /// The names (lowercase phrases) a text uses for the question's partners: `partners`
    /// (mentions after the subject) and `unlabelled` drugs — a brand's generic too ("orap":
    /// pimozide) — with the curated classes of each; none without a subject.
    pub(super) fn partner_names(
        &self,
        subject: Option<&DrugMention>,
        partners: &[&DrugMention],
        unlabelled: &[String],
    ) -> BTreeSet<String> {
        if subject.is_none() {
            return BTreeSet::new();
        }
        let generics = unlabelled
            .iter()
            .filter_map(|n| self.unlabelled_generics.get(n));
        let named: Vec<&String> = unlabelled.iter().chain(generics).collect();
        let mut names: BTreeSet<String> = named.iter().map(|n| (*n).clone()).collect();
        for name in named {
            names.extend(self.curated_classes_of(name));
        }
        for mention in partners {
            names.extend(self.names_of(mention));
        }
        names
    }

    /// The names a partner's label text uses for the subject, when the question names partners
    /// with labels of their own (empty otherwise): a partner's text naming the subject is
    /// evidence of the pair as much as the subject's text naming the partner.
    pub(super) fn subject_names(
        &self,
        subject: Option<&DrugMention>,
        partners: &[&DrugMention],
    ) -> BTreeSet<String> {
        match subject {
            Some(subject) if !partners.is_empty() => self.names_of(subject),
            _ => BTreeSet::new(),
        }
    }

    /// The mention's word and what its labels call their drug; for a class, also its phrases,
    /// its name and its curated members: the names a label text uses for it as a partner (or
    /// a subject) of a pair, also for a partner found outside the vocabulary
    /// (`search::indicated`).
    pub fn names_of(&self, mention: &DrugMention) -> BTreeSet<String> {
        let mut names = BTreeSet::from([mention.word.clone()]);
        let called = mention
            .labels
            .iter()
            .filter_map(|l| self.names.called.get(l));
        names.extend(called.cloned());
        if let Some(class) = &mention.class {
            names.insert(class.clone());
            let phrases = self.classes.iter().filter(|c| c.name == *class);
            names.extend(phrases.map(|c| c.words.join(" ")));
            names.extend(self.names.members.get(class).into_iter().flatten().cloned());
        } else {
            names.extend(self.phrases_of_classes_of(mention));
            names.extend(self.curated_classes_of(&mention.word));
        }
        names
    }

    /// The terms of the curated classes listing `word` (or its singular) as a member: a drug
    /// whose labels fall in no class phrase (its only label a combination, as omeprazole's in a
    /// pack) is still named by its class ("proton pump inhibitors").
    fn curated_classes_of(&self, word: &str) -> Vec<String> {
        let of = |w: &str| self.names.member_of.get(w).cloned().unwrap_or_default();
        let mut terms = of(word);
        terms.extend(singular(word).map(of).unwrap_or_default());
        terms
    }

    /// The phrases of every class holding each one-ingredient label the drug mention names
    /// (by an FDA established class or a curated member): a text may name the partner only by
    /// its class ("NSAIDs" for ibuprofen, "nitrates" for isosorbide).
    fn phrases_of_classes_of(&self, mention: &DrugMention) -> Vec<String> {
        let own: BTreeSet<u32> = mention
            .labels
            .iter()
            .filter(|l| self.names.called.contains_key(l))
            .copied()
            .collect();
        if own.is_empty() {
            return Vec::new();
        }
        let classes = self.classes.iter().filter(|c| own.is_subset(&c.labels));
        classes.map(|c| c.words.join(" ")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::vocabulary;

    #[test]
    fn partners_are_named_by_their_words_generics_and_class_members() {
        let v = vocabulary();
        let u = v.understand("pimozide with Zoloft");
        assert!(u.partner_names.contains("zoloft") && u.partner_names.contains("sertraline"));
        assert!(
            !u.partner_names.contains("pimozide"),
            "the subject is no partner"
        );
        let class = v.understand("sertraline and statins");
        for name in [
            "statin",
            "hmg-coa reductase inhibitor",
            "simvastatin",
            "atorvastatin",
        ] {
            assert!(class.partner_names.contains(name), "{name}: {class:?}");
        }
        let unlabelled = v.understand("sertraline with lisinopril");
        assert!(unlabelled.partner_names.contains("lisinopril"));
        assert!(v.understand("sertraline bleeding").partner_names.is_empty());
        let open = v.understand("drugs contraindicated with pimozide");
        assert!(open.partner_names.is_empty(), "no subject");
    }

    #[test]
    fn a_drug_partner_is_also_named_by_the_classes_it_belongs_to() {
        let v = vocabulary();
        let statin = v.understand("pimozide with atorvastatin");
        for name in ["atorvastatin", "statin", "hmg-coa reductase inhibitor"] {
            assert!(statin.partner_names.contains(name), "{name}: {statin:?}");
        }
        assert!(
            !statin.partner_names.contains("ssri"),
            "not a class of the partner"
        );
        let unlabelled = v.understand("sertraline with lisinopril");
        for name in ["lisinopril", "ace inhibitor"] {
            assert!(unlabelled.partner_names.contains(name), "{unlabelled:?}");
        }
        let pack = v.understand("sertraline with omeprazole");
        assert_eq!(pack.drugs.len(), 2, "omeprazole names its pack");
        for name in ["omeprazole", "proton pump inhibitor", "ppi"] {
            assert!(pack.partner_names.contains(name), "{name}: {pack:?}");
        }
        let subject = v.understand("sertraline with pimozide");
        assert!(
            !subject.partner_names.contains("ssri"),
            "the subject's classes name no partner"
        );
    }
}
