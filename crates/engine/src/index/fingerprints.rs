//! Fingerprint resolution: exact match, else the nearest indexed fingerprint within a small
//! Hamming radius. Exact search of the radius by pigeonhole: two 128-bit values at distance
//! ≤ 7 agree on at least one of eight 16-bit blocks, so only fingerprints sharing a block with
//! the query are compared. No I/O here; the engine supplies the entries.

use drugcite_core::domain::{Fingerprint, MAX_HAMMING_RADIUS};
use drugcite_store::SegmentAddress;

const BLOCKS: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    Exact(SegmentAddress),
    /// The nearest indexed fingerprint differs in `distance` bits (1..=MAX_HAMMING_RADIUS).
    Near {
        nearest: Fingerprint,
        distance: u32,
    },
    Absent,
}

pub struct FingerprintIndex {
    /// Sorted by fingerprint.
    entries: Vec<(Fingerprint, SegmentAddress)>,
    /// Per block: (block value, position in `entries`), sorted.
    blocks: Vec<Vec<(u16, u32)>>,
}

impl FingerprintIndex {
    pub fn build(mut entries: Vec<(Fingerprint, SegmentAddress)>) -> Self {
        entries.sort_unstable();
        let blocks = (0..BLOCKS).map(|b| block_column(&entries, b)).collect();
        Self { entries, blocks }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn lookup(&self, query: Fingerprint) -> Lookup {
        if let Ok(at) = self.entries.binary_search_by(|(fp, _)| fp.cmp(&query)) {
            return Lookup::Exact(self.entries[at].1);
        }
        self.nearest(query)
            .map_or(Lookup::Absent, |(distance, nearest)| Lookup::Near {
                nearest,
                distance,
            })
    }

    /// Smallest (distance, fingerprint) within the radius: ties go to the smaller fingerprint.
    fn nearest(&self, query: Fingerprint) -> Option<(u32, Fingerprint)> {
        let mut best: Option<(u32, Fingerprint)> = None;
        for (b, column) in self.blocks.iter().enumerate() {
            let value = query.block(b);
            let from = column.partition_point(|&(v, _)| v < value);
            for &(_, position) in column[from..].iter().take_while(|&&(v, _)| v == value) {
                let candidate = self.entries[position as usize].0;
                let distance = candidate.hamming_distance(query);
                if distance <= MAX_HAMMING_RADIUS && best.is_none_or(|b| (distance, candidate) < b)
                {
                    best = Some((distance, candidate));
                }
            }
        }
        best
    }
}

/// (block `b` of each entry, its position), ordered as sorting those pairs would order them
/// (by value, then position), by counting the 2^16 values: linear in the entries, which
/// matters at millions of segments.
fn block_column(entries: &[(Fingerprint, SegmentAddress)], b: usize) -> Vec<(u16, u32)> {
    let mut next = vec![0usize; (1 << 16) + 1];
    for (fp, _) in entries {
        next[usize::from(fp.block(b)) + 1] += 1;
    }
    for value in 1..next.len() {
        next[value] += next[value - 1];
    }
    let mut column = vec![(0u16, 0u32); entries.len()];
    for (position, (fp, _)) in entries.iter().enumerate() {
        let value = fp.block(b);
        let at = &mut next[usize::from(value)];
        column[*at] = (value, position as u32);
        *at += 1;
    }
    column
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::DocAddress;

    fn index_of(fps: &[Fingerprint]) -> FingerprintIndex {
        FingerprintIndex::build(
            fps.iter()
                .enumerate()
                .map(|(i, &fp)| (fp, SegmentAddress(DocAddress::new(0, i as u32))))
                .collect(),
        )
    }

    fn flip(fp: Fingerprint, bits: &[u32]) -> Fingerprint {
        let mask = bits.iter().fold(0u128, |m, &b| m | (1u128 << b));
        let flipped = fp.bits() ^ mask;
        Fingerprint::from_halves((flipped >> 64) as u64, flipped as u64)
    }

    #[test]
    fn exact_near_and_absent() {
        let fps: Vec<Fingerprint> = (0..2000)
            .map(|i| Fingerprint::of_segment("set", "warnings", &format!("segment {i}")))
            .collect();
        let index = index_of(&fps);
        assert_eq!(index.len(), 2000);
        assert!(matches!(index.lookup(fps[42]), Lookup::Exact(_)));
        for distance in 1..=MAX_HAMMING_RADIUS {
            // Spread flipped bits over distinct blocks: the hardest case for the pigeonhole search.
            let bits: Vec<u32> = (0..distance).map(|i| i * 17 + 3).collect();
            assert_eq!(
                index.lookup(flip(fps[7], &bits)),
                Lookup::Near {
                    nearest: fps[7],
                    distance
                }
            );
        }
        let far = flip(fps[7], &[1, 18, 35, 52, 69, 86, 103, 120]);
        assert_eq!(index.lookup(far), Lookup::Absent);
    }

    #[test]
    fn nearest_is_found_exactly_against_a_brute_force_scan() {
        let fps: Vec<Fingerprint> = (0..500)
            .map(|i| Fingerprint::of_segment("s", "k", &i.to_string()))
            .collect();
        let index = index_of(&fps);
        for (i, &fp) in fps.iter().enumerate().take(100) {
            let query = flip(
                fp,
                &[
                    (i % 128) as u32,
                    ((i * 7) % 128) as u32,
                    127 - (i % 50) as u32,
                ],
            );
            let brute = fps
                .iter()
                .map(|&c| (c.hamming_distance(query), c))
                .filter(|&(d, _)| d <= MAX_HAMMING_RADIUS)
                .min();
            let found = match index.lookup(query) {
                Lookup::Exact(_) => Some((0, query)),
                Lookup::Near { nearest, distance } => Some((distance, nearest)),
                Lookup::Absent => None,
            };
            assert_eq!(found, brute);
        }
    }

    #[test]
    fn block_columns_are_the_sorted_pairs() {
        let fps: Vec<Fingerprint> = (0..3_000u64)
            .map(|i| Fingerprint::of_segment("s", "k", &(i % 1_700).to_string()))
            .collect();
        let mut entries: Vec<(Fingerprint, SegmentAddress)> = fps
            .iter()
            .enumerate()
            .map(|(i, fp)| (*fp, SegmentAddress(tantivy::DocAddress::new(0, i as u32))))
            .collect();
        entries.sort_unstable();
        for b in 0..BLOCKS {
            let mut want: Vec<(u16, u32)> = entries
                .iter()
                .enumerate()
                .map(|(i, (fp, _))| (fp.block(b), i as u32))
                .collect();
            want.sort_unstable();
            assert_eq!(block_column(&entries, b), want, "block {b}");
        }
    }
}
