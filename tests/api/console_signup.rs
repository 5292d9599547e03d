//! Sign-up abuse and recovery over HTTP, with mail over real SMTP to a local sink: the credit
//! waits for a confirmed email, links work once and expire, sign-up answers alike for known
//! and unknown addresses, is throttled per address, refuses guessable passwords, and a
//! password reset ends every session.

use drugcite_accounts::Onboarding;
use std::num::NonZeroU32;

use crate::console_client::{unique_email, Browser};
use crate::mail_sink::link_path;

const PASSPHRASE: &str = "a long clinic passphrase";

#[tokio::test]
async fn credit_waits_for_a_confirmed_email_and_the_link_works_once() {
    let mut browser = Browser::open(false).await;
    let email = unique_email();
    browser.get("/console/signup").await;
    let page = browser.sign_up(&email, PASSPHRASE).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Check your inbox"), "{}", page.body);
    assert!(
        !page.headers.contains_key("location"),
        "no session before the email is confirmed"
    );
    let login = browser
        .post(
            "/console/login",
            &[("email", &email), ("password", PASSPHRASE)],
        )
        .await;
    assert_eq!(login.status, 303, "an unconfirmed account may log in");
    let keys = browser.get("/console/keys").await;
    assert!(
        keys.body.contains("USD 0.00") && keys.body.contains("Confirm your email address"),
        "{}",
        keys.body
    );

    let mail = browser.mail.wait_for(&email, 1).await;
    assert_eq!(mail.subject, "Confirm your drugcite account");
    let link = link_path(&mail.body, "/console/confirm/");
    let form = browser.get(&link).await;
    assert_eq!(form.status, 200, "opening the link changes nothing");
    let confirmed = browser.post(&link, &[]).await;
    assert_eq!(confirmed.status, 303);
    let keys = browser.get("/console/keys").await;
    assert!(
        keys.body.contains("USD 5.00") && !keys.body.contains("Confirm your email address"),
        "{}",
        keys.body
    );
    let again = browser.post(&link, &[]).await;
    assert_eq!(again.status, 400);
    assert!(again.body.contains("expired or was already used"));
    let keys = browser.get("/console/keys").await;
    assert!(keys.body.contains("USD 5.00"), "the credit is granted once");
}

#[tokio::test]
async fn sign_up_answers_alike_whether_or_not_the_email_has_an_account() {
    let mut browser = Browser::open(false).await;
    let member = unique_email();
    browser.join(&member, PASSPHRASE).await;
    browser.forget();
    browser.get("/console/signup").await;
    let known = browser.sign_up(&member, "another clinic passphrase").await;
    let stranger = unique_email();
    let unknown = browser
        .sign_up(&stranger, "another clinic passphrase")
        .await;
    assert_eq!((known.status, unknown.status), (200, 200));
    assert_eq!(
        known.body.replace(&member, "EMAIL"),
        unknown.body.replace(&stranger, "EMAIL"),
        "the same page either way"
    );
    let told = browser.mail.wait_for(&member, 2).await;
    assert_eq!(told.subject, "You already have a drugcite account");
    assert!(told.body.contains("/console/reset"));
    browser.mail.wait_for(&stranger, 1).await;
    let login = browser
        .post(
            "/console/login",
            &[
                ("email", &member),
                ("password", "another clinic passphrase"),
            ],
        )
        .await;
    assert_eq!(login.status, 400, "the member's password is unchanged");
}

