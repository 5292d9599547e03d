//! An API key as presented by a client: `dck_<12 hex id>_<40 hex secret>`.
//! The id names the stored record; the whole key is only ever compared by its hash.

use std::fmt;

use rand::RngCore;
use sha2::{Digest, Sha256};

use super::invalid::InvalidInput;

const PREFIX: &str = "dck_";
const ID_HEX: usize = 12;
const SECRET_HEX: usize = 40;
const KEY_LEN: usize = PREFIX.len() + ID_HEX + 1 + SECRET_HEX;

/// The key's ASCII bytes, held inline: parsing one on every request allocates nothing.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey([u8; KEY_LEN]);

impl ApiKey {
    pub fn parse(raw: &str) -> Result<Self, InvalidInput> {
        let bytes: [u8; KEY_LEN] = raw
            .as_bytes()
            .try_into()
            .map_err(|_| InvalidInput::ApiKeyFormat)?;
        let (prefix, rest) = bytes.split_at(PREFIX.len());
        let (id, rest) = rest.split_at(ID_HEX);
        let (separator, secret) = rest.split_at(1);
        let is_hex = |part: &[u8]| {
            part.iter()
                .fold(true, |hex, b| hex & matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        };
        if prefix == PREFIX.as_bytes() && separator == b"_" && is_hex(id) && is_hex(secret) {
            Ok(Self(bytes))
        } else {
            Err(InvalidInput::ApiKeyFormat)
        }
    }

    /// A fresh key from the operating system's random source.
    pub fn generate() -> Self {
        let mut bytes = [0u8; (ID_HEX + SECRET_HEX) / 2];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        Self::parse(&format!("{PREFIX}{}_{}", &hex[..ID_HEX], &hex[ID_HEX..]))
            .expect("a generated key is well formed")
    }

    /// The public part that names the key in `keys list` and `keys revoke`.
    pub fn id(&self) -> &str {
        ascii(&self.0[PREFIX.len()..PREFIX.len() + ID_HEX])
    }

    /// SHA-256 of the whole key; this, never the key, is what the key store keeps.
    pub fn hash(&self) -> [u8; 32] {
        Sha256::digest(self.0).into()
    }

    /// The key itself, for printing once at creation.
    pub fn expose(&self) -> &str {
        ascii(&self.0)
    }
}

/// Bytes `parse` accepted (hex digits, `dck`, `_`) as text.
fn ascii(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("a parsed key is ASCII")
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKey({}…)", self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_parse_and_differ() {
        let a = ApiKey::generate();
        let b = ApiKey::generate();
        assert_ne!(a, b);
        assert_eq!(ApiKey::parse(a.expose()).unwrap(), a);
        assert_eq!(a.id().len(), ID_HEX);
        assert!(!format!("{a:?}").contains(&a.expose()[PREFIX.len() + ID_HEX..]));
    }

    #[test]
    fn malformed_keys_are_refused() {
        let good = ApiKey::generate();
        for bad in [
            "",
            "dck_",
            "sk_live_123",
            &good.expose()[1..],
            &good.expose().to_uppercase(),
            &format!("{}0", good.expose()),
            &good.expose().replacen('_', "-", 2),
            &format!("{}g", &good.expose()[..KEY_LEN - 1]),
        ] {
            assert_eq!(ApiKey::parse(bad), Err(InvalidInput::ApiKeyFormat), "{bad}");
        }
    }
}
