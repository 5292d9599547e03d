//! The effects labels name — the conditions the knowledge graph's build found in each text's
//! adverse-reaction and warning statements — with each condition's name embedded by the transformer
//! at ingest (`effects.bin`); and, for a question, which of its subject's texts name the effect
//! nearest its topic by meaning ("dying from heart problems" → "cardiovascular death").
//! Reads no label text, embeds no question and ranks nothing.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::embed::{dot, EmbedError, Embedder};
use crate::graph::analysis::Analyses;
use crate::graph::{NodeKind, RelationType};
use crate::tables::search as tables;
use drugcite_core::domain::TextHash;
use drugcite_store::{encoded, VectorSpace};

pub const EFFECTS_FILE: &str = "effects.bin";
const EFFECTS_TAG: &[u8; 8] = b"dceff001";

/// The sections whose statements are a drug's effects (its adverse reactions and warnings;
/// role `effects` of `tables/search/section-roles.tsv`).
pub static EFFECT_SECTIONS: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| tables::sections_with_role("effects"));

/// Below this similarity to the question no effect of the subject's texts is the one it asks
/// about; effects within the margin of the nearest are asked about with it (`effect_floor`,
/// `effect_margin` of `tables/search/thresholds.tsv`).
pub static EFFECT_FLOOR: LazyLock<f32> = LazyLock::new(|| tables::threshold("effect_floor") as f32);
pub static EFFECT_MARGIN: LazyLock<f32> =
    LazyLock::new(|| tables::threshold("effect_margin") as f32);

/// What `effects.bin` holds: the effect names, their vectors (in the space of `model_id`) and
/// the names each text names.
#[derive(Serialize, Deserialize)]
struct EffectTable {
    model_id: [u8; 16],
    dimensions: u64,
    names: Vec<String>,
    /// `names.len()` unit vectors of `dimensions` values, one after another.
    vectors: Vec<f32>,
    /// Each text naming a condition, with the indices of the names it names, by text.
    texts: Vec<(TextHash, TextEffects)>,
}

/// The conditions one text names: as effects the drug may cause, and as what it treats.
#[derive(Serialize, Deserialize, Default)]
struct TextEffects {
    effects: Vec<u32>,
    indicated: Vec<u32>,
}

