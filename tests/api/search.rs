//! POST /v1/search: shape, ranking contract, determinism, and every 400 of the spec.

use crate::helpers::{
    assert_error, results, spawn_app, spawn_app_with, subset_index, Reply, GENEROUS,
};

#[tokio::test]
async fn health_needs_no_key() {
    let app = spawn_app().await;
    let reply = app.get("/health").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body, serde_json::json!({"msg": "running fine"}));
}

#[tokio::test]
async fn search_returns_the_spec_shape_with_real_label_data() {
    let app = spawn_app().await;
    let started = std::time::Instant::now();
    let reply = app.search("sertraline pimozide", 5).await;
    let round_trip_ms = started.elapsed().as_secs_f64() * 1000.0;
    let body = &reply.body;
    assert_eq!(body["status"], 1);
    assert_eq!(body["msg"], "operation successful");
    assert_eq!(body["data"]["query"], "sertraline pimozide");
    let hits = results(&reply);
    assert_eq!(hits.len(), 5);
    assert_eq!(body["data"]["metadata"]["count"], 5);
    let search_time_ms = &body["data"]["metadata"]["search_time_ms"];
    assert!(search_time_ms.is_f64(), "a float (§2.5): {search_time_ms}");
    let search_time_ms = search_time_ms.as_f64().unwrap();
    assert!(
        search_time_ms > 0.0 && search_time_ms <= round_trip_ms,
        "milliseconds of server time, within the {round_trip_ms} ms the client waited: {search_time_ms}"
    );
    let top = &hits[0];
    assert_eq!(top["drug"]["name"], "sertraline hydrochloride");
    assert!(top["text"]
        .as_str()
        .unwrap()
        .to_lowercase()
        .contains("pimozide"));
    assert_eq!(top["drug"]["route"], serde_json::json!(["ORAL"]));
    assert!(!top["drug"]["ndc"].as_array().unwrap().is_empty());
    assert!(!top["drug"]["manufacturer"].as_str().unwrap().is_empty());
    assert!(top["drug"]["brand_names"].is_array());
    assert_eq!(
        top["source"]["url"],
        "https://dailymed.nlm.nih.gov/dailymed/drugInfo.cfm?setid=f6346a11-88b9-4425-b08d-a22f19c4ceb4"
    );
    for hit in hits {
        let fp = hit["fingerprint"].as_str().unwrap();
        assert_eq!(fp.len(), 128);
        assert!(fp.bytes().all(|b| b == b'0' || b == b'1'));
        assert!(
            !hit["section"].as_str().unwrap().contains('_'),
            "human section names"
        );
    }
}

