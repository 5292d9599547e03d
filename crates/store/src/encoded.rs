//! The binary form of a generation's derived files (graph, label history): an 8-byte tag
//! naming the structure and its format version, then the structure in postcard, decoded in one
//! pass from a memory map; how a generation's files are mapped for scattered reads and how a
//! file of the wrong tag is reported. Also how fingerprints serialise (hex in JSON, bytes in
//! binary).
//! Knows nothing of what the structures mean; never writes into a published generation.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use memmap2::{Advice, Mmap};
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::{io_error, StoreError};

/// Writes `tag` then `value` to a new file at `path`, synced.
pub fn write<T: Serialize>(path: &Path, tag: &[u8; 8], value: &T) -> std::io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
    out.write_all(tag)?;
    postcard::to_io(value, &mut out).map_err(std::io::Error::other)?;
    out.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// The value `write` stored at `path` under `tag`. A file of another tag (another structure or
/// format version), one cut short, or one with bytes after the value is `InvalidData`.
pub fn read<T: DeserializeOwned>(path: &Path, tag: &[u8; 8]) -> std::io::Result<T> {
    let file = File::open(path)?;
    // SAFETY: a generation's files never change once written (sealed by the checksums); the
    // map lives only while this decode reads it.
    let map = unsafe { memmap2::Mmap::map(&file) }?;
    decode(&map, tag).map_err(|reason| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{}: {reason}", path.display()),
        )
    })
}

/// Maps `file` (at `path`) of a published generation for reads of a few scattered rows.
pub fn map_for_lookups(file: &File, path: &Path) -> Result<Mmap, StoreError> {
    // SAFETY: a published generation is immutable (written once, sealed by its checksums,
    // replaced only by a new generation directory), so the mapped bytes do not change under
    // the map; callers check the length before reading rows.
    let map =
        unsafe { Mmap::map(file) }.map_err(io_error(format!("mapping {}", path.display())))?;
    // Look-ups touch a few scattered rows: read-ahead would only fill memory.
    map.advise(Advice::Random)
        .map_err(io_error(format!("advising {}", path.display())))?;
    Ok(map)
}

/// Why a file that starts with `found` is refused where `tag` was expected.
pub fn foreign_tag(found: &[u8], tag: &[u8; 8]) -> String {
    format!(
        "starts with {:?}, not {:?}: written by another drugcite version; re-ingest",
        String::from_utf8_lossy(&found[..found.len().min(8)]),
        String::from_utf8_lossy(tag)
    )
}

fn decode<T: DeserializeOwned>(bytes: &[u8], tag: &[u8; 8]) -> Result<T, String> {
    let body = bytes
        .strip_prefix(tag.as_slice())
        .ok_or_else(|| foreign_tag(bytes, tag))?;
    match postcard::take_from_bytes(body) {
        Ok((value, [])) => Ok(value),
        Ok((_, rest)) => Err(format!("{} bytes after the end", rest.len())),
        Err(e) => Err(format!("undecodable ({e})")),
    }
}

/// Serde for one fingerprint: 32 hex digits in JSON, 16 big-endian bytes in binary forms.
pub mod fingerprint {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    use drugcite_core::domain::Fingerprint;

    pub fn serialize<S: Serializer>(fp: &Fingerprint, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.serialize_str(&fp.to_hex())
        } else {
            s.serialize_bytes(&fp.to_be_bytes())
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Fingerprint, D::Error> {
        if d.is_human_readable() {
            let text = String::deserialize(d)?;
            return Fingerprint::from_hex(&text)
                .ok_or_else(|| D::Error::custom("fingerprint: expected 32 hex digits"));
        }
        match d.deserialize_bytes(crate::encoded::fingerprints::Packed)?[..] {
            [one] => Ok(one),
            _ => Err(D::Error::custom("fingerprint: expected 16 bytes")),
        }
    }
}

/// Serde for a list of fingerprints: hex strings in JSON; in binary forms one byte string of
/// 16 big-endian bytes each (decoded without an allocation per fingerprint).
pub mod fingerprints {
    use std::fmt;

    use serde::de::{Error, Visitor};
    use serde::{Deserialize, Deserializer, Serializer};

    use drugcite_core::domain::Fingerprint;

    pub fn serialize<S: Serializer>(fps: &[Fingerprint], s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            return s.collect_seq(fps.iter().map(|fp| fp.to_hex()));
        }
        let bytes: Vec<u8> = fps.iter().flat_map(|fp| fp.to_be_bytes()).collect();
        s.serialize_bytes(&bytes)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Fingerprint>, D::Error> {
        if !d.is_human_readable() {
            return d.deserialize_bytes(Packed);
        }
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|hex| {
                Fingerprint::from_hex(hex)
                    .ok_or_else(|| D::Error::custom(format!("not a fingerprint: {hex:?}")))
            })
            .collect()
    }

    /// Fingerprints packed as 16 big-endian bytes each.
    pub(super) struct Packed;

    impl Visitor<'_> for Packed {
        type Value = Vec<Fingerprint>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("fingerprints of 16 bytes each")
        }

        fn visit_bytes<E: Error>(self, bytes: &[u8]) -> Result<Self::Value, E> {
            if !bytes.len().is_multiple_of(16) {
                return Err(E::custom("fingerprints: not a multiple of 16 bytes"));
            }
            let fingerprint =
                |chunk: &[u8]| Fingerprint::from_be_bytes(chunk.try_into().expect("16 bytes"));
            Ok(bytes.chunks_exact(16).map(fingerprint).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    use super::*;
    use drugcite_core::domain::Fingerprint;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Sample {
        #[serde(with = "fingerprint")]
        one: Fingerprint,
        #[serde(with = "fingerprints")]
        many: Vec<Fingerprint>,
        name: String,
    }

    const TAG: &[u8; 8] = b"TESTFMT1";

    fn sample() -> Sample {
        let fp = |text: &str| Fingerprint::of_segment("set", "warnings", text);
        Sample {
            one: fp("a"),
            many: vec![fp("b"), fp("c")],
            name: "x".into(),
        }
    }

    #[test]
    fn a_value_round_trips_in_binary_and_fingerprints_stay_hex_in_json() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sample.bin");
        write(&path, TAG, &sample()).unwrap();
        assert_eq!(read::<Sample>(&path, TAG).unwrap(), sample());
        let json = serde_json::to_value(sample()).unwrap();
        assert_eq!(json["one"], sample().one.to_hex());
        assert_eq!(json["many"][1], sample().many[1].to_hex());
        let back: Sample = serde_json::from_value(json).unwrap();
        assert_eq!(back, sample());
    }

    #[test]
    fn a_cut_extended_or_foreign_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sample.bin");
        write(&path, TAG, &sample()).unwrap();
        let whole = std::fs::read(&path).unwrap();
        let refused = |bytes: &[u8], tag: &[u8; 8]| {
            std::fs::write(&path, bytes).unwrap();
            let error = read::<Sample>(&path, tag).unwrap_err();
            assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);
            error.to_string()
        };
        refused(&whole[..whole.len() - 3], TAG);
        assert!(refused(&[whole.as_slice(), b"x"].concat(), TAG).contains("after the end"));
        assert!(refused(&whole, b"OTHERFMT").contains("re-ingest"));
        let mut shortened = whole.clone();
        shortened[8] = 15; // the first fingerprint's length
        refused(&shortened, TAG);
    }
}
