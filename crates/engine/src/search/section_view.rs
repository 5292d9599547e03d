//! One question's view of the sections the catalog names: each section key's similarity and
//! margin, which of the asked sections a label has and, for the subject's labels, the best of
//! their own sections — worked out once per search, so scoring a copy is a lookup instead of a
//! pass over its label's sections (at 100× a text has ~100 copies). Pure; no retrieval.

use std::collections::HashMap;

use foldhash::fast::FixedState;

use crate::understand::Understanding;
use drugcite_store::LabelSections;

/// A section key's relative similarity to the question and the question's margin
/// (`CopyFeatures::section_similarity`, `section_margin`).
pub type SectionScore = (f32, f32);

pub struct SectionView<'a> {
    sections: &'a LabelSections,
    similarity: &'a dyn Fn(&str) -> SectionScore,
    /// Each key the catalog names: its place and score.
    places: HashMap<&'a str, (u32, SectionScore), FixedState>,
    /// The score of each place.
    by_place: Vec<SectionScore>,
    /// The asked sections in the question's order, with their place (none when no label has one).
    asked: Vec<(&'a str, Option<u32>)>,
    /// `best_of_label` of each of the subject's labels.
    subject_labels: HashMap<u32, SectionScore, FixedState>,
}

impl<'a> SectionView<'a> {
    /// The view of `sections` for a question whose similarity to a section key is `similarity`.
    pub fn new(
        sections: &'a LabelSections,
        similarity: &'a dyn Fn(&str) -> SectionScore,
        understanding: &'a Understanding,
    ) -> Self {
        let by_place: Vec<SectionScore> = sections.keys().iter().map(|k| similarity(k)).collect();
        let places = sections
            .keys()
            .iter()
            .enumerate()
            .map(|(place, key)| (key.as_ref(), (place as u32, by_place[place])))
            .collect::<HashMap<_, _, FixedState>>();
        let asked = understanding
            .sections
            .iter()
            .map(|&key| (key, places.get(key).map(|(place, _)| *place)))
            .collect();
        let mut view = Self {
            sections,
            similarity,
            places,
            by_place,
            asked,
            subject_labels: HashMap::default(),
        };
        if let Some(subject) = understanding.subject() {
            let labels = subject.labels.iter().map(|&l| (l, view.label_best(l)));
            view.subject_labels = labels.collect();
        }
        view
    }

    /// The score of `section_key`.
    pub fn score(&self, section_key: &str) -> SectionScore {
        match self.places.get(section_key) {
            Some((_, score)) => *score,
            None => (self.similarity)(section_key),
        }
    }

    /// Position of `section_key` among the asked sections `label` has (`LabelSections::has`).
    pub fn asked_rank(&self, label: u32, section_key: &str) -> Option<usize> {
        let own = self.sections.places_of(label);
        let has = |place: &Option<u32>| {
            own.is_empty() || place.is_some_and(|p| own.binary_search(&p).is_ok())
        };
        self.asked
            .iter()
            .filter(|(_, place)| has(place))
            .position(|(key, _)| *key == section_key)
    }

    /// The highest relative similarity among the sections `label` has and its lead over the
    /// next: 0 for a label with one section (no section of it is meant over another) and (0, 0)
    /// for a label the catalog knows nothing of.
    pub fn best_of_label(&self, label: u32) -> SectionScore {
        match self.subject_labels.get(&label) {
            Some(best) => *best,
            None => self.label_best(label),
        }
    }

    fn label_best(&self, label: u32) -> SectionScore {
        let mut best: Option<f32> = None;
        let mut next: Option<f32> = None;
        for &place in self.sections.places_of(label) {
            let value = self.by_place[place as usize].0;
            if best.is_none_or(|b| value > b) {
                next = best;
                best = Some(value);
            } else if next.is_none_or(|n| value > n) {
                next = Some(value);
            }
        }
        match (best, next) {
            (Some(best), Some(next)) => (best, best - next),
            (Some(best), None) => (best, 0.0),
            _ => (0.0, 0.0),
        }
    }
}
