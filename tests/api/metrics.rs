//! Prometheus `/metrics` on its own listener: counters move with requests, routes are
//! templates (never raw fingerprints), refusals and cache lookups show up, the index is
//! described, and nothing secret or operational is on the API port.

use drugcite_server::startup::Server;

use crate::helpers::{
    create_key, embedder, results, serve_config, subset_index, Limits, TestApp, GENEROUS,
};
use drugcite_accounts::scopes::Scope;

struct Observed {
    app: TestApp,
    metrics_url: String,
}

/// The real server over the subset index with `/metrics` on a second free port.
async fn spawn_with_metrics(limits: Limits) -> Observed {
    let data_dir = &subset_index().data_dir;
    let mut config = serve_config(data_dir, limits);
    config.embedder = Some(embedder());
    config.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
    let server = Server::start(config, "127.0.0.1:0".parse().unwrap())
        .await
        .expect("start server");
    let addr = server.local_addr().unwrap();
    let metrics_addr = server.metrics_addr().expect("metrics listener");
    tokio::spawn(server.run());
    Observed {
        app: TestApp {
            base: format!("http://{addr}"),
            client: reqwest::Client::new(),
            key: create_key(data_dir, &Scope::ALL).await,
            data_dir: data_dir.clone(),
        },
        metrics_url: format!("http://{metrics_addr}/metrics"),
    }
}

impl Observed {
    async fn scrape(&self) -> String {
        let response = self.app.client.get(&self.metrics_url).send().await.unwrap();
        assert_eq!(response.status(), 200);
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(
            content_type.starts_with("application/openmetrics-text"),
            "{content_type}"
        );
        response.text().await.unwrap()
    }
}

/// The value of the sample written exactly as `series` (name and labels), if present.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map(|value| value.trim().parse().expect("a number"))
}

fn count(text: &str, series: &str) -> f64 {
    sample(text, series).unwrap_or(0.0)
}

const VERIFY_200: &str =
    r#"drugcite_http_requests_total{route="/v1/verify/{fingerprint}",status="200"}"#;

#[tokio::test]
async fn requests_are_counted_by_route_template_status_and_latency() {
    let observed = spawn_with_metrics(GENEROUS).await;
    let app = &observed.app;
    let before = observed.scrape().await;
    let reply = app.search("clopidogrel CYP2C19 poor metabolizers", 2).await;
    let fingerprints: Vec<String> = results(&reply)
        .iter()
        .map(|r| r["fingerprint"].as_str().unwrap().to_owned())
        .collect();
    for fingerprint in &fingerprints {
        assert_eq!(app.verify(fingerprint, None).await.status, 200);
    }
    assert_eq!(app.verify(&"2".repeat(128), None).await.status, 400);
    assert_eq!(app.get("/no/such/path").await.status, 404);

    let after = observed.scrape().await;
    assert_eq!(count(&after, VERIFY_200) - count(&before, VERIFY_200), 2.0);
    let verify_400 =
        r#"drugcite_http_requests_total{route="/v1/verify/{fingerprint}",status="400"}"#;
    assert_eq!(count(&after, verify_400) - count(&before, verify_400), 1.0);
    let search_200 = r#"drugcite_http_requests_total{route="/v1/search",status="200"}"#;
    assert_eq!(count(&after, search_200) - count(&before, search_200), 1.0);
    let unmatched = r#"drugcite_http_requests_total{route="unmatched",status="404"}"#;
    assert_eq!(count(&after, unmatched) - count(&before, unmatched), 1.0);
    let latency_count =
        r#"drugcite_http_request_duration_seconds_count{route="/v1/verify/{fingerprint}"}"#;
    assert_eq!(
        count(&after, latency_count) - count(&before, latency_count),
        3.0
    );
    let inf_bucket = r#"drugcite_http_request_duration_seconds_bucket{le="+Inf",route="/v1/verify/{fingerprint}"}"#;
    assert_eq!(sample(&after, inf_bucket), sample(&after, latency_count));
    let fastest = r#"drugcite_http_request_duration_seconds_bucket{le="0.0001",route="/v1/verify/{fingerprint}"}"#;
    assert!(sample(&after, fastest).unwrap() <= sample(&after, inf_bucket).unwrap());
    for fingerprint in &fingerprints {
        assert!(
            !after.contains(fingerprint.as_str()),
            "a raw path became a label"
        );
    }
    assert!(!after.contains("/no/such/path"));
}

