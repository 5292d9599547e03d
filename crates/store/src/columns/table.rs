//! One fixed-width table of a generation: rows sorted by a big-endian key, found in place by
//! interpolation search (the keys are hash bits, spread evenly), read from a memory map or from
//! bytes built in memory in the same layout. Knows nothing of what the rows mean.
//!
//! ```text
//! tag (8 bytes) | rows (u64 LE) | key width (u32 LE) | value width (u32 LE)
//! keys (rows × key width, ascending) | values (rows × value width) | trailer (any bytes)
//! ```

use std::fs::File;
use std::io::Write;
use std::ops::Deref;
use std::path::Path;

use memmap2::Mmap;

use crate::encoded::{foreign_tag, map_for_lookups};
use crate::{io_error, StoreError};

const HEADER: usize = 24;
/// Interpolation probes before the search falls back to halving (bounds a skewed table).
const INTERPOLATIONS: usize = 6;

/// A table's bytes: mapped from a sealed generation, or built in memory.
enum Bytes {
    Mapped(Mmap),
    Owned(Vec<u8>),
}

impl Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(map) => map,
            Bytes::Owned(bytes) => bytes,
        }
    }
}

pub(crate) struct Table {
    bytes: Bytes,
    rows: usize,
    key: usize,
    value: usize,
}