/// What writing `effects.bin` did.
#[derive(Clone, Copy, Debug, Default)]
pub struct EffectCounts {
    pub names: usize,
    pub embedded: usize,
    pub reused: usize,
    pub texts: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum EffectsError {
    #[error(transparent)]
    Embed(#[from] EmbedError),
    #[error("writing {EFFECTS_FILE}: {0}")]
    Io(#[from] std::io::Error),
}

/// Embeds the effects `analyses` found and writes them into `generation`; a name `previous`
/// (a generation) embedded in the same space keeps its vector.
pub fn write_effects(
    generation: &Path,
    analyses: &Analyses,
    embedder: &Embedder,
    previous: Option<&Path>,
) -> Result<EffectCounts, EffectsError> {
    let (names, texts) = effects_of(analyses);
    let space = embedder.vector_space();
    let previous = previous.and_then(|generation| read_table(generation, space).ok().flatten());
    let reusable = previous
        .as_ref()
        .map(EffectTable::vectors_by_name)
        .unwrap_or_default();
    let missing: Vec<&str> = names
        .iter()
        .filter(|name| !reusable.contains_key(name.as_str()))
        .map(String::as_str)
        .collect();
    let embedded = embedder.embed_many(&missing)?.vectors;
    let fresh: HashMap<&str, &[f32]> = missing
        .iter()
        .copied()
        .zip(embedded.iter().map(Vec::as_slice))
        .collect();
    let mut vectors = Vec::with_capacity(names.len() * space.dimensions);
    for name in &names {
        let vector = fresh.get(name.as_str()).copied();
        vectors.extend_from_slice(vector.unwrap_or_else(|| reusable[name.as_str()]));
    }
    let counts = EffectCounts {
        names: names.len(),
        embedded: missing.len(),
        reused: names.len() - missing.len(),
        texts: texts.len(),
    };
    let table = EffectTable {
        model_id: space.model_id,
        dimensions: space.dimensions as u64,
        names,
        vectors,
        texts,
    };
    encoded::write(&generation.join(EFFECTS_FILE), EFFECTS_TAG, &table)?;
    Ok(counts)
}

/// The statements whose conditions are effects a drug may cause (a contraindication's are
/// the patient's conditions, an indication's what the drug treats).
fn states_an_effect(kind: RelationType) -> bool {
    matches!(kind, RelationType::AdverseReaction | RelationType::Warning)
}

/// The distinct condition names (sorted) and, per text, the indices of the effects it names and
/// of the conditions it says the drug treats.
fn effects_of(analyses: &Analyses) -> (Vec<String>, Vec<(TextHash, TextEffects)>) {
    let mut by_text: BTreeMap<TextHash, [BTreeSet<&str>; 2]> = BTreeMap::new();
    for (text, _, found) in analyses.iter() {
        let entry = by_text.entry(text).or_default();
        for statement in found {
            let conditions = statement
                .targets
                .iter()
                .filter(|node| node.kind == NodeKind::Condition)
                .map(|node| node.name.as_str());
            match statement.kind {
                kind if states_an_effect(kind) => entry[0].extend(conditions),
                RelationType::Indication => entry[1].extend(conditions),
                _ => {}
            }
        }
    }
    by_text.retain(|_, [effects, indicated]| !effects.is_empty() || !indicated.is_empty());
    let names: BTreeSet<&str> = by_text.values().flatten().flatten().copied().collect();
    let index: HashMap<&str, u32> = names.iter().zip(0..).map(|(n, i)| (*n, i)).collect();
    let indices = |names: &BTreeSet<&str>| names.iter().map(|n| index[n]).collect();
    let texts = by_text
        .into_iter()
        .map(|(text, [effects, indicated])| {
            let effects = indices(&effects);
            let indicated = indices(&indicated);
            (text, TextEffects { effects, indicated })
        })
        .collect();
    (names.into_iter().map(str::to_owned).collect(), texts)
}

/// The table of `generation`, `None` without one or when it holds another model's vectors.
fn read_table(generation: &Path, space: VectorSpace) -> std::io::Result<Option<EffectTable>> {
    let table: EffectTable = match encoded::read(&generation.join(EFFECTS_FILE), EFFECTS_TAG) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        read => read?,
    };
    let same_space =
        table.model_id == space.model_id && table.dimensions == space.dimensions as u64;
    Ok(same_space.then_some(table))
}

impl EffectTable {
    fn vectors_by_name(&self) -> HashMap<&str, &[f32]> {
        let dimensions = self.dimensions as usize;
        self.names
            .iter()
            .map(String::as_str)
            .zip(self.vectors.chunks_exact(dimensions))
            .collect()
    }
}

/// The opened effects of a generation, for search.
pub struct EffectIndex {
    names: Vec<String>,
    dimensions: usize,
    vectors: Vec<f32>,
    by_text: HashMap<TextHash, TextEffects>,
}

/// The effects of the subject's texts nearest a question, the similarity of the nearest, and
/// the texts naming them.
#[derive(Debug, Default)]
pub struct NamedEffect {
    pub names: Vec<String>,
    pub similarity: f32,
    /// Each text naming one of them, with the similarity of the nearest it names.
    pub texts: HashMap<TextHash, f32>,
}

impl EffectIndex {
    /// The effects of `generation` when they were embedded in `space`; `None` without them.
    pub fn open(generation: &Path, space: VectorSpace) -> std::io::Result<Option<Self>> {
        Ok(read_table(generation, space)?.map(|table| Self {
            names: table.names,
            dimensions: table.dimensions as usize,
            vectors: table.vectors,
            by_text: table.texts.into_iter().collect(),
        }))
    }

    /// Of the effects `texts` name, besides those they say the drug treats and those
    /// `passed_over` (the subject's own words: "gout" in "gout medicine that …" says what the
    /// medicine treats, not what the question asks about), those within `EFFECT_MARGIN` of the
    /// one nearest `vector` when it is at `EFFECT_FLOOR` or above (a label names one effect in
    /// several words: "oral candidiasis", "oropharyngeal candidiasis"), with the texts naming
    /// them.
    pub fn nearest(
        &self,
        texts: impl IntoIterator<Item = TextHash>,
        vector: &[f32],
        passed_over: &dyn Fn(&str) -> bool,
    ) -> Option<NamedEffect> {
        let naming: Vec<(TextHash, &TextEffects)> = texts
            .into_iter()
            .filter_map(|text| Some((text, self.by_text.get(&text)?)))
            .collect();
        let treated: HashSet<u32> = naming
            .iter()
            .flat_map(|(_, t)| t.indicated.clone())
            .collect();
        let effects: BTreeSet<u32> = naming.iter().flat_map(|(_, t)| t.effects.clone()).collect();
        let scored: Vec<(u32, f32)> = effects
            .into_iter()
            .filter(|effect| !treated.contains(effect))
            .filter(|&effect| !passed_over(&self.names[effect as usize]))
            .map(|effect| (effect, dot(self.vector(effect), vector)))
            .collect();
        let similarity = scored.iter().map(|(_, s)| *s).fold(f32::MIN, f32::max);
        if scored.is_empty() || similarity < *EFFECT_FLOOR {
            return None;
        }
        let near: BTreeMap<u32, f32> = scored
            .into_iter()
            .filter(|(_, s)| *s >= similarity - *EFFECT_MARGIN)
            .collect();
        let nearest_named = |named: &TextEffects| {
            let similarities = named.effects.iter().filter_map(|e| near.get(e).copied());
            similarities.reduce(f32::max)
        };
        Some(NamedEffect {
            names: near
                .keys()
                .map(|&e| self.names[e as usize].clone())
                .collect(),
            similarity,
            texts: naming
                .into_iter()
                .filter_map(|(text, named)| Some((text, nearest_named(named)?)))
                .collect(),
        })
    }

    /// Whether `name` has a word of `words` (compared lowercased, of letters and digits).
    pub fn shares_a_word(name: &str, words: &str) -> bool {
        let split = |text: &str| -> BTreeSet<String> {
            text.split(|c: char| !c.is_alphanumeric())
                .filter(|word| !word.is_empty())
                .map(str::to_lowercase)
                .collect()
        };
        !split(name).is_disjoint(&split(words))
    }

    fn vector(&self, effect: u32) -> &[f32] {
        let start = effect as usize * self.dimensions;
        &self.vectors[start..start + self.dimensions]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::analysis::Found;
    use crate::graph::Node;

    fn statement(kind: RelationType, names: &[&str]) -> Found {
        Found {
            kind,
            severity: None,
            targets: names.iter().map(|n| Node::condition(n, n)).collect(),
            sentence: 0,
        }
    }

    #[test]
    fn a_texts_effects_are_its_adverse_reactions_and_warnings_apart_from_what_it_treats() {
        let mut analyses = Analyses::new(String::new(), None);
        let text = TextHash::of("Constipation with serious complications; indicated for migraine.");
        analyses.of(text, "warnings_and_cautions", || {
            vec![
                statement(RelationType::Warning, &["constipation"]),
                statement(RelationType::Indication, &["migraine"]),
                statement(RelationType::Contraindication, &["hypertension"]),
            ]
        });
        analyses.of(TextHash::of("Nothing named."), "description", Vec::new);
        let (names, texts) = effects_of(&analyses);
        assert_eq!(names, ["constipation", "migraine"], "no contraindication");
        assert_eq!(texts.len(), 1, "a text naming no condition is left out");
        assert_eq!(
            (
                texts[0].1.effects.as_slice(),
                texts[0].1.indicated.as_slice()
            ),
            (&[0][..], &[1][..])
        );
    }

    fn index() -> EffectIndex {
        let texts = [
            (
                1,
                TextEffects {
                    effects: vec![0],
                    indicated: vec![],
                },
            ),
            (
                2,
                TextEffects {
                    effects: vec![1],
                    indicated: vec![],
                },
            ),
            (
                3,
                TextEffects {
                    effects: vec![2],
                    indicated: vec![],
                },
            ),
            (
                4,
                TextEffects {
                    effects: vec![],
                    indicated: vec![3],
                },
            ),
            (
                5,
                TextEffects {
                    effects: vec![3],
                    indicated: vec![],
                },
            ),
        ];
        EffectIndex {
            names: [
                "oral candidiasis",
                "throat candidiasis",
                "headache",
                "asthma",
            ]
            .map(String::from)
            .to_vec(),
            dimensions: 2,
            vectors: vec![1.0, 0.0, 0.999, 0.045, 0.0, 1.0, 0.96, 0.28],
            by_text: texts
                .into_iter()
                .map(|(t, e)| (TextHash::from_stored(t), e))
                .collect(),
        }
    }

    #[test]
    fn the_nearest_effect_and_those_close_to_it_name_their_texts() {
        let index = index();
        let text = TextHash::from_stored;
        let all = || (1..=5).map(text);
        let named = index.nearest(all(), &[1.0, 0.0], &|_| false).unwrap();
        assert_eq!(
            named.names,
            ["oral candidiasis", "throat candidiasis"],
            "asthma is what one treats"
        );
        assert_eq!(named.similarity, 1.0);
        let mut texts: Vec<_> = named.texts.into_iter().collect();
        texts.sort_by_key(|(t, _)| *t);
        assert_eq!(texts, [(text(1), 1.0), (text(2), 0.999)]);
        let without_oral = index.nearest(all(), &[1.0, 0.0], &|name| name.starts_with("oral"));
        assert_eq!(without_oral.unwrap().names, ["throat candidiasis"]);
        let only_headache = index.nearest([text(3)], &[1.0, 0.0], &|_| false);
        assert!(only_headache.is_none(), "below the floor");
        assert!(
            index.nearest([text(9)], &[1.0, 0.0], &|_| false).is_none(),
            "no effect named"
        );
    }

    #[test]
    fn a_shared_word_is_compared_lowercased_and_whole() {
        assert!(EffectIndex::shares_a_word("Gout flares", "gout"));
        assert!(!EffectIndex::shares_a_word("goutish", "gout"));
        assert!(!EffectIndex::shares_a_word("arrhythmia", "heart rhythm"));
    }
}
