//! The console's mails, in words: the confirmation link, the note to an address that already
//! has an account, the password-reset link. Text only; sending is `crate::mail`.

use crate::mail::Mail;

/// The link that confirms an address (valid `hours`).
pub fn confirm(to: &str, base: &str, token: &str, hours: i64) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: "Confirm your drugcite account".into(),
        body: format!(
            "Someone (we hope you) signed up for drugcite with this address.\n\n\
             Open this link to confirm it and receive your starting credit (it works once, for {hours} hours):\n\n\
             {base}/console/confirm/{token}\n\n\
             If it was not you, ignore this mail: the account stays without credit.\n"
        ),
    }
}

/// Someone signed up with an address that already has a confirmed account.
pub fn already_member(to: &str, base: &str) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: "You already have a drugcite account".into(),
        body: format!(
            "Someone (we hope you) tried to sign up for drugcite with this address, which already has an account.\n\n\
             Log in: {base}/console/login\n\
             Forgot the password? Reset it: {base}/console/reset\n\n\
             If it was not you, ignore this mail: nothing changed.\n"
        ),
    }
}

/// The link that sets a new password (valid `minutes`).
pub fn reset(to: &str, base: &str, token: &str, minutes: i64) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: "Reset your drugcite password".into(),
        body: format!(
            "Someone (we hope you) asked to reset the password of this drugcite account.\n\n\
             Open this link to choose a new one (it works once, for {minutes} minutes):\n\n\
             {base}/console/reset/{token}\n\n\
             If it was not you, ignore this mail: the password stays as it is.\n"
        ),
    }
}
