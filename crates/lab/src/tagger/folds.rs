//! The cross-validation split: every label in exactly one of k folds, by the rank of the
//! SHA-256 of (seed, label name), so folds differ by at most one label and depend on nothing
//! but the names and the seed. No reading, no training.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

/// The fold (0..k) of every distinct label of `labels`: labels sorted by the hash of the
/// seed's little-endian bytes followed by the name, then dealt out in turn.
pub fn assign<'a>(
    labels: impl IntoIterator<Item = &'a str>,
    folds: usize,
    seed: u64,
) -> BTreeMap<String, usize> {
    assert!(folds > 0, "at least one fold");
    let mut ranked: Vec<([u8; 32], &str)> = labels
        .into_iter()
        .map(|label| {
            let mut hasher = Sha256::new();
            hasher.update(seed.to_le_bytes());
            hasher.update(label.as_bytes());
            (hasher.finalize().into(), label)
        })
        .collect();
    ranked.sort();
    ranked.dedup_by(|a, b| a.1 == b.1);
    ranked
        .into_iter()
        .enumerate()
        .map(|(rank, (_, label))| (label.to_owned(), rank % folds))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        (0..101).map(|i| format!("LABEL{i}")).collect()
    }

    #[test]
    fn folds_are_deterministic_disjoint_covering_and_balanced() {
        let names = names();
        let a = assign(names.iter().map(String::as_str), 5, 7);
        let b = assign(names.iter().rev().map(String::as_str), 5, 7);
        assert_eq!(a, b, "independent of input order");
        assert_eq!(a.len(), names.len(), "every label has exactly one fold");
        let mut sizes = [0usize; 5];
        for fold in a.values() {
            sizes[*fold] += 1;
        }
        assert!(sizes.iter().all(|&s| s == 20 || s == 21), "{sizes:?}");
        let other = assign(names.iter().map(String::as_str), 5, 8);
        assert_ne!(a, other, "the seed changes the split");
    }

    #[test]
    fn a_repeated_label_keeps_one_fold() {
        let folds = assign(["A", "B", "A", "C"], 2, 0);
        assert_eq!(folds.len(), 3);
    }
}
