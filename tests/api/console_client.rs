//! A browser-like HTTP client for the console tests: a server with the console on and its
//! mail going to a local SMTP sink, cookies kept by hand, no redirects followed.

use std::collections::HashMap;

use reqwest::redirect::Policy as Redirects;

use crate::helpers::{serve_config, start_server, subset_index, GENEROUS};
use crate::mail_sink::{link_path, MailSink};
use drugcite_server::startup::ServeConfig;

/// A browser-like client: remembers cookies by hand, follows no redirects.
pub struct Browser {
    pub mail: MailSink,
    base: String,
    client: reqwest::Client,
    cookies: HashMap<String, String>,
}

pub struct Page {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: String,
}

impl Browser {
    pub async fn open(invite_only: bool) -> Self {
        Self::open_with(|config| config.accounts.policy.open_signup = !invite_only).await
    }

    /// A console server whose configuration `configure` adjusts.
    pub async fn open_with(configure: impl FnOnce(&mut ServeConfig)) -> Self {
        let mut config = serve_config(&subset_index().data_dir, GENEROUS);
        config.accounts.console = true;
        let mail = MailSink::start();
        config.accounts.mail = mail.settings();
        configure(&mut config);
        let addr = start_server(config).await;
        Self {
            mail,
            base: format!("http://{addr}"),
            client: reqwest::Client::builder()
                .redirect(Redirects::none())
                .build()
                .unwrap(),
            cookies: HashMap::new(),
        }
    }

    /// Signs `email` up and opens the mailed confirmation link: a session with the
    /// starting credit.
    pub async fn join(&mut self, email: &str, password: &str) {
        self.get("/console/signup").await;
        let page = self.sign_up(email, password).await;
        assert_eq!(page.status, 200, "{}", page.body);
        let mail = self.mail.wait_for(email, 1).await;
        let link = link_path(&mail.body, "/console/confirm/");
        let confirmed = self.post(&link, &[]).await;
        assert_eq!(confirmed.status, 303, "{}", confirmed.body);
    }

    /// Posts the sign-up form (after a `get` of it gave the CSRF cookie).
    pub async fn sign_up(&mut self, email: &str, password: &str) -> Page {
        self.post(
            "/console/signup",
            &[("email", email), ("password", password)],
        )
        .await
    }

    /// Forgets every cookie (a new visitor).
    pub fn forget(&mut self) {
        self.cookies.clear();
    }

    pub fn cookies_now(&self) -> HashMap<String, String> {
        self.cookies.clone()
    }

    pub fn restore(&mut self, cookies: HashMap<String, String>) {
        self.cookies = cookies;
    }

    fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    async fn keep(&mut self, response: reqwest::Response) -> Page {
        for value in response.headers().get_all("set-cookie") {
            let pair = value.to_str().unwrap().split(';').next().unwrap();
            let (name, value) = pair.split_once('=').unwrap();
            self.cookies.insert(name.to_owned(), value.to_owned());
        }
        let (status, headers) = (response.status().as_u16(), response.headers().clone());
        Page {
            status,
            headers,
            body: response.text().await.unwrap(),
        }
    }

    pub async fn get(&mut self, path: &str) -> Page {
        let response = self
            .client
            .get(format!("{}{path}", self.base))
            .header("cookie", self.cookie_header())
            .send()
            .await
            .unwrap();
        self.keep(response).await
    }

    /// Posts `fields` with the CSRF token of the cookie.
    pub async fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Page {
        let csrf = self
            .cookies
            .get("drugcite_csrf")
            .cloned()
            .unwrap_or_default();
        let mut form: Vec<(&str, &str)> = fields.to_vec();
        form.push(("csrf", &csrf));
        self.post_raw(path, serde_urlencoded(&form)).await
    }

    pub async fn post_raw(&mut self, path: &str, body: String) -> Page {
        let response = self
            .client
            .post(format!("{}{path}", self.base))
            .header("cookie", self.cookie_header())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .unwrap();
        self.keep(response).await
    }
}

fn serde_urlencoded(fields: &[(&str, &str)]) -> String {
    let mut url = reqwest::Url::parse("http://x/").unwrap();
    url.query_pairs_mut().extend_pairs(fields);
    url.query().unwrap_or_default().to_owned()
}

pub fn unique_email() -> String {
    format!(
        "{}@example.org",
        drugcite_core::domain::ApiKey::generate().id()
    )
}
