//! A hasher for map keys that are SHA-256 bits already (fingerprints, text hashes): they are
//! evenly spread, so hashing them again (SipHash, the default) only costs time when millions
//! are placed at open or per search. Only a generation's own keys are inserted; a looked-up key
//! cannot change a table. No I/O.

use std::hash::{BuildHasherDefault, Hasher};

/// Hashes a `u64` key to itself and a `u128` key (a fingerprint) to its low half.
#[derive(Default)]
pub struct PrehashedBits(u64);

/// The `BuildHasher` of maps keyed by fingerprints or text hashes.
pub type Prehashed = BuildHasherDefault<PrehashedBits>;

impl Hasher for PrehashedBits {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }

    fn write_u128(&mut self, bits: u128) {
        self.0 = bits as u64;
    }
}

#[cfg(test)]
mod tests {
    use std::hash::BuildHasher;

    use super::Prehashed;
    use drugcite_core::domain::{Fingerprint, TextHash};

    #[test]
    fn a_fingerprint_hashes_to_its_low_half_and_a_text_hash_to_itself() {
        let fp = Fingerprint::of_segment("set", "warnings", "text");
        assert_eq!(Prehashed::default().hash_one(fp), fp.low());
        let text = TextHash::of("text");
        assert_eq!(Prehashed::default().hash_one(text), text.get());
        assert_eq!(Prehashed::default().hash_one(text.get()), text.get());
    }
}
