//! The banners a signed-in account sees on every page: confirm your email (the starting
//! credit waits for it) and low credit with how to get more. Reads; changes nothing.

use super::error::ConsoleError;
use super::views::{Frame, Notice};
use crate::http::AppState;
use drugcite_accounts::{Account, Credit};

/// The frame of a signed-in page: the account's email and banners.
pub async fn account_frame<'a>(
    state: &AppState,
    account: &'a Account,
    csrf: &'a str,
    title: &'a str,
    page: &'a str,
) -> Result<Frame<'a>, ConsoleError> {
    Ok(Frame {
        title,
        page,
        email: Some(&account.email),
        csrf,
        notices: notices(state, account).await?,
        ..Frame::default()
    })
}

async fn notices(state: &AppState, account: &Account) -> Result<Vec<Notice>, ConsoleError> {
    let mut notices = Vec::new();
    if !state.accounts.email_confirmed(&account.id).await? {
        notices.push(Notice {
            kind: "confirm",
            text: format!(
                "Confirm your email address to receive your {} of starting credit: open the link we mailed to {}.",
                state.accounts.policy().starting_credit, account.email
            ),
        });
        return Ok(notices);
    }
    let low = state
        .console
        .as_ref()
        .map_or(Credit::ZERO, |settings| settings.low_credit);
    if !account.unlimited && account.credit < low {
        let state_words = if account.credit <= Credit::ZERO {
            "Your credit is used up: billable calls now get 429 “credit exhausted”."
        } else {
            "Your credit is running low."
        };
        notices.push(Notice {
            kind: "low-credit",
            text: format!(
                "{state_words} Balance: {}. Credit is added by the operator of this drugcite (drugcite accounts grant): write to them with your account's email to get more.",
                account.credit
            ),
        });
    }
    Ok(notices)
}
