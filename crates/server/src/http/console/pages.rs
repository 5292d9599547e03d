//! The console's pages and form posts besides joining and keys: log-in, log-out, usage and
//! the playground, with the helpers every page uses. Each parses its form, calls the accounts
//! engine and renders a template; bad input re-renders the form with a message (400).

use axum::extract::rejection::FormRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use minijinja::{context, Value};
use serde::Serialize;

use super::banner::account_frame;
use super::chart;
use super::error::ConsoleError;
use super::session::{Form, Visitor};
use super::views::{render, Frame};
use crate::http::AppState;
use drugcite_accounts::{today, AccountError, Credit};

/// Days the usage page shows.
const USAGE_DAYS: i64 = 14;

pub type Page = Result<Response, ConsoleError>;
pub type PostedForm = Result<axum::Form<Vec<(String, String)>>, FormRejection>;

pub fn parse_form(posted: PostedForm) -> Result<Form, ConsoleError> {
    posted.map(|axum::Form(fields)| Form(fields)).map_err(|_| {
        ConsoleError::BadInput("The form could not be read: send it from the console page.".into())
    })
}

pub fn html(visitor: Visitor, status: StatusCode, body: String) -> Response {
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

/// The log-in form, with an `error` (fields marked invalid) or an `info` message.
pub fn login_page(
    state: &AppState,
    visitor: Visitor,
    status: StatusCode,
    error: Option<&str>,
    info: Option<&str>,
    email: &str,
) -> Response {
    let invalid: &[&str] = if error.is_some() {
        &["email", "password"]
    } else {
        &[]
    };
    let frame = Frame::form("Log in", "login", &visitor.csrf, error, invalid);
    let policy = state.accounts.policy();
    let values = context! { form_email => email, open_signup => policy.open_signup, info => info,
    starting_credit => policy.starting_credit.to_string() };
    let body = render("login.html", &frame, values);
    html(visitor, status, body)
}

pub async fn login_form(State(state): State<AppState>, visitor: Visitor) -> Response {
    login_page(&state, visitor, StatusCode::OK, None, None, "")
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
            let message = e.to_string();
            Ok(login_page(
                &state,
                visitor,
                status,
                Some(&message),
                None,
                email,
            ))
        }
        Err(e) => Err(e.into()),
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

pub fn credit_words(account: &drugcite_accounts::Account) -> String {
    if account.unlimited {
        "unlimited".into()
    } else {
        account.credit.to_string()
    }
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
    let wide = chart::layout(&rows, today, USAGE_DAYS, chart::WIDE, day_label);
    let narrow = chart::layout(&rows, today, USAGE_DAYS, chart::NARROW, day_label);
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
    let frame = account_frame(&state, &account, &visitor.csrf, "Usage", "usage").await?;
    let values = context! { credit => credit_words(&account), spent => spent.to_string(), days => USAGE_DAYS,
    charts => [Value::from_serialize(&wide), Value::from_serialize(&narrow)], rows => lines };
    let body = render("usage.html", &frame, values);
    Ok(html(visitor, StatusCode::OK, body))
}

pub async fn playground(State(state): State<AppState>, visitor: Visitor) -> Page {
    let account = visitor.account()?.clone();
    let frame = account_frame(&state, &account, &visitor.csrf, "Playground", "playground").await?;
    let policy = state.accounts.policy();
    let values = context! {
        search_price => policy.prices.search.to_string(),
        graph_price => policy.prices.graph.to_string(),
    };
    let body = render("playground.html", &frame, values);
    Ok(html(visitor, StatusCode::OK, body))
}

/// `2026-11-23 12:56` (UTC) from unix seconds.
pub fn date_time(unix: u64) -> String {
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
