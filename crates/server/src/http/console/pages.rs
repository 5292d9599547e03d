//! The console's pages and form posts: each parses its form, calls the accounts engine and
//! renders a template. Bad input re-renders the form with a message (400), never a 500.

use axum::extract::rejection::FormRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use minijinja::{context, Value};
use serde::Serialize;

use super::chart;
use super::error::ConsoleError;
use super::session::{Form, Visitor};
use super::views::{render, Frame};
use crate::http::AppState;
use drugcite_accounts::scopes::{KeyRecord, Scope};
use drugcite_accounts::{today, AccountError, Credit, Email, KeyName, Password, PASSWORD_CHARS};

/// Days the usage page shows.
const USAGE_DAYS: i64 = 14;

type Page = Result<Response, ConsoleError>;
type PostedForm = Result<axum::Form<Vec<(String, String)>>, FormRejection>;

fn parse_form(posted: PostedForm) -> Result<Form, ConsoleError> {
    posted.map(|axum::Form(fields)| Form(fields)).map_err(|_| {
        ConsoleError::BadInput("The form could not be read: send it from the console page.".into())
    })
}

fn html(visitor: Visitor, status: StatusCode, body: String) -> Response {
    (status, visitor.jar, Html(body)).into_response()
}

pub async fn home(visitor: Visitor) -> Response {
    let to = if visitor.account.is_some() {
        "/console/keys"
    } else {
        "/console/login"
    };
    (visitor.jar, Redirect::to(to)).into_response()
}

fn login_page(
    state: &AppState,
    visitor: Visitor,
    status: StatusCode,
    error: Option<&str>,
    email: &str,
) -> Response {
    let frame = Frame {
        title: "Log in",
        page: "login",
        csrf: &visitor.csrf,
        error,
        ..Frame::default()
    };
    let policy = state.accounts.policy();
    let values = context! { form_email => email, open_signup => policy.open_signup,
    starting_credit => policy.starting_credit.to_string() };
    let body = render("login.html", &frame, values);
    html(visitor, status, body)
}

pub async fn login_form(State(state): State<AppState>, visitor: Visitor) -> Response {
    login_page(&state, visitor, StatusCode::OK, None, "")
}

pub async fn login(State(state): State<AppState>, visitor: Visitor, posted: PostedForm) -> Page {
    let form = parse_form(posted)?;
    visitor.check_csrf(&form)?;
    let (email, password) = (form.get("email"), form.get("password"));
    match state
        .accounts
        .log_in(email, password, visitor.address)
        .await
    {
        Ok((token, _)) => Ok((
            visitor.signed_in(token.expose()),
            Redirect::to("/console/keys"),
        )
            .into_response()),
        Err(e @ (AccountError::WrongCredentials | AccountError::Throttled)) => {
            let status = if matches!(e, AccountError::Throttled) {
                StatusCode::TOO_MANY_REQUESTS
            } else {
                StatusCode::BAD_REQUEST
            };
            Ok(login_page(
                &state,
                visitor,
                status,
                Some(&e.to_string()),
                email,
            ))
        }
        Err(e) => Err(e.into()),
    }
}

fn signup_page(
    state: &AppState,
    visitor: Visitor,
    status: StatusCode,
    error: Option<&str>,
    email: &str,
) -> Response {
    let frame = Frame {
        title: "Sign up",
        page: "signup",
        csrf: &visitor.csrf,
        error,
        ..Frame::default()
    };
    let policy = state.accounts.policy();
    let values = context! {
        form_email => email,
        open_signup => policy.open_signup,
        starting_credit => policy.starting_credit.to_string(),
        search_price => policy.prices.search.to_string(),
        verify_price => price_words(policy.prices.verify),
        password_min => PASSWORD_CHARS.0,
        password_max => PASSWORD_CHARS.1,
    };
    let body = render("signup.html", &frame, values);
    html(visitor, status, body)
}

fn price_words(price: Credit) -> String {
    if price == Credit::ZERO {
        "free".into()
    } else {
        price.to_string()
    }
}

pub async fn signup_form(State(state): State<AppState>, visitor: Visitor) -> Response {
    signup_page(&state, visitor, StatusCode::OK, None, "")
}

