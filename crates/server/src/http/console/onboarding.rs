//! Joining and getting back in: sign-up (answered "check your inbox" whether or not the address
//! has an account), the mailed confirmation link, sending it again, and password reset. Each
//! posts through the accounts engine and mails with `letters`; no account rules here.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use minijinja::context;

use super::error::ConsoleError;
use super::letters;
use super::pages::{html, login_page, parse_form, Page, PostedForm};
use super::session::Visitor;
use super::views::{render, Frame};
use crate::http::{AppState, ConsoleSettings};
use drugcite_accounts::{AccountError, Credit, SignUp, PASSWORD_CHARS};

fn settings(state: &AppState) -> Result<&ConsoleSettings, ConsoleError> {
    state
        .console
        .as_ref()
        .ok_or_else(|| ConsoleError::NotFound("no console here".into()))
}

/// The form fields an error is about.
fn invalid_fields(error: &AccountError) -> &'static [&'static str] {
    match error {
        AccountError::BadEmail => &["email"],
        AccountError::WeakPassword(_) | AccountError::GuessablePassword(_) => &["password"],
        _ => &[],
    }
}

/// Status of a refused form: 429 when throttled, else 400.
fn refusal_status(error: &AccountError) -> StatusCode {
    if matches!(error, AccountError::MailThrottled) {
        StatusCode::TOO_MANY_REQUESTS
    } else {
        StatusCode::BAD_REQUEST
    }
}