#[tokio::test]
async fn sign_up_is_throttled_per_client_address() {
    let mut browser = Browser::open_with(|config| {
        config.accounts.onboarding = Onboarding {
            signups_per_address_per_hour: NonZeroU32::new(3).unwrap(),
            ..Onboarding::default()
        }
    })
    .await;
    browser.get("/console/signup").await;
    for _ in 0..3 {
        let page = browser.sign_up(&unique_email(), PASSPHRASE).await;
        assert_eq!(page.status, 200);
    }
    let refused_email = unique_email();
    let refused = browser.sign_up(&refused_email, PASSPHRASE).await;
    assert_eq!(refused.status, 429);
    assert!(refused.body.contains("too many sign-up or reset requests"));
    let reset = browser
        .post("/console/reset", &[("email", &refused_email)])
        .await;
    assert_eq!(reset.status, 429, "resets share the address's budget");
    let login = browser
        .post(
            "/console/login",
            &[("email", &refused_email), ("password", PASSPHRASE)],
        )
        .await;
    assert_eq!(login.status, 400, "the refused sign-up made no account");
}

#[tokio::test]
async fn guessable_passwords_are_refused_with_advice() {
    let mut browser = Browser::open(false).await;
    browser.get("/console/signup").await;
    for weak in [
        "password123",
        "qwertyuiop123",
        "iloveyou2024",
        "Passw0rd!Passw0rd!",
        "1q2w3e4r5t6y",
        "drugcite2024",
    ] {
        let page = browser.sign_up(&unique_email(), weak).await;
        assert_eq!(page.status, 400, "{weak}");
        assert!(
            page.body.contains("too easy to guess"),
            "{weak}: {}",
            page.body
        );
        assert!(page.body.contains("aria-invalid=\"true\""));
    }
}

#[tokio::test]
async fn a_password_reset_works_once_and_ends_every_session() {
    let mut browser = Browser::open(false).await;
    let email = unique_email();
    browser.join(&email, PASSPHRASE).await;
    let session = browser.cookies_now();

    browser.forget();
    browser.get("/console/reset").await;
    let asked = browser.post("/console/reset", &[("email", &email)]).await;
    let nobody = browser
        .post("/console/reset", &[("email", &unique_email())])
        .await;
    assert_eq!((asked.status, nobody.status), (200, 200));
    assert!(asked.body.contains("If an account uses"));
    let mail = browser.mail.wait_for(&email, 2).await;
    assert_eq!(mail.subject, "Reset your drugcite password");
    let link = link_path(&mail.body, "/console/reset/");
    assert_eq!(browser.get(&link).await.status, 200);
    let weak = browser.post(&link, &[("password", "password123")]).await;
    assert_eq!(
        weak.status, 400,
        "a refused password leaves the link usable"
    );
    let done = browser
        .post(&link, &[("password", "a brand new clinic passphrase")])
        .await;
    assert_eq!(done.status, 200);
    assert!(done.body.contains("Your password is changed"));
    let reused = browser
        .post(&link, &[("password", "yet another clinic passphrase")])
        .await;
    assert_eq!(reused.status, 400);
    assert!(reused.body.contains("expired or was already used"));

    browser.restore(session);
    let old_session = browser.get("/console/keys").await;
    assert_eq!(old_session.status, 303, "the reset ended the old session");
    let old = browser
        .post(
            "/console/login",
            &[("email", &email), ("password", PASSPHRASE)],
        )
        .await;
    assert_eq!(old.status, 400);
    let new = browser
        .post(
            "/console/login",
            &[
                ("email", &email),
                ("password", "a brand new clinic passphrase"),
            ],
        )
        .await;
    assert_eq!(new.status, 303);
}

#[tokio::test]
async fn expired_links_are_refused() {
    let mut browser = Browser::open_with(|config| {
        config.accounts.onboarding = Onboarding {
            confirm_token_secs: -1,
            ..Onboarding::default()
        }
    })
    .await;
    let email = unique_email();
    browser.get("/console/signup").await;
    browser.sign_up(&email, PASSPHRASE).await;
    let mail = browser.mail.wait_for(&email, 1).await;
    let expired = browser
        .post(&link_path(&mail.body, "/console/confirm/"), &[])
        .await;
    assert_eq!(expired.status, 400);
    assert!(expired.body.contains("expired"));
}
