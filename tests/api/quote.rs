//! `POST /v1/verify/quote`: exact quotes with their offsets, normalised ones naming each
//! normalisation, near misses with the closest passage and a diff, absent quotes, cited
//! fingerprints that do not verify, whole answers, and the 400/401/403 envelopes.

use serde_json::{json, Value};

use crate::helpers::{assert_error, create_key, results, spawn_app, Reply, TestApp};
use drugcite_accounts::scopes::Scope;

impl TestApp {
    pub async fn check_quote(&self, body: Value, key: Option<&str>) -> Reply {
        let url = format!("{}/v1/verify/quote", self.base);
        let mut request = self.client.post(url).json(&body);
        if let Some(key) = key {
            request = request.header("x-api-key", key);
        }
        crate::helpers::reply(request).await
    }
}

/// ASCII label segments from a search, each with at least 80 characters.
async fn ascii_segments(app: &TestApp, question: &str) -> Vec<(String, String)> {
    let reply = app.search(question, 20).await;
    results(&reply)
        .iter()
        .map(|r| {
            let text = r["text"].as_str().unwrap().to_owned();
            (text, r["fingerprint"].as_str().unwrap().to_owned())
        })
        .filter(|(text, _)| text.is_ascii() && text.trim().len() >= 80)
        .collect()
}

/// The 60 characters of `text` from its 10th (a passage in the middle of a segment).
fn passage(text: &str) -> &str {
    text[10..70].trim()
}

fn check(reply: &Reply) -> &Value {
    assert_eq!(reply.status, 200, "body: {}", reply.body);
    &reply.body["data"]["quotes"][0]
}

#[tokio::test]
async fn a_quoted_passage_is_exact_with_offsets_and_variants_say_how_they_differ() {
    let app = spawn_app().await;
    let (text, fingerprint) = ascii_segments(&app, "dizziness").await.remove(0);
    let quote = passage(&text);

    let exact = app
        .check_quote(json!({"quote": quote, "fingerprint": fingerprint}), None)
        .await;
    let exact = check(&exact);
    assert_eq!(exact["match"], "exact");
    let (start, end) = (
        exact["passage"]["byte_start"].as_u64().unwrap() as usize,
        exact["passage"]["byte_end"].as_u64().unwrap() as usize,
    );
    assert_eq!(&text[start..end], quote);
    assert_eq!(exact["segment"]["fingerprint"], fingerprint.as_str());
    assert!(exact["segment"]["source"]["url"]
        .as_str()
        .unwrap()
        .starts_with("https://dailymed.nlm.nih.gov/"));

    let shouted = quote.to_uppercase().replace(' ', " \n ");
    let normalised = app
        .check_quote(json!({"quote": shouted, "fingerprint": fingerprint}), None)
        .await;
    let normalised = check(&normalised);
    assert_eq!(normalised["match"], "normalised", "{normalised}");
    assert_eq!(normalised["normalisations"], json!(["whitespace", "case"]));
    assert_eq!(normalised["passage"]["text"], quote);

    let altered = format!("{}zq{}", &quote[..20], &quote[22..]);
    let near = app
        .check_quote(json!({"quote": altered, "fingerprint": fingerprint}), None)
        .await;
    let near = check(&near);
    assert_eq!(near["match"], "near_miss", "{near}");
    assert!(text.contains(near["passage"]["text"].as_str().unwrap()));
    let diff = near["diff"].as_array().unwrap();
    let side = |op: &str| -> String {
        diff.iter()
            .filter(|p| p["op"] != op)
            .map(|p| p["text"].as_str().unwrap())
            .collect()
    };
    assert_eq!(side("label_only"), altered);
    assert_eq!(
        side("quote_only"),
        near["passage"]["text"].as_str().unwrap()
    );
    assert!(diff
        .iter()
        .any(|p| p["op"] == "quote_only" && p["text"].as_str().unwrap().contains("zq")));
}