#[tokio::test]
async fn top_k_defaults_to_ten() {
    let app = spawn_app().await;
    let reply = app
        .search_raw(Some(&app.key), r#"{"question":"adverse reactions"}"#)
        .await;
    assert_eq!(results(&reply).len(), 10);
    let reply = app
        .search_raw(
            Some(&app.key),
            r#"{"question":"adverse reactions","top_k":null,"extra":1}"#,
        )
        .await;
    assert_eq!(
        results(&reply).len(),
        10,
        "null top_k is the default, unknown fields are ignored"
    );
}

#[tokio::test]
async fn a_brand_name_finds_its_generic_labels() {
    let app = spawn_app().await;
    let reply = app.search("Sulfamylon", 3).await;
    let hits = results(&reply);
    assert!(!hits.is_empty());
    assert!(
        hits.iter().all(|h| h["drug"]["name"] == "mafenide acetate"),
        "{hits:?}"
    );
    let reply = app.search("BKEMV meningococcal infections", 3).await;
    assert_eq!(results(&reply)[0]["drug"]["name"], "eculizumab-aeeb");
}

#[tokio::test]
async fn a_curated_brand_or_class_term_finds_its_members_labels() {
    let app = spawn_app().await;
    let first_drug = |reply: &Reply| results(reply)[0]["drug"]["name"].clone();
    let reply = app.search("Flonase warnings", 3).await;
    assert_eq!(
        first_drug(&reply),
        "fluticasone propionate nasal",
        "brand not in the index"
    );
    let reply = app.search("beta blocker dose in heart failure", 3).await;
    assert_eq!(
        first_drug(&reply),
        "esmolol hydrochloride in sodium chloride"
    );
    let reply = app
        .search("which alkylating drugs cause myelosuppression", 3)
        .await;
    assert_eq!(
        first_drug(&reply),
        "temozolomide",
        "class from the openFDA block"
    );
}

#[tokio::test]
async fn same_query_same_order_across_requests_and_restarts() {
    let app = spawn_app().await;
    let questions = [
        "risk of bleeding",
        "renal impairment dose",
        "contraindicated",
        "lactic acidosis metformin",
    ];
    let mut first = Vec::new();
    for q in questions {
        first.push(app.search(q, 50).await.body["data"]["results"].clone());
    }
    let restarted = spawn_app_with(&subset_index().data_dir, GENEROUS).await;
    for (q, expected) in questions.iter().zip(&first) {
        assert_eq!(&app.search(q, 50).await.body["data"]["results"], expected);
        assert_eq!(
            &restarted.search(q, 50).await.body["data"]["results"],
            expected
        );
    }
}

#[tokio::test]
async fn a_question_of_only_stop_words_returns_no_results() {
    let app = spawn_app().await;
    let reply = app.search("is it the or", 5).await;
    assert!(results(&reply).is_empty());
    assert_eq!(reply.body["data"]["metadata"]["count"], 0);
}

#[tokio::test]
async fn bad_requests_are_400_envelopes() {
    let app = spawn_app().await;
    let key = Some(app.key.as_str());
    let huge = format!(r#"{{"question":"{}"}}"#, "a".repeat(100_000));
    let too_long = format!(r#"{{"question":"{}"}}"#, "a ".repeat(1_001));
    let bodies: Vec<String> = vec![
        r#"{}"#.into(),
        r#"{"top_k":5}"#.into(),
        r#"{"question":""}"#.into(),
        r#"{"question":"   "}"#.into(),
        r#"{"question":null}"#.into(),
        r#"{"question":42}"#.into(),
        r#"{"question":["a"]}"#.into(),
        r#"{"question":"aspirin","top_k":0}"#.into(),
        r#"{"question":"aspirin","top_k":101}"#.into(),
        r#"{"question":"aspirin","top_k":-1}"#.into(),
        r#"{"question":"aspirin","top_k":5.5}"#.into(),
        r#"{"question":"aspirin","top_k":"5"}"#.into(),
        r#"{"question":"aspirin","top_k":1e400}"#.into(),
        r#"{"question":"aspirin","top_k":99999999999999999999999}"#.into(),
        r#"{"question":"\ud800"}"#.into(),
        r#"{"question":"aspirin""#.into(),
        r#"[1,2]"#.into(),
        "null".into(),
        "".into(),
        "\u{0}\u{1}".into(),
        huge,
        too_long,
    ];
    for body in bodies {
        let reply = app.search_raw(key, body.clone()).await;
        assert_error(&reply, 400);
        let detail = reply.body["detail"].as_str().expect("400s say why");
        for rust in ["i64", "struct", "SearchRequest", "Option", "String"] {
            assert!(
                !detail.contains(rust),
                "no Rust type names in details: {detail}"
            );
        }
    }
    let invalid_utf8 = vec![b'{', 0xff, 0xfe, b'}'];
    assert_error(&app.search_raw(key, invalid_utf8).await, 400);
}

#[tokio::test]
async fn odd_but_valid_unicode_is_searched_not_rejected() {
    let app = spawn_app().await;
    for question in [
        "héparine 💊 bleeding",
        "\u{202e}aspirin\u{202c}",
        "метформин metformin",
        "a\u{0}b renal",
    ] {
        let reply = app.search(question, 3).await;
        assert_eq!(reply.status, 200, "{question:?}: {}", reply.body);
        assert_eq!(reply.body["data"]["query"], question);
    }
}

#[tokio::test]
async fn unknown_paths_and_methods_are_envelopes() {
    let app = spawn_app().await;
    assert_error(&app.get("/v1/nothing").await, 404);
    let reply = app.get("/v1/search").await;
    assert_eq!(reply.status, 405);
    assert_eq!(reply.body["status"], 0);
    assert_eq!(reply.body["errorCode"], "");
    assert_eq!(reply.body["msg"], "method not allowed");
}

#[tokio::test]
async fn openapi_document_describes_the_served_routes() {
    let app = spawn_app().await;
    let reply = app.get("/openapi.json").await;
    assert_eq!(reply.status, 200);
    let doc = &reply.body;
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    for path in ["/health", "/v1/search", "/v1/verify/{fingerprint}"] {
        assert!(doc["paths"][path].is_object(), "{path} missing");
    }
    assert_eq!(
        doc["components"]["securitySchemes"]["api_key"]["name"],
        "x-api-key"
    );
    let search = &doc["paths"]["/v1/search"]["post"];
    for status in ["200", "400", "401", "403", "429", "500"] {
        assert!(search["responses"][status].is_object(), "search {status}");
    }
    let schemas = &doc["components"]["schemas"];
    for request in ["SearchRequest", "GraphRequest"] {
        let question = &schemas[request]["properties"]["question"];
        assert_eq!(question["type"], "string", "{request}: not nullable");
        assert_eq!(question["maxLength"], 2000, "{request}");
        assert_eq!(
            question["pattern"],
            drugcite_core::domain::QUESTION_PATTERN,
            "{request}: the rule Question::parse applies"
        );
        assert_eq!(
            schemas[request]["required"],
            serde_json::json!(["question"])
        );
    }
    for (request, field) in [
        ("SearchRequest", "drug"),
        ("SearchRequest", "section"),
        ("SearchRequest", "route"),
        ("QuoteRequest", "quote"),
        ("QuoteRequest", "drug"),
    ] {
        assert_eq!(
            schemas[request]["properties"][field]["pattern"],
            drugcite_core::domain::VISIBLE_PATTERN,
            "{request}.{field}: the blank check the server applies"
        );
    }
    let fingerprint = &doc["paths"]["/v1/verify/{fingerprint}"]["get"]["parameters"][0];
    assert_eq!(fingerprint["schema"]["pattern"], "^[01]{128}$");
}
