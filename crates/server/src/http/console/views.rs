//! Console templates (compiled into the binary, HTML auto-escaped by minijinja) and the frame
//! every page shares: title, current page, the signed-in email, the CSRF token, the error
//! with the fields it is about, and the account's banners.

use std::sync::OnceLock;

use minijinja::{context, Environment, Value};
use serde::Serialize;

const TEMPLATES: &[(&str, &str)] = &[
    (
        "base.html",
        include_str!("../../../templates/console/base.html"),
    ),
    (
        "error.html",
        include_str!("../../../templates/console/error.html"),
    ),
    (
        "login.html",
        include_str!("../../../templates/console/login.html"),
    ),
    (
        "signup.html",
        include_str!("../../../templates/console/signup.html"),
    ),
    (
        "keys.html",
        include_str!("../../../templates/console/keys.html"),
    ),
    (
        "usage.html",
        include_str!("../../../templates/console/usage.html"),
    ),
    (
        "playground.html",
        include_str!("../../../templates/console/playground.html"),
    ),
    (
        "check_inbox.html",
        include_str!("../../../templates/console/check_inbox.html"),
    ),
    (
        "confirm.html",
        include_str!("../../../templates/console/confirm.html"),
    ),
    (
        "reset.html",
        include_str!("../../../templates/console/reset.html"),
    ),
    (
        "revoke.html",
        include_str!("../../../templates/console/revoke.html"),
    ),
];

fn environment() -> &'static Environment<'static> {
    static ENVIRONMENT: OnceLock<Environment<'static>> = OnceLock::new();
    ENVIRONMENT.get_or_init(|| {
        let mut environment = Environment::new();
        for (name, source) in TEMPLATES {
            environment
                .add_template(name, source)
                .unwrap_or_else(|e| panic!("console template {name}: {e}"));
        }
        environment
    })
}

/// What the shared layout shows.
#[derive(Default)]
pub struct Frame<'a> {
    pub title: &'a str,
    pub page: &'a str,
    pub email: Option<&'a str>,
    pub csrf: &'a str,
    pub error: Option<&'a str>,
    /// Form fields the error is about (marked `aria-invalid`).
    pub invalid: &'a [&'a str],
    /// Banners for the signed-in account (email to confirm, low credit).
    pub notices: Vec<Notice>,
}

/// A banner above a page: `kind` is `confirm` (with a button to mail the link again) or
/// `low-credit`.
#[derive(Serialize)]
pub struct Notice {
    pub kind: &'static str,
    pub text: String,
}

impl<'a> Frame<'a> {
    /// A form page for a visitor who is not signed in, with the `error` of the last post and
    /// the fields it is about.
    pub fn form(
        title: &'a str,
        page: &'a str,
        csrf: &'a str,
        error: Option<&'a str>,
        invalid: &'a [&'a str],
    ) -> Self {
        Self {
            title,
            page,
            csrf,
            error,
            invalid,
            ..Self::default()
        }
    }

    /// A page that only shows `message`.
    pub fn message(message: &'a str) -> Self {
        Self {
            title: "Sorry",
            error: Some(message),
            ..Self::default()
        }
    }
}

/// Renders template `name` with the frame and the page's own values.
pub fn render(name: &str, frame: &Frame<'_>, page: Value) -> String {
    let values = context! {
        title => frame.title,
        page => frame.page,
        email => frame.email,
        csrf => frame.csrf,
        error => frame.error,
        invalid => frame.invalid,
        notices => Value::from_serialize(&frame.notices),
        ..page
    };
    environment()
        .get_template(name)
        .and_then(|template| template.render(values))
        .unwrap_or_else(|e| {
            tracing::error!("rendering console template {name}: {e:#}");
            "<!doctype html><title>drugcite console</title><p>The console failed to draw this page.</p>".to_owned()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_parses_and_values_are_escaped() {
        let frame = Frame {
            title: "Keys",
            error: Some("<script>alert(1)</script>"),
            ..Frame::default()
        };
        let html = render("error.html", &frame, context! {});
        assert!(
            html.contains("&lt;script&gt;") && !html.contains("<script>alert"),
            "{html}"
        );
        for (name, _) in TEMPLATES {
            environment().get_template(name).unwrap();
        }
    }
}
