//! The 128-bit segment fingerprint: its hash contract (DESIGN.md), parsing and display.
//! Knows nothing of storage, search or HTTP.

use std::fmt;

use sha2::{Digest, Sha256};

use super::invalid::InvalidInput;

/// Domain tag hashed before the parts, so that no other SHA-256 use collides with ours.
const DOMAIN_TAG: &[u8] = b"drugcite.segment.v1";
const BITS: usize = 128;

/// Largest Hamming distance verify reports as "near" (DESIGN.md: found exactly by splitting the
/// 128 bits into 8 blocks of 16); beyond it a fingerprint is simply not found.
pub const MAX_HAMMING_RADIUS: u32 = 7;

/// First 128 bits of SHA-256 over the tag and the length-prefixed (set_id, section key, text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint(u128);

impl Fingerprint {
    /// Characters of the public form (one `0`/`1` per bit).
    pub const LEN: usize = BITS;

    /// The fingerprint of one segment: a pure function of the label's set id, the openFDA
    /// section key (e.g. `boxed_warning`) and the exact segment text.
    pub fn of_segment(set_id: &str, section_key: &str, text: &str) -> Self {
        let mut hasher = Sha256::new();
        hasher.update(DOMAIN_TAG);
        for part in [set_id, section_key, text] {
            hasher.update((part.len() as u64).to_be_bytes());
            hasher.update(part.as_bytes());
        }
        let digest = hasher.finalize();
        let mut first = [0u8; 16];
        first.copy_from_slice(&digest[..16]);
        Self(u128::from_be_bytes(first))
    }

    /// Parses the public form: exactly 128 characters of `0`/`1`, most significant bit first.
    pub fn parse(text: &str) -> Result<Self, InvalidInput> {
        if text.len() != BITS {
            return Err(match text.chars().count() {
                BITS => InvalidInput::FingerprintAlphabet,
                length => InvalidInput::FingerprintLength(length),
            });
        }
        // Eight digits at a time (verify parses one per request): each byte must be 0x30 or
        // 0x31, and the multiply gathers the eight low bits, first digit highest.
        const DIGITS: u64 = 0x3030_3030_3030_3030;
        const LOW_BITS: u64 = 0x0101_0101_0101_0101;
        const GATHER: u64 = 0x0102_0408_1020_4080;
        let mut bits = 0u128;
        for chunk in text.as_bytes().chunks_exact(8) {
            let word = u64::from_be_bytes(chunk.try_into().expect("chunks of eight"));
            if word & !LOW_BITS != DIGITS {
                return Err(InvalidInput::FingerprintAlphabet);
            }
            bits = (bits << 8) | u128::from((word & LOW_BITS).wrapping_mul(GATHER) >> 56);
        }
        Ok(Self(bits))
    }

    /// Rebuilds a fingerprint from the two halves the index stores.
    pub fn from_halves(high: u64, low: u64) -> Self {
        Self((u128::from(high) << 64) | u128::from(low))
    }

    /// 32 lowercase hex digits, most significant first: the compact form stores keep.
    pub fn to_hex(self) -> String {
        format!("{:032x}", self.0)
    }

    pub fn from_hex(text: &str) -> Option<Self> {
        let valid = text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit());
        valid.then(|| u128::from_str_radix(text, 16).ok().map(Self))?
    }

    pub fn high(self) -> u64 {
        (self.0 >> 64) as u64
    }

    pub fn low(self) -> u64 {
        self.0 as u64
    }

    pub fn bits(self) -> u128 {
        self.0
    }

    /// The 16 bytes, most significant first: how binary files and tables store a fingerprint
    /// (byte order is fingerprint order).
    pub fn to_be_bytes(self) -> [u8; 16] {
        self.0.to_be_bytes()
    }

    /// The fingerprint `to_be_bytes` stored.
    pub fn from_be_bytes(bytes: [u8; 16]) -> Self {
        Self(u128::from_be_bytes(bytes))
    }

    /// The 16-bit block `index` (0 = most significant) used by the Hamming-radius index.
    pub fn block(self, index: usize) -> u16 {
        (self.0 >> (112 - 16 * index)) as u16
    }

    pub fn hamming_distance(self, other: Fingerprint) -> u32 {
        (self.0 ^ other.0).count_ones()
    }
}