impl Table {
    /// The table of `rows` (keys unique), sorted by key, then `trailer`.
    pub(crate) fn build<const K: usize, const V: usize>(
        tag: &[u8; 8],
        mut rows: Vec<([u8; K], [u8; V])>,
        trailer: &[u8],
    ) -> Self {
        rows.sort_unstable_by_key(|row| row.0);
        debug_assert!(rows.windows(2).all(|w| w[0].0 != w[1].0), "unique keys");
        let mut bytes = Vec::with_capacity(HEADER + rows.len() * (K + V) + trailer.len());
        bytes.extend_from_slice(tag);
        bytes.extend_from_slice(&(rows.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&(K as u32).to_le_bytes());
        bytes.extend_from_slice(&(V as u32).to_le_bytes());
        rows.iter()
            .for_each(|(key, _)| bytes.extend_from_slice(key));
        rows.iter()
            .for_each(|(_, value)| bytes.extend_from_slice(value));
        bytes.extend_from_slice(trailer);
        Self {
            bytes: Bytes::Owned(bytes),
            rows: rows.len(),
            key: K,
            value: V,
        }
    }

    /// Maps the table `write` stored at `path`; refuses one of another tag or row layout, or
    /// one shorter than its header says.
    pub(crate) fn map(
        path: &Path,
        tag: &[u8; 8],
        key: usize,
        value: usize,
    ) -> Result<Self, StoreError> {
        let file = File::open(path).map_err(io_error(format!("opening {}", path.display())))?;
        let map = map_for_lookups(&file, path)?;
        let corrupt = |reason: String| StoreError::Corrupt {
            path: path.display().to_string(),
            reason,
        };
        let header = map
            .get(..HEADER)
            .ok_or_else(|| corrupt("shorter than its header".into()))?;
        if &header[..8] != tag {
            return Err(corrupt(foreign_tag(header, tag)));
        }
        let word = |at: usize, width: usize| {
            let mut le = [0u8; 8];
            le[..width].copy_from_slice(&header[at..at + width]);
            u64::from_le_bytes(le)
        };
        let rows = usize::try_from(word(8, 8)).unwrap_or(usize::MAX);
        if (word(16, 4), word(20, 4)) != (key as u64, value as u64) {
            return Err(corrupt("rows of another width".into()));
        }
        let body = rows
            .checked_mul(key + value)
            .and_then(|b| b.checked_add(HEADER));
        if body.is_none_or(|body| body > map.len()) {
            return Err(corrupt(format!("cut short: {rows} rows do not fit")));
        }
        Ok(Self {
            bytes: Bytes::Mapped(map),
            rows,
            key,
            value,
        })
    }

    /// Writes the table to a new file at `path`, synced.
    pub(crate) fn write(&self, path: &Path) -> Result<(), StoreError> {
        File::create(path)
            .and_then(|mut file| file.write_all(&self.bytes).and_then(|()| file.sync_all()))
            .map_err(io_error(format!("writing {}", path.display())))
    }

    pub(crate) fn len(&self) -> usize {
        self.rows
    }

    pub(crate) fn key(&self, row: usize) -> &[u8] {
        let at = HEADER + row * self.key;
        &self.bytes[at..at + self.key]
    }

    pub(crate) fn value(&self, row: usize) -> &[u8] {
        let at = HEADER + self.rows * self.key + row * self.value;
        &self.bytes[at..at + self.value]
    }

    /// The bytes after the rows.
    pub(crate) fn trailer(&self) -> &[u8] {
        &self.bytes[HEADER + self.rows * (self.key + self.value)..]
    }

    /// The row whose key is `key`.
    pub(crate) fn find(&self, key: &[u8]) -> Option<usize> {
        let row = self.lower_bound(key);
        (row < self.rows && self.key(row) == key).then_some(row)
    }

    /// The first row whose key is not below `probe`: the keys' first 8 bytes place the
    /// guesses, then halving finishes. Keys are told apart by those 8 bytes as one integer,
    /// the rest compared only when they are equal (a strict order of heads is the keys' order).
    fn lower_bound(&self, probe: &[u8]) -> usize {
        let probe_head = head(probe);
        let below = |row: usize| {
            let key = self.key(row);
            match head(key).cmp(&probe_head) {
                std::cmp::Ordering::Equal => key < probe,
                order => order.is_lt(),
            }
        };
        let target = probe_head as f64;
        let (mut lo, mut hi) = (0, self.rows);
        for _ in 0..INTERPOLATIONS {
            if hi - lo < 2 {
                break;
            }
            let (first, last) = (head(self.key(lo)) as f64, head(self.key(hi - 1)) as f64);
            let share = if last > first {
                ((target - first) / (last - first)).clamp(0.0, 1.0)
            } else {
                0.5
            };
            let guess = lo + (share * (hi - 1 - lo) as f64) as usize;
            if below(guess) {
                lo = guess + 1;
            } else {
                hi = guess;
            }
        }
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if below(mid) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

/// The little-endian `u32` at `at` of a row's value.
pub(crate) fn le_u32(value: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(value[at..at + 4].try_into().expect("4 bytes"))
}

/// The first 8 bytes of a key (zero-padded), big-endian: its place among the keys.
fn head(key: &[u8]) -> u64 {
    if let Some(first) = key.first_chunk::<8>() {
        return u64::from_be_bytes(*first);
    }
    let mut be = [0u8; 8];
    be[..key.len()].copy_from_slice(key);
    u64::from_be_bytes(be)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TAG: &[u8; 8] = b"TESTTBL1";

    fn key(high: u64, low: u8) -> [u8; 9] {
        let mut key = [low; 9];
        key[..8].copy_from_slice(&high.to_be_bytes());
        key
    }

    #[test]
    fn a_head_is_the_first_eight_bytes_big_endian_zero_padded() {
        assert_eq!(head(&[1, 2, 3, 4, 5, 6, 7, 8, 9]), 0x0102_0304_0506_0708);
        assert_eq!(head(&[1, 2]), 0x0102_0000_0000_0000);
        assert_eq!(head(&[]), 0);
    }

    #[test]
    fn every_key_is_found_in_place_and_absent_ones_are_not() {
        // Even keys, then a skewed cluster: interpolation's guesses are poor there.
        let highs: Vec<u64> = (0..3000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .chain((0..500).map(|i| 1000 + i))
            .collect();
        let rows: Vec<([u8; 9], [u8; 2])> = highs
            .iter()
            .flat_map(|&h| [(key(h, 1), [1, h as u8]), (key(h, 7), [7, h as u8])])
            .collect();
        let table = Table::build(TAG, rows, b"tail");
        assert_eq!(table.len(), 7000);
        assert_eq!(table.trailer(), b"tail");
        for &h in &highs {
            let row = table.find(&key(h, 7)).unwrap();
            assert_eq!(table.value(row), [7, h as u8]);
            assert_eq!(table.find(&key(h, 3)), None);
            let first = table.find(&key(h, 1)).unwrap();
            assert_eq!(first + 1, row, "in key order");
        }
        assert_eq!(table.find(&key(u64::MAX, 0)), None);
        assert_eq!(table.find(&key(0, 0)), None);
    }

    #[test]
    fn a_written_table_maps_as_built_and_a_cut_or_foreign_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.cols");
        let rows = (0..100u64).map(|i| (key(i << 40, 0), [i as u8])).collect();
        Table::build(TAG, rows, &[]).write(&path).unwrap();
        let mapped = Table::map(&path, TAG, 9, 1).unwrap();
        assert_eq!(mapped.value(mapped.find(&key(42 << 40, 0)).unwrap()), [42]);
        assert!(Table::map(&path, b"OTHERTBL", 9, 1).is_err());
        assert!(Table::map(&path, TAG, 9, 2).is_err());
        let whole = std::fs::read(&path).unwrap();
        std::fs::write(&path, &whole[..whole.len() - 1]).unwrap();
        assert!(Table::map(&path, TAG, 9, 1).is_err());
    }
}
