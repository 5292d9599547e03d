//! A label's set id as clients send it: the SPL setId UUID, any letter case, kept lowercase
//! (the form the store keys labels by).

use super::invalid::InvalidInput;

const LENGTH: usize = 36;
const HYPHENS: [usize; 4] = [8, 13, 18, 23];

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SetId(String);

impl SetId {
    pub fn parse(text: &str) -> Result<Self, InvalidInput> {
        let valid = text.len() == LENGTH
            && text.bytes().enumerate().all(|(i, b)| {
                if HYPHENS.contains(&i) {
                    b == b'-'
                } else {
                    b.is_ascii_hexdigit()
                }
            });
        if !valid {
            return Err(InvalidInput::SetId);
        }
        Ok(Self(text.to_ascii_lowercase()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uuid_in_any_case_is_a_lowercase_set_id() {
        let upper = SetId::parse("762B51BE-1893-4CD1-9511-E645FC420D3A").unwrap();
        assert_eq!(upper.as_str(), "762b51be-1893-4cd1-9511-e645fc420d3a");
        assert_eq!(
            SetId::parse("762b51be-1893-4cd1-9511-e645fc420d3a").unwrap(),
            upper
        );
    }

    #[test]
    fn anything_else_is_refused() {
        for bad in [
            "",
            "762b51be18934cd19511e645fc420d3a",
            "762b51be-1893-4cd1-9511-e645fc420d3",
            "762b51be-1893-4cd1-9511-e645fc420d3g",
            "762b51be_1893-4cd1-9511-e645fc420d3a",
            "../../etc/passwd-0000-0000-000000000",
        ] {
            assert_eq!(SetId::parse(bad), Err(InvalidInput::SetId), "{bad:?}");
        }
    }
}
