//! The keys page: the account's keys (created, last used, state), making one (shown once,
//! with ready curl and Python snippets) and revoking one after a confirmation page. Calls the
//! accounts engine; no key rules here.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use minijinja::context;
use serde::Serialize;

use super::banner::account_frame;
use super::error::ConsoleError;
use super::pages::{credit_words, date_time, html, parse_form, Page, PostedForm};
use super::session::Visitor;
use super::views::{render, Frame};
use crate::http::AppState;
use drugcite_accounts::scopes::{KeyRecord, Scope};
use drugcite_accounts::KeyName;

#[derive(Serialize)]
struct KeyRow {
    id: String,
    name: String,
    scopes: String,
    created: String,
    /// RFC 3339, or null when the key was never used.
    last_used_at: Option<String>,
    state: &'static str,
    active: bool,
}

impl From<KeyRecord> for KeyRow {
    fn from(key: KeyRecord) -> Self {
        Self {
            created: date_time(key.created_at),
            last_used_at: key.last_used_rfc3339(),
            state: if key.revoked_at.is_some() {
                "revoked"
            } else {
                "active"
            },
            active: key.revoked_at.is_none(),
            scopes: Scope::join(&key.scopes).replace(',', ", "),
            id: key.id,
            name: key.name,
        }
    }
}

/// A key just made, shown this once.
struct NewKey {
    name: String,
    key: String,
}

/// The keys page; `created` is a key just made, or the error of a failed try.
async fn keys_page(
    state: &AppState,
    visitor: Visitor,
    created: Result<Option<NewKey>, String>,
) -> Page {
    let account = visitor.account()?.clone();
    let keys: Vec<KeyRow> = state
        .accounts
        .keys_of(&account.id)
        .await?
        .into_iter()
        .map(KeyRow::from)
        .collect();
    let (new_key, error) = match created {
        Ok(key) => (key, None),
        Err(message) => (None, Some(message)),
    };
    let status = if error.is_some() {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::OK
    };
    let frame = Frame {
        error: error.as_deref(),
        invalid: if error.is_some() { &["name"] } else { &[] },
        ..account_frame(state, &account, &visitor.csrf, "API keys", "keys").await?
    };
    let base = state
        .console
        .as_ref()
        .map(|settings| settings.public_url.clone())
        .unwrap_or_default();
    let values = context! {
        credit => credit_words(&account),
        keys => keys,
        all_scopes => Scope::ALL.map(Scope::as_str),
        base_url => base,
        new_key_name => new_key.as_ref().map(|k| k.name.clone()),
        new_key => new_key.map(|k| k.key),
    };
    let body = render("keys.html", &frame, values);
    Ok(html(visitor, status, body))
}

pub async fn keys(State(state): State<AppState>, visitor: Visitor) -> Page {
    keys_page(&state, visitor, Ok(None)).await
}

pub async fn create_key(
    State(state): State<AppState>,
    visitor: Visitor,
    posted: PostedForm,
) -> Page {
    let form = parse_form(posted)?;
    visitor.check_csrf(&form)?;
    let account = visitor.account()?.clone();
    let name = KeyName::parse(form.get("name"));
    let scopes = Scope::parse_list(&form.all("scope").collect::<Vec<_>>().join(","));
    let created = match (name, scopes) {
        (Ok(name), Ok(scopes)) => {
            let (record, key) = state
                .accounts
                .create_key(&account.id, &name, &scopes)
                .await?;
            Ok(Some(NewKey {
                name: record.name,
                key: key.expose().to_owned(),
            }))
        }
        (Err(e), _) => Err(e.to_string()),
        (_, Err(_)) => Err("choose at least one scope".to_owned()),
    };
    keys_page(&state, visitor, created).await
}

/// Asks before revoking: revoking cannot be undone.
pub async fn revoke_form(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(id): Path<String>,
) -> Page {
    let account = visitor.account()?.clone();
    let key = state
        .accounts
        .keys_of(&account.id)
        .await?
        .into_iter()
        .find(|key| key.id == id && key.revoked_at.is_none())
        .ok_or_else(|| ConsoleError::NotFound(format!("no active key with id {id}")))?;
    let frame = account_frame(&state, &account, &visitor.csrf, "Revoke a key", "keys").await?;
    let body = render("revoke.html", &frame, context! { key => KeyRow::from(key) });
    Ok(html(visitor, StatusCode::OK, body))
}

pub async fn revoke_key(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(id): Path<String>,
    posted: PostedForm,
) -> Page {
    let form = parse_form(posted)?;
    visitor.check_csrf(&form)?;
    let account = visitor.account()?;
    state.accounts.revoke_key(Some(&account.id), &id).await?;
    Ok((visitor.jar, Redirect::to("/console/keys")).into_response())
}
