//! The name of a published generation (`g<15-digit millis>-<8 hex>`): the only form `CURRENT`
//! may hold and pruning may touch. Parsing is the way in; it never names a path outside
//! `indexes/` (no `/`, no `..`, nothing empty).

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

const MILLIS_DIGITS: usize = 15;
const SUFFIX_HEX: usize = 8;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GenerationName(String);

impl GenerationName {
    /// A fresh name: the wall-clock milliseconds and 32 random bits. Ordering by name is only
    /// a hint of age; nothing is decided by it.
    pub fn fresh() -> Self {
        let millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        Self(format!("g{millis:015}-{:08x}", rand::random::<u32>()))
    }

    /// Accepts exactly the form `fresh` makes; anything else is `None`.
    pub fn parse(text: &str) -> Option<Self> {
        let rest = text.strip_prefix('g')?;
        let (millis, suffix) = rest.split_once('-')?;
        let valid = millis.len() == MILLIS_DIGITS
            && millis.bytes().all(|b| b.is_ascii_digit())
            && suffix.len() == SUFFIX_HEX
            && suffix
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        valid.then(|| Self(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for GenerationName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_names_parse_back() {
        let name = GenerationName::fresh();
        assert_eq!(GenerationName::parse(name.as_str()), Some(name));
    }

    #[test]
    fn anything_but_the_generation_form_is_refused() {
        for bad in [
            "",
            "..",
            "../x",
            "/etc",
            "/tmp/g000000000000001-0000abcd",
            "g000000000000001-0000abcd/..",
            "g000000000000001-0000abcd.building",
            "g00000000000001-0000abcd",
            "g000000000000001-0000ABCD",
            "x000000000000001-0000abcd",
            "g000000000000001_0000abcd",
        ] {
            assert_eq!(GenerationName::parse(bad), None, "{bad:?}");
        }
        assert!(GenerationName::parse("g000000000000001-0000abcd").is_some());
    }
}
