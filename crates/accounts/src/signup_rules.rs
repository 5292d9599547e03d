//! The limits of sign-up and of the mail it sends: throttles, mailed links' lifetimes and the
//! password strength, with their defaults. Values; enforcing them is `onboarding`, `reset` and
//! `mail_throttle`.

use std::num::NonZeroU32;

/// The limits of sign-up and of the mail it sends (each a `serve` setting).
#[derive(Clone, Copy, Debug)]
pub struct Onboarding {
    /// Mail-sending requests (sign-up, confirmation sent again, password reset) per hour from
    /// one client address (default 5).
    pub signups_per_address_per_hour: NonZeroU32,
    /// The same from one network, IPv4 /24 or IPv6 /48 (default 20).
    pub signups_per_network_per_hour: NonZeroU32,
    /// Mails per hour to one address, whoever asks (default 3).
    pub mails_per_recipient_per_hour: NonZeroU32,
    /// How long a confirmation link works (default 24 hours).
    pub confirm_token_secs: i64,
    /// How long a password-reset link works (default 30 minutes).
    pub reset_token_secs: i64,
    /// zxcvbn score 0–4 a new password needs (default 3).
    pub password_min_score: u8,
}

impl Default for Onboarding {
    fn default() -> Self {
        Self {
            signups_per_address_per_hour: NonZeroU32::new(5).unwrap(),
            signups_per_network_per_hour: NonZeroU32::new(20).unwrap(),
            mails_per_recipient_per_hour: NonZeroU32::new(3).unwrap(),
            confirm_token_secs: 24 * 3600,
            reset_token_secs: 30 * 60,
            password_min_score: crate::values::DEFAULT_PASSWORD_MIN_SCORE,
        }
    }
}
