//! `serve`'s flags of the console's sign-up and mail: how mail is sent (SMTP, or the log as an
//! explicit development setting), the public URL of mailed links, sign-up throttles, link
//! lifetimes, password strength and the low-credit warning. Parses only.

use std::num::NonZeroU32;

use drugcite_accounts::{Credit, Onboarding, DEFAULT_PASSWORD_MIN_SCORE};
use drugcite_server::mail::{MailSettings, MailTransport, DEFAULT_FROM};

/// Sign-up, mail and credit-warning settings of the console.
#[derive(clap::Args)]
pub struct OnboardingArgs {
    /// SMTP server for confirmation and reset mail: smtps://user:pass@host:465 (TLS),
    /// smtp://user:pass@host:587?tls=required (STARTTLS) or smtp://host:25 (plain, local relay).
    #[arg(long, env = "DRUGCITE_SMTP_URL", conflicts_with = "dev_mail_log")]
    smtp_url: Option<String>,
    /// Development only: write mail (with its links) to the log instead of sending it.
    #[arg(long, env = "DRUGCITE_DEV_MAIL_LOG")]
    dev_mail_log: bool,
    /// Sender of the console's mail.
    #[arg(long, env = "DRUGCITE_MAIL_FROM", default_value = DEFAULT_FROM)]
    mail_from: String,
    /// Where users reach this drugcite (https://api.example.org), for mailed links and the
    /// console's snippets; default http:// and the listening address.
    #[arg(long, env = "DRUGCITE_PUBLIC_URL")]
    public_url: Option<String>,
    /// Sign-ups, confirmation mails sent again and password resets per hour from one address.
    #[arg(long, default_value = "5")]
    signups_per_address_per_hour: NonZeroU32,
    /// The same from one network (IPv4 /24, IPv6 /48).
    #[arg(long, default_value = "20")]
    signups_per_network_per_hour: NonZeroU32,
    /// Mails per hour to one address, whoever asks.
    #[arg(long, default_value = "3")]
    mails_per_recipient_per_hour: NonZeroU32,
    /// How long a mailed confirmation link works.
    #[arg(long, default_value = "24")]
    confirm_link_hours: u16,
    /// How long a mailed password-reset link works.
    #[arg(long, default_value = "30")]
    reset_link_minutes: u16,
    /// zxcvbn strength score (0-4) a new password needs.
    #[arg(long, default_value_t = DEFAULT_PASSWORD_MIN_SCORE,
          value_parser = clap::value_parser!(u8).range(0..=4))]
    password_min_score: u8,
    /// The console warns (and says how to get more) below this credit, in USD.
    #[arg(long, default_value = "0.50", value_parser = super::usd::usd)]
    low_credit_usd: Credit,
}

impl OnboardingArgs {
    pub fn onboarding(&self) -> Onboarding {
        Onboarding {
            signups_per_address_per_hour: self.signups_per_address_per_hour,
            signups_per_network_per_hour: self.signups_per_network_per_hour,
            mails_per_recipient_per_hour: self.mails_per_recipient_per_hour,
            confirm_token_secs: i64::from(self.confirm_link_hours) * 3600,
            reset_token_secs: i64::from(self.reset_link_minutes) * 60,
            password_min_score: self.password_min_score,
        }
    }

    pub fn mail(&self) -> MailSettings {
        let transport = match (&self.smtp_url, self.dev_mail_log) {
            (Some(url), _) => Some(MailTransport::Smtp(url.clone())),
            (None, true) => Some(MailTransport::Log),
            (None, false) => None,
        };
        MailSettings {
            transport,
            from: self.mail_from.clone(),
        }
    }

    pub fn public_url(&self) -> Option<String> {
        self.public_url.clone()
    }

    pub fn low_credit(&self) -> Credit {
        self.low_credit_usd
    }
}