pub async fn signup(State(state): State<AppState>, visitor: Visitor, posted: PostedForm) -> Page {
    let form = parse_form(posted)?;
    visitor.check_csrf(&form)?;
    let (email, password) = (form.get("email"), form.get("password"));
    let created = async {
        let parsed = Email::parse(email)?;
        let password = Password::parse(password, &parsed)?;
        state.accounts.sign_up(parsed, password).await
    };
    match created.await {
        Ok(_) => {
            let (token, _) = state
                .accounts
                .log_in(email, password, visitor.address)
                .await?;
            Ok((
                visitor.signed_in(token.expose()),
                Redirect::to("/console/keys"),
            )
                .into_response())
        }
        Err(AccountError::Database(e)) => Err(AccountError::Database(e).into()),
        Err(e) => Ok(signup_page(
            &state,
            visitor,
            StatusCode::BAD_REQUEST,
            Some(&e.to_string()),
            email,
        )),
    }
}

pub async fn logout(State(state): State<AppState>, visitor: Visitor, posted: PostedForm) -> Page {
    let form = parse_form(posted)?;
    visitor.check_csrf(&form)?;
    if let Some(token) = visitor.session_token() {
        state.accounts.log_out(&token).await?;
    }
    Ok((visitor.signed_out(), Redirect::to("/console/login")).into_response())
}

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

/// The keys page; `created` is a key just made, shown this once, or the error of a failed try.
async fn keys_page(
    state: &AppState,
    visitor: Visitor,
    created: Result<Option<(String, String)>, String>,
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
        title: "API keys",
        page: "keys",
        email: Some(&account.email),
        csrf: &visitor.csrf,
        error: error.as_deref(),
    };
    let values = context! {
        credit => credit_words(&account),
        keys => keys,
        all_scopes => Scope::ALL.map(Scope::as_str),
        new_key_name => new_key.as_ref().map(|(name, _)| name.clone()),
        new_key => new_key.map(|(_, key)| key),
    };
    let body = render("keys.html", &frame, values);
    Ok(html(visitor, status, body))
}

fn credit_words(account: &drugcite_accounts::Account) -> String {
    if account.unlimited {
        "unlimited".into()
    } else {
        account.credit.to_string()
    }
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
            Ok(Some((record.name, key.expose().to_owned())))
        }
        (Err(e), _) => Err(e.to_string()),
        (_, Err(_)) => Err("choose at least one scope".to_owned()),
    };
    keys_page(&state, visitor, created).await
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

#[derive(Serialize)]
struct UsageLine {
    day: String,
    key_id: String,
    key_name: String,
    endpoint: String,
    requests: i64,
    spent: String,
}

pub async fn usage(State(state): State<AppState>, visitor: Visitor) -> Page {
    let account = visitor.account()?.clone();
    let today = today();
    let rows = state
        .accounts
        .usage(&account.id, today - USAGE_DAYS + 1)
        .await?;
    let chart = chart::layout(&rows, today, USAGE_DAYS, day_label);
    let spent = Credit::from_micros(rows.iter().map(|r| r.spent.micros()).sum());
    let lines: Vec<UsageLine> = rows
        .into_iter()
        .rev()
        .map(|r| UsageLine {
            day: day_text(r.day),
            key_id: r.key_id,
            key_name: r.key_name,
            endpoint: r.endpoint,
            requests: r.requests,
            spent: r.spent.to_string(),
        })
        .collect();
    let frame = Frame {
        title: "Usage",
        page: "usage",
        email: Some(&account.email),
        csrf: &visitor.csrf,
        error: None,
    };
    let values = context! { credit => credit_words(&account), spent => spent.to_string(), days => USAGE_DAYS,
    chart => Value::from_serialize(&chart), rows => lines };
    let body = render("usage.html", &frame, values);
    Ok(html(visitor, StatusCode::OK, body))
}

pub async fn playground(visitor: Visitor) -> Page {
    let account = visitor.account()?.clone();
    let frame = Frame {
        title: "Playground",
        page: "playground",
        email: Some(&account.email),
        csrf: &visitor.csrf,
        error: None,
    };
    let body = render("playground.html", &frame, context! {});
    Ok(html(visitor, StatusCode::OK, body))
}

/// `2026-11-23 12:56` (UTC) from unix seconds.
fn date_time(unix: u64) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]");
    i64::try_from(unix)
        .ok()
        .and_then(|t| time::OffsetDateTime::from_unix_timestamp(t).ok())
        .and_then(|t| t.format(&format).ok())
        .unwrap_or_default()
}

/// `2026-11-23` for a day number (days since 1970-01-01).
fn day_text(day: i64) -> String {
    let text = date_time(u64::try_from(day * 86_400).unwrap_or(0));
    text.get(..10).unwrap_or_default().to_owned()
}

/// `11-23` for a day number.
fn day_label(day: i64) -> String {
    day_text(day).get(5..).unwrap_or_default().to_owned()
}
