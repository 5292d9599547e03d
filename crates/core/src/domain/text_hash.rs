//! The identity of a segment's exact text, whatever label it is in: what copies of one
//! paragraph under several set ids (repackagers) share. Pure hashing; no storage, no HTTP.

use std::fmt;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Domain tag hashed before the text, so that no other SHA-256 use collides with ours.
const DOMAIN_TAG: &[u8] = b"drugcite.text.v1";

/// First 8 bytes (big endian) of SHA-256 over the tag, the text's byte length (u64 BE) and
/// its UTF-8 bytes. Not a fingerprint: it names text, not a label's segment.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
#[serde(transparent)]
pub struct TextHash(u64);

impl TextHash {
    pub fn of(text: &str) -> Self {
        let mut hasher = Sha256::new();
        hasher.update(DOMAIN_TAG);
        hasher.update((text.len() as u64).to_be_bytes());
        hasher.update(text.as_bytes());
        let digest = hasher.finalize();
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        Self(u64::from_be_bytes(first))
    }

    /// The value a store kept (the tantivy field, a vectors row).
    pub fn from_stored(value: u64) -> Self {
        Self(value)
    }

    pub fn get(self) -> u64 {
        self.0
    }
}

/// 16 lowercase hex digits.
impl fmt::Display for TextHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_text_equal_hash_and_the_contract_recomputes() {
        let text = "Concomitant use in patients taking pimozide is contraindicated.";
        assert_eq!(TextHash::of(text), TextHash::of(&String::from(text)));
        assert_ne!(TextHash::of(text), TextHash::of(&text.replace('.', "")));
        let mut hasher = Sha256::new();
        hasher.update(b"drugcite.text.v1");
        hasher.update((text.len() as u64).to_be_bytes());
        hasher.update(text.as_bytes());
        let digest = hasher.finalize();
        let want = u64::from_be_bytes(digest[..8].try_into().unwrap());
        assert_eq!(TextHash::of(text).get(), want);
        assert_eq!(TextHash::of(text).to_string(), format!("{want:016x}"));
    }

    #[test]
    fn the_length_prefix_separates_texts_that_share_bytes() {
        assert_ne!(TextHash::of(""), TextHash::of("\0"));
        assert_eq!(
            TextHash::from_stored(TextHash::of("a").get()),
            TextHash::of("a")
        );
    }
}
