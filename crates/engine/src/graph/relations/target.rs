//! What a relation stated in label text points at: a condition, a drug (by its labels), an
//! ingredient, a class, a drug without a label, a population, or a class member. A value.

/// What a segment's relation points at.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    Condition {
        id: String,
        name: String,
    },
    /// Labels (ordinals) of the drug named.
    Drug(Vec<u32>),
    /// An ingredient named that only combination products of the index contain (lowercase).
    Ingredient(String),
    /// Lowercase class name.
    Class(String),
    /// A drug named in the text that has no label in the index (lowercase).
    Unlabelled(String),
    /// A population or setting (`populations.rs` canonical name).
    Population(String),
    /// `member` is listed in the text as one of the enzyme class `class` (kind `member_of`).
    Member {
        member: Box<Target>,
        class: String,
    },
}