#[tokio::test]
async fn an_uncited_quote_is_found_by_search_and_its_segment_verifies() {
    let app = spawn_app().await;
    let (text, _) = ascii_segments(&app, "liver injury").await.remove(0);
    let quote = passage(&text);
    let reply = app.check_quote(json!({"quote": quote}), None).await;
    let found = check(&reply);
    assert_eq!(found["match"], "exact", "{found}");
    let segment_text = found["segment"]["text"].as_str().unwrap();
    assert!(segment_text.contains(quote));
    let verified = app
        .verify(found["segment"]["fingerprint"].as_str().unwrap(), None)
        .await;
    assert_eq!(verified.body["data"]["verified"], true);
    assert_eq!(verified.body["data"]["text"], segment_text);

    let nothing = app
        .check_quote(
            json!({"quote": "Purple elephants recite sonnets at midnight."}),
            None,
        )
        .await;
    assert_eq!(check(&nothing)["match"], "not_found");
    assert!(check(&nothing)["segment"].is_null());
}

#[tokio::test]
async fn a_cited_fingerprint_that_does_not_verify_is_said_so() {
    let app = spawn_app().await;
    let (text, fingerprint) = ascii_segments(&app, "dizziness").await.remove(0);
    let flipped: String = fingerprint
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if i == 0 {
                if c == '0' {
                    '1'
                } else {
                    '0'
                }
            } else {
                c
            }
        })
        .collect();
    let reply = app
        .check_quote(
            json!({"quote": passage(&text), "fingerprint": flipped}),
            None,
        )
        .await;
    let check = check(&reply);
    assert_eq!(check["match"], "citation_not_verified");
    assert!(
        check["message"].as_str().unwrap().contains("1 of 128 bits"),
        "{check}"
    );
}

#[tokio::test]
async fn an_answer_is_checked_quote_by_quote() {
    let app = spawn_app().await;
    let segments = ascii_segments(&app, "warnings and precautions").await;
    assert!(segments.len() >= 2, "the subset has ASCII segments");
    let (first, fp1) = &segments[0];
    let (second, fp2) = &segments[1];
    let answer = format!(
        "The label says \"{}\" [fp:{fp1}]. It also says “{}” [fp:{fp2}], and \"{}\".",
        passage(first),
        passage(second).to_lowercase(),
        "Purple elephants recite sonnets at midnight."
    );
    let reply = app
        .check_quote(json!({"answer": answer}), Some(&app.key))
        .await;
    assert_eq!(reply.status, 200, "body: {}", reply.body);
    let data = &reply.body["data"];
    let kinds: Vec<&str> = data["quotes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["match"].as_str().unwrap())
        .collect();
    let lowered_kind = if passage(second) == passage(second).to_lowercase() {
        "exact"
    } else {
        "normalised"
    };
    assert_eq!(kinds, ["exact", lowered_kind, "not_found"]);
    assert_eq!(data["quotes"][0]["cited_fingerprint"], fp1.as_str());
    assert_eq!(data["summary"]["count"], 3);
    assert_eq!(data["summary"]["all_verbatim"], false);
}

#[tokio::test]
async fn bad_quote_requests_are_envelopes() {
    let app = spawn_app().await;
    let fp = "0".repeat(128);
    for body in [
        json!({"answer": ""}),
        json!({"quote": "   "}),
        json!({"quote": "a", "fingerprint": "012"}),
        json!({"quote": "x".repeat(2001)}),
        json!({"answer": "\"a\"", "fingerprint": "01"}),
        json!({"quote": 5}),
    ] {
        assert_error(&app.check_quote(body, None).await, 400);
    }
    for (body, count) in [
        (json!({"drug": "sertraline"}), 0),
        (json!({"quote": "a", "answer": "\"b\" and \"c\""}), 3),
        (json!({"answer": "no quotes at all"}), 0),
        (json!({"answer": "\"a\"", "fingerprint": fp}), 1),
    ] {
        let reply = app.check_quote(body.clone(), None).await;
        assert_eq!(reply.status, 200, "{body}: {}", reply.body);
        assert_eq!(reply.body["data"]["summary"]["count"], count, "{body}");
    }
    let search_only = create_key(&app.data_dir, &[Scope::Search]).await;
    assert_error(
        &app.check_quote(json!({"quote": "a"}), Some(&search_only))
            .await,
        403,
    );
    assert_error(
        &app.check_quote(
            json!({"quote": "a"}),
            Some("dc_0000000000000000000000000000"),
        )
        .await,
        401,
    );
}
