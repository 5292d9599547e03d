//! The parsed values of the accounts engine: `Email`, `Password`, `Credit` (integer
//! micro-dollars), `KeyName`. Their constructors are the only way in; nothing here does I/O.

use std::fmt;

use super::AccountError;

const MAX_EMAIL: usize = 254;
/// Fewest and most characters a password may have.
pub const PASSWORD_CHARS: (usize, usize) = (10, 128);
const MAX_KEY_NAME: usize = 100;

/// The zxcvbn score (0–4) a password needs unless configured otherwise: 3, "safely
/// unguessable" (about 10^10 guesses; see `Onboarding::password_min_score`).
pub const DEFAULT_PASSWORD_MIN_SCORE: u8 = 3;

/// A lowercased address with one `@`, a local part and a dotted domain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Self, AccountError> {
        let email = raw.trim().to_lowercase();
        let bad = || AccountError::BadEmail;
        let (local, domain) = email.split_once('@').ok_or_else(bad)?;
        let visible =
            |s: &str| !s.is_empty() && !s.chars().any(|c| c.is_whitespace() || c.is_control());
        let well_formed = visible(local)
            && visible(domain)
            && !domain.contains('@')
            && domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && email.len() <= MAX_EMAIL;
        if well_formed {
            Ok(Self(email))
        } else {
            Err(bad())
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A password that passes the rules: 10–128 characters, not the account's email address, and
/// hard enough to guess by zxcvbn's estimate (dictionaries of common passwords, names and
/// words, keyboard patterns, repeats, dates, l33t; the email's parts count as known words).
/// Never printed.
pub struct Password(String);

impl Password {
    /// Parses with the default strength (`DEFAULT_PASSWORD_MIN_SCORE`).
    pub fn parse(raw: &str, email: &Email) -> Result<Self, AccountError> {
        Self::parse_scored(raw, email, DEFAULT_PASSWORD_MIN_SCORE)
    }

    /// Parses, requiring a zxcvbn score of at least `min_score`.
    pub fn parse_scored(raw: &str, email: &Email, min_score: u8) -> Result<Self, AccountError> {
        let chars = raw.chars().count();
        let (min, max) = PASSWORD_CHARS;
        if chars < min || chars > max {
            return Err(AccountError::WeakPassword("must be 10 to 128 characters"));
        }
        let lower = raw.to_lowercase();
        let (local, domain) = email.as_str().split_once('@').unwrap_or_default();
        if lower.contains(email.as_str()) || lower == local {
            return Err(AccountError::WeakPassword("must not be your email address"));
        }
        let mut known: Vec<&str> = vec![local, domain, "drugcite"];
        known.extend(email.as_str().split(|c: char| !c.is_alphanumeric()));
        let estimate = zxcvbn::zxcvbn(raw, &known);
        if u8::from(estimate.score()) < min_score {
            return Err(AccountError::GuessablePassword(advice(&estimate)));
        }
        Ok(Self(raw.to_owned()))
    }

    pub(super) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(…)")
    }
}

/// zxcvbn's warning and suggestions as one sentence a user can act on.
fn advice(estimate: &zxcvbn::Entropy) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(feedback) = estimate.feedback() {
        parts.extend(feedback.warning().map(|w| w.to_string()));
        parts.extend(feedback.suggestions().iter().map(|s| s.to_string()));
    }
    if parts.is_empty() {
        parts.push("Use a few uncommon words together.".to_owned());
    }
    parts.join(" ")
}

/// An amount of credit in micro-dollars (USD 1 = 1,000,000). Never a float.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Credit(i64);

const MICROS_PER_USD: i64 = 1_000_000;

impl Credit {
    pub const ZERO: Credit = Credit(0);

    pub const fn from_micros(micros: i64) -> Self {
        Self(micros)
    }

    pub fn micros(self) -> i64 {
        self.0
    }

