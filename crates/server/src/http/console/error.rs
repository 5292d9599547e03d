//! What can go wrong on a console page, and the one place it becomes a response: a page
//! with a clear message (never a 500 for bad input), or the log-in page for a visitor
//! without a session. Internal errors are logged without secrets.

use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};

use super::views;
use drugcite_accounts::AccountError;

#[derive(Debug)]
pub enum ConsoleError {
    /// No live session: go and log in.
    NotSignedIn,
    /// The form's CSRF token is missing or does not match its cookie.
    Forgery,
    /// Input the visitor can fix, with what to fix.
    BadInput(String),
    /// Too many attempts from this visitor: wait, with what to wait for.
    Throttled(String),
    NotFound(String),
    Internal(AccountError),
}

impl From<AccountError> for ConsoleError {
    fn from(error: AccountError) -> Self {
        match error {
            AccountError::Database(_) | AccountError::BadDatabaseUrl => Self::Internal(error),
            AccountError::UnknownKey(_) | AccountError::UnknownAccount(_) => {
                Self::NotFound(error.to_string())
            }
            AccountError::Throttled | AccountError::MailThrottled => {
                Self::Throttled(error.to_string())
            }
            other => Self::BadInput(other.to_string()),
        }
    }
}

impl IntoResponse for ConsoleError {
    fn into_response(self) -> Response {
        let (status, message) = match self {
            Self::NotSignedIn => return Redirect::to("/console/login").into_response(),
            Self::Forgery => (
                StatusCode::FORBIDDEN,
                "This form has expired or did not come from this console: reload the page and try again.".to_owned(),
            ),
            Self::BadInput(message) => (StatusCode::BAD_REQUEST, message),
            Self::Throttled(message) => (StatusCode::TOO_MANY_REQUESTS, message),
            Self::NotFound(message) => (StatusCode::NOT_FOUND, message),
            Self::Internal(error) => {
                tracing::error!("console: {error}");
                (StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong on our side; try again in a moment.".to_owned())
            }
        };
        let page = views::render(
            "error.html",
            &views::Frame::message(&message),
            minijinja::context! {},
        );
        (status, Html(page)).into_response()
    }
}
