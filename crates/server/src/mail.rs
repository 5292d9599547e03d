//! Outgoing mail: over SMTP with lettre, or (an explicit development setting only) written to
//! the log instead of sent. Sends in the background what it is given and logs failures without
//! the message; composes no message and decides nothing about who gets one.

use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

/// How mail leaves drugcite.
#[derive(Clone, Debug)]
pub enum MailTransport {
    /// `smtps://user:pass@host:465` (TLS), `smtp://host:587?tls=required` (STARTTLS) or
    /// `smtp://host:25` (plain, for a local relay).
    Smtp(String),
    /// Development only: each message is logged (with its links), none is sent.
    Log,
}

/// The mail settings of `serve`.
#[derive(Clone, Debug)]
pub struct MailSettings {
    /// `None`: no mail, so no console (it mails confirmation and reset links).
    pub transport: Option<MailTransport>,
    /// The sender, `drugcite <noreply@example.org>`.
    pub from: String,
}

impl Default for MailSettings {
    fn default() -> Self {
        Self {
            transport: None,
            from: DEFAULT_FROM.to_owned(),
        }
    }
}

/// The sender unless configured.
pub const DEFAULT_FROM: &str = "drugcite <drugcite@localhost>";

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("the console mails confirmation and password-reset links: set --smtp-url (and --mail-from), or --dev-mail-log to write them to the log in development")]
    NotConfigured,
    #[error("--mail-from {0:?} is not an address such as \"drugcite <noreply@example.org>\"")]
    BadSender(String),
    #[error("--smtp-url: {0}")]
    BadUrl(String),
}

/// One plain-text message.
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

#[derive(Clone)]
enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    Log,
}

/// Sends mail the configured way.
#[derive(Clone)]
pub struct Mailer {
    from: Mailbox,
    transport: Transport,
}

impl Mailer {
    pub fn new(settings: &MailSettings) -> Result<Self, MailError> {
        let from = settings
            .from
            .parse()
            .map_err(|_| MailError::BadSender(settings.from.clone()))?;
        let transport = match &settings.transport {
            None => return Err(MailError::NotConfigured),
            Some(MailTransport::Log) => {
                tracing::warn!("--dev-mail-log: mail is written to this log, not sent (development only; set --smtp-url in production)");
                Transport::Log
            }
            Some(MailTransport::Smtp(url)) => Transport::Smtp(
                AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                    .map_err(|e| MailError::BadUrl(e.to_string()))?
                    .build(),
            ),
        };
        Ok(Self { from, transport })
    }

    /// Sends `mail` in the background (the caller's answer never waits for, or reveals, it).
    pub fn send(&self, mail: Mail) {
        let to: Mailbox = match mail.to.parse() {
            Ok(to) => to,
            Err(e) => {
                tracing::warn!("mail: recipient not an address: {e}");
                return;
            }
        };
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(&mail.subject)
            .header(lettre::message::header::ContentType::TEXT_PLAIN)
            .body(mail.body.clone());
        let message = match message {
            Ok(message) => message,
            Err(e) => {
                tracing::error!("mail: building {:?}: {e}", mail.subject);
                return;
            }
        };
        match &self.transport {
            Transport::Log => tracing::warn!(
                "dev mail (not sent) to {}: {}\n{}",
                mail.to,
                mail.subject,
                mail.body
            ),
            Transport::Smtp(smtp) => {
                let smtp = smtp.clone();
                tokio::spawn(async move {
                    if let Err(e) = smtp.send(message).await {
                        tracing::error!("mail: sending {:?}: {e}", mail.subject);
                    }
                });
            }
        }
    }
}
