//! The console's cookies: the session (its token only in an HttpOnly, SameSite=Strict cookie;
//! the database keeps its hash) and the CSRF token checked on every form post (double
//! submit: the form's hidden field must equal the cookie, compared in constant time).

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use subtle::ConstantTimeEq;

use super::error::ConsoleError;
use crate::http::AppState;
use drugcite_accounts::{random_hex, Account};

const SESSION_COOKIE: &str = "drugcite_session";
const CSRF_COOKIE: &str = "drugcite_csrf";

/// Whoever is asking for a console page: their cookies, CSRF token, address and account.
pub struct Visitor {
    /// Cookies to send back with the response (a new CSRF cookie, a session set or cleared).
    pub jar: CookieJar,
    pub csrf: String,
    csrf_was_sent: bool,
    pub address: Option<IpAddr>,
    pub account: Option<Account>,
    secure: bool,
}

impl FromRequestParts<AppState> for Visitor {
    type Rejection = ConsoleError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ConsoleError> {
        let secure = state
            .console
            .as_ref()
            .is_some_and(|settings| settings.secure_cookies);
        let jar = CookieJar::from_headers(&parts.headers);
        let sent_csrf = jar
            .get(CSRF_COOKIE)
            .map(|c| c.value().to_owned())
            .filter(|v| v.len() == 64);
        let csrf_was_sent = sent_csrf.is_some();
        let csrf = sent_csrf.unwrap_or_else(|| random_hex(32));
        let account = match jar.get(SESSION_COOKIE) {
            Some(token) => state.accounts.session(token.value()).await?,
            None => None,
        };
        let jar = if csrf_was_sent {
            jar
        } else {
            jar.add(cookie(CSRF_COOKIE, csrf.clone(), secure))
        };
        let address = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|info| info.0.ip());
        Ok(Self {
            jar,
            csrf,
            csrf_was_sent,
            address,
            account,
            secure,
        })
    }
}

impl Visitor {
    /// The signed-in account, or `NotSignedIn`.
    pub fn account(&self) -> Result<&Account, ConsoleError> {
        self.account.as_ref().ok_or(ConsoleError::NotSignedIn)
    }

    /// A form post must carry the CSRF token of this visitor's cookie.
    pub fn check_csrf(&self, form: &Form) -> Result<(), ConsoleError> {
        let sent = form.get("csrf");
        let matches = self.csrf_was_sent && bool::from(sent.as_bytes().ct_eq(self.csrf.as_bytes()));
        if matches {
            Ok(())
        } else {
            Err(ConsoleError::Forgery)
        }
    }

    pub fn session_token(&self) -> Option<String> {
        self.jar.get(SESSION_COOKIE).map(|c| c.value().to_owned())
    }

    /// Sets the session cookie of a fresh log-in.
    pub fn signed_in(self, token: &str) -> CookieJar {
        let secure = self.secure;
        self.jar
            .add(cookie(SESSION_COOKIE, token.to_owned(), secure))
    }

    pub fn signed_out(self) -> CookieJar {
        self.jar
            .remove(Cookie::build(SESSION_COOKIE).path("/console"))
    }
}

fn cookie(name: &'static str, value: String, secure: bool) -> Cookie<'static> {
    Cookie::build((name, value))
        .path("/console")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure)
        .build()
}

/// A urlencoded form's fields, in order; repeated names (checkboxes) allowed.
pub struct Form(pub Vec<(String, String)>);

impl Form {
    /// The first value of `name`, or "".
    pub fn get(&self, name: &str) -> &str {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str())
    }

    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.0
            .iter()
            .filter(move |(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}