/// The public form, one byte per bit (a plain loop: `{:0128b}` showed in verify's profile).
impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut digits = [b'0'; BITS];
        for (i, digit) in digits.iter_mut().enumerate() {
            if (self.0 >> (BITS - 1 - i)) & 1 == 1 {
                *digit = b'1';
            }
        }
        f.write_str(std::str::from_utf8(&digits).map_err(|_| fmt::Error)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Golden values computed independently with Python's hashlib (see README, "Fingerprints").
    #[test]
    fn hex_form_round_trips_and_rejects_other_lengths() {
        let fp = Fingerprint::from_halves(0x0123_4567_89ab_cdef, 42);
        assert_eq!(fp.to_hex(), "0123456789abcdef000000000000002a");
        assert_eq!(Fingerprint::from_hex(&fp.to_hex()), Some(fp));
        assert_eq!(Fingerprint::from_hex("0123"), None);
        assert_eq!(Fingerprint::from_hex(&"g".repeat(32)), None);
    }

    #[test]
    fn golden_values_match_the_documented_hash() {
        let fp = Fingerprint::of_segment(
            "f6346a11-0000-0000-0000-000000000000",
            "contraindications",
            "Concomitant use in patients taking pimozide is contraindicated.",
        );
        assert_eq!(fp.to_string(), GOLDEN_PIMOZIDE);
        let empty = Fingerprint::of_segment("", "", "");
        assert_eq!(empty.to_string(), GOLDEN_EMPTY);
    }

    const GOLDEN_PIMOZIDE: &str = "01100011101111001011111110110100110001110001011111000100101100010110111000010100001111011110100011000000011101000001110011100111";
    const GOLDEN_EMPTY: &str = "10011001010010100111001001010011110000000100100001001000001011111101101101101101100110111110011101001010011110011111100110110010";

    #[test]
    fn each_part_changes_the_fingerprint_and_parts_cannot_slide() {
        let base = Fingerprint::of_segment("a", "b", "c");
        assert_ne!(base, Fingerprint::of_segment("x", "b", "c"));
        assert_ne!(base, Fingerprint::of_segment("a", "x", "c"));
        assert_ne!(base, Fingerprint::of_segment("a", "b", "x"));
        assert_ne!(
            Fingerprint::of_segment("ab", "", "c"),
            Fingerprint::of_segment("a", "b", "c")
        );
    }

    #[test]
    fn display_and_parse_round_trip() {
        let fp = Fingerprint::of_segment("set", "warnings", "text");
        let shown = fp.to_string();
        assert_eq!(shown.len(), 128);
        assert_eq!(Fingerprint::parse(&shown), Ok(fp));
        assert_eq!(Fingerprint::from_halves(fp.high(), fp.low()), fp);
    }

    #[test]
    fn parse_reads_every_digit_in_place_and_rejects_any_other_byte() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for round in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let bits = u128::from(state) << 64 | u128::from(state.rotate_left(29) ^ round);
            let text = format!("{bits:0128b}");
            assert_eq!(Fingerprint::parse(&text), Ok(Fingerprint(bits)));
            let mut bytes = text.into_bytes();
            let at = (state % 128) as usize;
            bytes[at] = [b'2', b'/', b'p', b'q', 0x70 | bytes[at]][round as usize % 5];
            let altered = String::from_utf8(bytes).unwrap();
            assert_eq!(
                Fingerprint::parse(&altered),
                Err(InvalidInput::FingerprintAlphabet),
                "{altered}"
            );
        }
    }

    #[test]
    fn parse_rejects_wrong_length_and_alphabet() {
        assert_eq!(
            Fingerprint::parse(&"0".repeat(127)),
            Err(InvalidInput::FingerprintLength(127))
        );
        assert_eq!(
            Fingerprint::parse(&"0".repeat(129)),
            Err(InvalidInput::FingerprintLength(129))
        );
        let mut two = "0".repeat(127);
        two.push('2');
        assert_eq!(
            Fingerprint::parse(&two),
            Err(InvalidInput::FingerprintAlphabet)
        );
        let mut wide = "0".repeat(127);
        wide.push('١');
        assert_eq!(
            Fingerprint::parse(&wide),
            Err(InvalidInput::FingerprintAlphabet)
        );
    }

    #[test]
    fn blocks_cover_all_bits_most_significant_first() {
        let fp = Fingerprint::from_halves(0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210);
        let blocks: Vec<u16> = (0..8).map(|i| fp.block(i)).collect();
        assert_eq!(
            blocks,
            [0x0123, 0x4567, 0x89ab, 0xcdef, 0xfedc, 0xba98, 0x7654, 0x3210]
        );
        let flipped = Fingerprint::from_halves(fp.high() ^ 0b101, fp.low());
        assert_eq!(fp.hamming_distance(flipped), 2);
    }
}
