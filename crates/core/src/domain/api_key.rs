//! An API key as presented by a client: `dck_<12 hex id>_<40 hex secret>`.
//! The id names the stored record; the whole key is only ever compared by its hash.

use std::fmt;

use rand::RngCore;
use sha2::{Digest, Sha256};

use super::invalid::InvalidInput;

const PREFIX: &str = "dck_";
const ID_HEX: usize = 12;
const SECRET_HEX: usize = 40;

#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn parse(raw: &str) -> Result<Self, InvalidInput> {
        let rest = raw.strip_prefix(PREFIX).ok_or(InvalidInput::ApiKeyFormat)?;
        let (id, secret) = rest.split_once('_').ok_or(InvalidInput::ApiKeyFormat)?;
        let is_hex = |s: &str, len: usize| {
            s.len() == len && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        };
        if is_hex(id, ID_HEX) && is_hex(secret, SECRET_HEX) {
            Ok(Self(raw.to_owned()))
        } else {
            Err(InvalidInput::ApiKeyFormat)
        }
    }

    /// A fresh key from the operating system's random source.
    pub fn generate() -> Self {
        let mut bytes = [0u8; (ID_HEX + SECRET_HEX) / 2];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        Self(format!("{PREFIX}{}_{}", &hex[..ID_HEX], &hex[ID_HEX..]))
    }

    /// The public part that names the key in `keys list` and `keys revoke`.
    pub fn id(&self) -> &str {
        &self.0[PREFIX.len()..PREFIX.len() + ID_HEX]
    }

    /// SHA-256 of the whole key; this, never the key, is what the key store keeps.
    pub fn hash(&self) -> [u8; 32] {
        Sha256::digest(self.0.as_bytes()).into()
    }

    /// The key itself, for printing once at creation.
    pub fn expose(&self) -> &str {
        &self.0
    }
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
        ] {
            assert_eq!(ApiKey::parse(bad), Err(InvalidInput::ApiKeyFormat), "{bad}");
        }
    }
}
