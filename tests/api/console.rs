//! The console over plain HTTP: off unless enabled, its security headers, CSRF on every
//! form, clear 4xx pages for bad input (never a 500), invite-only sign-up, log-in throttling,
//! sessions that end at log-out.

use drugcite_accounts::{Email, Password, LOGIN_ATTEMPTS_PER_MINUTE};

use crate::console_client::{unique_email, Browser};
use crate::helpers::{serve_config, start_server, subset_index, GENEROUS};
use crate::test_db::TestDb;

#[tokio::test]
async fn the_console_is_off_unless_enabled() {
    let addr = start_server(serve_config(&subset_index().data_dir, GENEROUS)).await;
    let response = reqwest::get(format!("http://{addr}/console/login"))
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
}

#[tokio::test]
async fn console_pages_carry_a_strict_content_security_policy_and_local_assets() {
    let mut browser = Browser::open(false).await;
    let page = browser.get("/console/login").await;
    assert_eq!(page.status, 200);
    let csp = page.headers["content-security-policy"].to_str().unwrap();
    assert!(
        csp.contains("default-src 'none'")
            && csp.contains("script-src 'self'")
            && !csp.contains("unsafe"),
        "{csp}"
    );
    assert!(
        !page.body.contains("http://") && !page.body.contains("https://"),
        "no third-party hosts"
    );
    let set_cookie = page.headers["set-cookie"].to_str().unwrap();
    assert!(
        set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Strict"),
        "{set_cookie}"
    );
    for asset in [
        "console.css",
        "console.js",
        "playground.js",
        "graph-view.js",
        "cytoscape.min.js",
        "favicon.svg",
    ] {
        assert_eq!(
            browser
                .get(&format!("/console/static/{asset}"))
                .await
                .status,
            200,
            "{asset}"
        );
    }
    let icon = browser.get("/favicon.ico").await;
    assert_eq!(
        (icon.status, icon.headers["content-type"].to_str().unwrap()),
        (200, "image/x-icon")
    );
}

#[tokio::test]
async fn forms_without_the_csrf_token_are_refused() {
    let mut browser = Browser::open(false).await;
    browser.get("/console/signup").await;
    let email = unique_email();
    let forged = browser
        .post_raw(
            "/console/signup",
            format!("email={email}&password=a+long+clinic+passphrase&csrf=0"),
        )
        .await;
    assert_eq!(forged.status, 403);
    assert!(forged.body.contains("reload the page"));
    let missing = browser.post_raw("/console/signup", "email=x".into()).await;
    assert_eq!(missing.status, 403);
}

#[tokio::test]
async fn bad_sign_up_input_gets_a_clear_message_never_a_500() {
    let mut browser = Browser::open(false).await;
    browser.get("/console/signup").await;
    let cases = [
        ("not-an-email", "a long clinic passphrase", "email address"),
        (&unique_email()[..], "short", "10 to 128 characters"),
        (&unique_email()[..], "password123", "too easy to guess"),
    ];
    for (email, password, message) in cases {
        let page = browser.sign_up(email, password).await;
        assert_eq!(page.status, 400, "{email} {password}");
        assert!(page.body.contains(message), "{message}: {}", page.body);
        assert!(page.body.contains("aria-invalid=\"true\""), "{}", page.body);
    }
    let garbage = browser.post_raw("/console/signup", "%%%".into()).await;
    assert!((400..500).contains(&garbage.status), "{}", garbage.status);
}

#[tokio::test]
async fn a_confirmed_sign_up_makes_a_session_that_log_out_ends() {
    let mut browser = Browser::open(false).await;
    let email = unique_email();
    browser.join(&email, "a long clinic passphrase").await;
    let keys = browser.get("/console/keys").await;
    assert!(
        keys.body.contains("USD 5.00") && keys.body.contains(&email),
        "{}",
        keys.body
    );
    browser.post("/console/logout", &[]).await;
    let after = browser.get("/console/keys").await;
    assert_eq!(
        (after.status, after.headers["location"].to_str().unwrap()),
        (303, "/console/login")
    );
}

#[tokio::test]
async fn invite_only_consoles_have_no_sign_up_but_operator_made_accounts_log_in() {
    let mut browser = Browser::open(true).await;
    browser.get("/console/signup").await;
    let refused = browser
        .sign_up(&unique_email(), "a long clinic passphrase")
        .await;
    assert_eq!(refused.status, 400);
    assert!(refused.body.contains("by invitation"));
    let email = Email::parse(&unique_email()).unwrap();
    let accounts = TestDb::sqlite().open().await;
    let password = Password::parse("an invited passphrase", &email).unwrap();
    accounts
        .create_account(&email, Some(password), false)
        .await
        .unwrap();
    let login = browser
        .post(
            "/console/login",
            &[
                ("email", email.as_str()),
                ("password", "an invited passphrase"),
            ],
        )
        .await;
    assert_eq!(login.status, 303);
}

#[tokio::test]
async fn log_in_is_throttled_per_email() {
    let mut browser = Browser::open(false).await;
    browser.get("/console/login").await;
    let email = unique_email();
    for _ in 0..LOGIN_ATTEMPTS_PER_MINUTE.get() {
        let page = browser
            .post(
                "/console/login",
                &[("email", &email), ("password", "wrong password here")],
            )
            .await;
        assert_eq!(page.status, 400);
        assert!(page.body.contains("wrong email or password"));
    }
    let throttled = browser
        .post(
            "/console/login",
            &[("email", &email), ("password", "wrong password here")],
        )
        .await;
    assert_eq!(throttled.status, 429);
    assert!(throttled.body.contains("too many log-in attempts"));
}

#[tokio::test]
async fn the_console_will_not_start_without_a_way_to_send_mail() {
    let mut config = serve_config(&subset_index().data_dir, GENEROUS);
    config.accounts.console = true;
    let refused = drugcite_server::startup::Server::start(config, "127.0.0.1:0".parse().unwrap())
        .await
        .err()
        .expect("no mail setting: no console");
    assert!(
        refused.to_string().contains("--smtp-url")
            && refused.to_string().contains("--dev-mail-log"),
        "{refused}"
    );
}