    /// `"5"`, `"5.00"`, `"0.005"`, `"-1.5"`: at most six decimals, at most USD 1,000,000,000.
    pub fn parse_usd(raw: &str) -> Result<Self, AccountError> {
        let bad = || AccountError::BadAmount(raw.to_owned());
        let text = raw.trim().trim_start_matches('$');
        let (negative, text) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty()
            || whole.len() > 10
            || fraction.len() > 6
            || !digits(whole)
            || !digits(fraction)
        {
            return Err(bad());
        }
        let whole: i64 = whole.parse().map_err(|_| bad())?;
        let fraction: i64 = format!("{fraction:0<6}").parse().map_err(|_| bad())?;
        let micros = whole * MICROS_PER_USD + fraction;
        if micros > 1_000_000_000 * MICROS_PER_USD {
            return Err(bad());
        }
        Ok(Self(if negative { -micros } else { micros }))
    }
}

impl fmt::Display for Credit {
    /// `USD 4.995`: at least two decimals, no trailing zeros beyond them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        let fraction = format!("{:06}", abs % 1_000_000);
        let fraction = fraction.trim_end_matches('0');
        let fraction = format!("{fraction:0<2}");
        write!(f, "USD {sign}{}.{fraction}", abs / 1_000_000)
    }
}

/// A key's name: 1–100 characters after trimming.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyName(String);

impl KeyName {
    pub fn parse(raw: &str) -> Result<Self, AccountError> {
        let name = raw.trim();
        if name.is_empty()
            || name.chars().count() > MAX_KEY_NAME
            || name.chars().any(char::is_control)
        {
            return Err(AccountError::BadKeyName);
        }
        Ok(Self(name.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_lowercased_and_need_a_dotted_domain() {
        assert_eq!(
            Email::parse(" Ann@Example.ORG ").unwrap().as_str(),
            "ann@example.org"
        );
        for bad in [
            "",
            "ann",
            "ann@",
            "@example.org",
            "ann@localhost",
            "a b@x.org",
            "a@b@c.org",
            "ann@.org",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn passwords_follow_the_rules() {
        let email = Email::parse("ann.lee@example.org").unwrap();
        assert!(Password::parse("correct horse battery", &email).is_ok());
        for bad in [
            "short",
            "aaaaaaaaaaaa",
            "Password123",
            "ann.lee@example.org!",
            "ann.lee",
            "qwertyuiop123",
            "iloveyou1234",
        ] {
            assert!(Password::parse(bad, &email).is_err(), "{bad}");
        }
        assert!(Password::parse(&"x1".repeat(65), &email).is_err());
        let password = Password::parse("correct horse battery", &email).unwrap();
        assert!(!format!("{password:?}").contains("horse"));
    }

    #[test]
    fn credit_parses_usd_exactly_and_prints_it_back() {
        assert_eq!(Credit::parse_usd("5.00").unwrap().micros(), 5_000_000);
        assert_eq!(Credit::parse_usd("0.005").unwrap().micros(), 5_000);
        assert_eq!(Credit::parse_usd("$2").unwrap().micros(), 2_000_000);
        assert_eq!(Credit::parse_usd("-1.5").unwrap().micros(), -1_500_000);
        for bad in ["", ".5", "1.0000001", "1e3", "abc", "99999999999"] {
            assert!(Credit::parse_usd(bad).is_err(), "{bad}");
        }
        assert_eq!(Credit::from_micros(4_995_000).to_string(), "USD 4.995");
        assert_eq!(Credit::from_micros(5_000_000).to_string(), "USD 5.00");
        assert_eq!(Credit::from_micros(-5_000).to_string(), "USD -0.005");
    }

    #[test]
    fn key_names_are_trimmed_and_bounded() {
        assert_eq!(KeyName::parse("  ci ").unwrap().as_str(), "ci");
        assert!(KeyName::parse(" ").is_err());
        assert!(KeyName::parse(&"n".repeat(101)).is_err());
        assert!(KeyName::parse("a\nb").is_err());
    }
}
