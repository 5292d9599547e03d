//! Console templates (compiled into the binary, HTML auto-escaped by minijinja) and the frame
//! every page shares: title, current page, the signed-in email and the CSRF token.

use std::sync::OnceLock;

use minijinja::{context, Environment, Value};

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
}

impl<'a> Frame<'a> {
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