#[tokio::test]
async fn cache_lookups_move_with_repeated_verifies_and_questions() {
    let observed = spawn_with_metrics(GENEROUS).await;
    let app = &observed.app;
    let question = "warfarin bleeding risk with aspirin";
    let reply = app.search(question, 1).await;
    let fingerprint = results(&reply)[0]["fingerprint"]
        .as_str()
        .unwrap()
        .to_owned();
    let before = observed.scrape().await;
    app.search(question, 1).await;
    app.verify(&fingerprint, None).await;
    app.verify(&fingerprint, None).await;
    let after = observed.scrape().await;
    let query_hits = r#"drugcite_cache_lookups_total{cache="query_vector",result="hit"}"#;
    assert!(count(&after, query_hits) > count(&before, query_hits));
    let verify_hits = r#"drugcite_cache_lookups_total{cache="verify",result="hit"}"#;
    assert!(count(&after, verify_hits) > count(&before, verify_hits));
    let ratio = sample(&after, r#"drugcite_cache_hit_ratio{cache="verify"}"#).unwrap();
    assert!(ratio > 0.0 && ratio <= 1.0, "{ratio}");
}

#[tokio::test]
async fn refusals_are_counted_by_reason() {
    let observed = spawn_with_metrics(Limits {
        per_key: 1_000_000,
        per_address: 1,
    })
    .await;
    let app = &observed.app;
    let fingerprint = "0".repeat(128);
    assert_eq!(app.verify(&fingerprint, None).await.status, 200);
    assert_eq!(app.verify(&fingerprint, None).await.status, 429);
    assert_eq!(
        app.search_raw(None, r#"{"question":"x"}"#).await.status,
        401
    );
    let text = observed.scrape().await;
    assert_eq!(
        sample(&text, r#"drugcite_refusals_total{reason="rate_limited"}"#),
        Some(1.0)
    );
    assert_eq!(
        sample(&text, r#"drugcite_refusals_total{reason="unauthorized"}"#),
        Some(1.0)
    );
    assert_eq!(
        sample(
            &text,
            r#"drugcite_refusals_total{reason="credit_exhausted"}"#
        ),
        Some(0.0)
    );
    let limited = r#"drugcite_http_requests_total{route="/v1/verify/{fingerprint}",status="429"}"#;
    assert_eq!(sample(&text, limited), Some(1.0));
}

#[tokio::test]
async fn the_index_is_described_and_nothing_secret_is_exposed() {
    let observed = spawn_with_metrics(GENEROUS).await;
    let app = &observed.app;
    assert_eq!(app.search("ibuprofen", 1).await.status, 200);
    let text = observed.scrape().await;
    let generation = subset_index_generation();
    let info = format!(r#"drugcite_index_generation{{generation="{generation}"}}"#);
    assert_eq!(sample(&text, &info), Some(1.0), "{text}");
    let segments = sample(&text, "drugcite_index_segments").unwrap();
    assert!(segments >= subset_index().report.segments as f64);
    assert!(sample(&text, "drugcite_index_labels").unwrap() > 0.0);
    assert!(sample(&text, "drugcite_graph_relationships").unwrap() > 0.0);
    assert!(sample(&text, "drugcite_neo4j_errors_total{source=\"request\"}").is_some());
    assert!(text.trim_end().ends_with("# EOF"));
    assert!(!text.contains(&app.key) && !text.contains("dck_") && !text.contains('@'));
    assert_eq!(app.get("/metrics").await.status, 404, "not on the API port");
}

fn subset_index_generation() -> String {
    let data_dir = drugcite_store::DataDir::new(&subset_index().data_dir);
    let generation = data_dir.current_generation().unwrap();
    generation
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}