fn signup_page(
    state: &AppState,
    visitor: Visitor,
    status: StatusCode,
    error: Option<&AccountError>,
    email: &str,
) -> Response {
    let message = error.map(ToString::to_string);
    let invalid = error.map_or(&[][..], invalid_fields);
    let frame = Frame::form(
        "Sign up",
        "signup",
        &visitor.csrf,
        message.as_deref(),
        invalid,
    );
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

/// "Check your inbox": the same page after every accepted sign-up or reset request.
fn check_inbox(visitor: Visitor, email: &str, what: &'static str) -> Response {
    let frame = Frame {
        title: "Check your inbox",
        csrf: &visitor.csrf,
        ..Frame::default()
    };
    let body = render(
        "check_inbox.html",
        &frame,
        context! { form_email => email, what => what },
    );
    html(visitor, StatusCode::OK, body)
}

pub async fn signup(State(state): State<AppState>, visitor: Visitor, posted: PostedForm) -> Page {
    let form = parse_form(posted)?;
    visitor.check_csrf(&form)?;
    let settings = settings(&state)?;
    let (email, password) = (form.get("email"), form.get("password"));
    let hours = state.accounts.onboarding().confirm_token_secs / 3600;
    match state
        .accounts
        .sign_up(email, password, visitor.address)
        .await
    {
        Ok(SignUp::Confirm(account, token)) => {
            let mail =
                letters::confirm(&account.email, &settings.public_url, token.expose(), hours);
            settings.mailer.send(mail);
            Ok(check_inbox(visitor, &account.email, "signup"))
        }
        Ok(SignUp::AlreadyMember(account)) => {
            settings.mailer.send(letters::already_member(
                &account.email,
                &settings.public_url,
            ));
            Ok(check_inbox(visitor, &account.email, "signup"))
        }
        Err(e @ (AccountError::Database(_) | AccountError::BadDatabaseUrl)) => Err(e.into()),
        Err(e) => Ok(signup_page(
            &state,
            visitor,
            refusal_status(&e),
            Some(&e),
            email,
        )),
    }
}

/// The confirmation link opens a page with a button: mail scanners that follow links do
/// not use the token up.
pub async fn confirm_form(visitor: Visitor, Path(token): Path<String>) -> Response {
    let frame = Frame {
        title: "Confirm your email",
        csrf: &visitor.csrf,
        ..Frame::default()
    };
    let body = render("confirm.html", &frame, context! { token => token });
    html(visitor, StatusCode::OK, body)
}

pub async fn confirm(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(token): Path<String>,
    posted: PostedForm,
) -> Page {
    let form = parse_form(posted)?;
    visitor.check_csrf(&form)?;
    let (session, _) = state.accounts.confirm_email(&token).await?;
    Ok((
        visitor.signed_in(session.expose()),
        Redirect::to("/console/keys"),
    )
        .into_response())
}

pub async fn resend(State(state): State<AppState>, visitor: Visitor, posted: PostedForm) -> Page {
    let form = parse_form(posted)?;
    visitor.check_csrf(&form)?;
    let settings = settings(&state)?;
    let account = visitor.account()?.clone();
    let hours = state.accounts.onboarding().confirm_token_secs / 3600;
    match state
        .accounts
        .resend_confirmation(&account, visitor.address)
        .await
    {
        Ok(Some(token)) => {
            let mail =
                letters::confirm(&account.email, &settings.public_url, token.expose(), hours);
            settings.mailer.send(mail);
            Ok(check_inbox(visitor, &account.email, "signup"))
        }
        Ok(None) => Ok((visitor.jar, Redirect::to("/console/keys")).into_response()),
        Err(e) => Err(e.into()),
    }
}

fn reset_request_page(
    visitor: Visitor,
    status: StatusCode,
    error: Option<&AccountError>,
    email: &str,
) -> Response {
    let message = error.map(ToString::to_string);
    let invalid = error.map_or(&[][..], invalid_fields);
    let frame = Frame::form(
        "Reset your password",
        "reset",
        &visitor.csrf,
        message.as_deref(),
        invalid,
    );
    let body = render(
        "reset.html",
        &frame,
        context! { form_email => email, step => "request" },
    );
    html(visitor, status, body)
}

pub async fn reset_request_form(visitor: Visitor) -> Response {
    reset_request_page(visitor, StatusCode::OK, None, "")
}

pub async fn reset_request(
    State(state): State<AppState>,
    visitor: Visitor,
    posted: PostedForm,
) -> Page {
    let form = parse_form(posted)?;
    visitor.check_csrf(&form)?;
    let settings = settings(&state)?;
    let email = form.get("email");
    let minutes = state.accounts.onboarding().reset_token_secs / 60;
    match state
        .accounts
        .request_password_reset(email, visitor.address)
        .await
    {
        Ok(found) => {
            if let Some((account, token)) = found {
                let mail = letters::reset(
                    &account.email,
                    &settings.public_url,
                    token.expose(),
                    minutes,
                );
                settings.mailer.send(mail);
            }
            Ok(check_inbox(visitor, email.trim(), "reset"))
        }
        Err(e @ AccountError::Database(_)) => Err(e.into()),
        Err(e) => Ok(reset_request_page(
            visitor,
            refusal_status(&e),
            Some(&e),
            email,
        )),
    }
}

fn new_password_page(
    visitor: Visitor,
    status: StatusCode,
    error: Option<&AccountError>,
    email: &str,
    token: &str,
) -> Response {
    let message = error.map(ToString::to_string);
    let invalid = error.map_or(&[][..], invalid_fields);
    let frame = Frame::form(
        "Choose a new password",
        "reset",
        &visitor.csrf,
        message.as_deref(),
        invalid,
    );
    let values = context! {
        form_email => email, token => token, step => "choose",
        password_min => PASSWORD_CHARS.0, password_max => PASSWORD_CHARS.1,
    };
    let body = render("reset.html", &frame, values);
    html(visitor, status, body)
}

pub async fn reset_form(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(token): Path<String>,
) -> Page {
    let account = state.accounts.reset_account(&token).await?;
    Ok(new_password_page(
        visitor,
        StatusCode::OK,
        None,
        &account.email,
        &token,
    ))
}

pub async fn reset(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(token): Path<String>,
    posted: PostedForm,
) -> Page {
    let form = parse_form(posted)?;
    visitor.check_csrf(&form)?;
    match state.accounts.reset_password(&token, form.get("password")).await {
        Ok(account) => Ok(login_page(
            &state,
            visitor,
            StatusCode::OK,
            None,
            Some("Your password is changed and every session of your account has ended: log in with the new one."),
            &account.email,
        )),
        Err(e @ (AccountError::WeakPassword(_) | AccountError::GuessablePassword(_))) => {
            let account = state.accounts.reset_account(&token).await?;
            Ok(new_password_page(visitor, StatusCode::BAD_REQUEST, Some(&e), &account.email, &token))
        }
        Err(e) => Err(e.into()),
    }
}
