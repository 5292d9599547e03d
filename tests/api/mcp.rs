//! MCP end to end with the rmcp SDK's client: over stdio (`drugcite mcp`) and over streamable
//! HTTP (`/mcp` on a running server, with a key; refused without one). Every tool answers with
//! fingerprints that verify and DailyMed URLs.

use std::collections::HashMap;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::ServiceExt;
use serde_json::{json, Value};

use crate::helpers::{assert_error, create_key, reply, spawn_app, subset_index};
use drugcite_accounts::scopes::Scope;

type Client = RunningService<RoleClient, ()>;

async fn stdio_client() -> Client {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_drugcite"));
    command
        .arg("--data-dir")
        .arg(&subset_index().data_dir)
        .args(["mcp", "--lexical-only"])
        .env_remove("DRUGCITE_DATA_DIR");
    let transport = TokioChildProcess::new(command).expect("spawn drugcite mcp");
    ().serve(transport).await.expect("MCP handshake over stdio")
}

async fn http_client(base: &str, key: &str) -> Client {
    let headers = HashMap::from([("x-api-key".parse().unwrap(), key.parse().unwrap())]);
    let config = StreamableHttpClientTransportConfig::with_uri(format!("{base}/mcp"))
        .custom_headers(headers);
    let transport = StreamableHttpClientTransport::from_config(config);
    ().serve(transport).await.expect("MCP handshake over HTTP")
}

async fn call(client: &Client, tool: &'static str, arguments: Value) -> CallToolResult {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    client
        .call_tool(CallToolRequestParams::new(tool).with_arguments(arguments))
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

fn structured(result: &CallToolResult) -> &Value {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result
        .structured_content
        .as_ref()
        .expect("structured content")
}

/// Lists the tools and calls each one: search, verify what it found, check a quote of it, its
/// label's history, a graph answer whose evidence verifies, and a bad argument.
async fn every_tool_answers_with_citations(client: &Client) {
    let mut names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|tool| {
            assert_eq!(tool.input_schema["type"], "object");
            tool.name.into_owned()
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "ask_graph",
            "check_quote",
            "label_history",
            "search_labels",
            "verify_citation"
        ]
    );

    let search = call(
        client,
        "search_labels",
        json!({"question": "dizziness", "top_k": 3}),
    )
    .await;
    let first = &structured(&search)["results"][0];
    let fingerprint = first["fingerprint"].as_str().unwrap();
    let text = first["text"].as_str().unwrap();
    assert!(first["source"]["url"]
        .as_str()
        .unwrap()
        .starts_with("https://dailymed.nlm.nih.gov/"));

    let verified = call(
        client,
        "verify_citation",
        json!({"fingerprint": fingerprint}),
    )
    .await;
    assert_eq!(structured(&verified)["verified"], true);
    assert_eq!(structured(&verified)["text"], text);

    let answer = format!("The label says \"{text}\" [fp:{fingerprint}].");
    let checked = call(client, "check_quote", json!({"answer": answer})).await;
    assert_eq!(structured(&checked)["quotes"][0]["match"], "exact");
    assert_eq!(structured(&checked)["summary"]["all_verbatim"], true);

    let set_id = first["set_id"].as_str().unwrap();
    let history = call(client, "label_history", json!({"set_id": set_id})).await;
    assert_eq!(structured(&history)["set_id"], set_id);
    assert!(!structured(&history)["versions"]
        .as_array()
        .unwrap()
        .is_empty());

    let graph = call(
        client,
        "ask_graph",
        json!({"question": "What are the contraindications of esmolol?"}),
    )
    .await;
    let relationships = structured(&graph)["relationships"].as_array().unwrap();
    assert!(!relationships.is_empty(), "{graph:?}");
    for relationship in relationships {
        for evidence in relationship["evidence"].as_array().unwrap() {
            let fp = evidence["fingerprint"].as_str().unwrap();
            let again = call(client, "verify_citation", json!({"fingerprint": fp})).await;
            assert_eq!(structured(&again)["text"], evidence["text"]);
        }
    }

    let bad = call(client, "verify_citation", json!({"fingerprint": "01"})).await;
    assert_eq!(bad.is_error, Some(true));
}

#[tokio::test]
async fn mcp_over_stdio_answers_every_tool() {
    let client = stdio_client().await;
    every_tool_answers_with_citations(&client).await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn mcp_over_http_needs_a_key_and_the_tools_scope() {
    let app = spawn_app().await;
    let client = http_client(&app.base, &app.key).await;
    every_tool_answers_with_citations(&client).await;
    client.cancel().await.unwrap();

    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let keyless = app
        .client
        .post(format!("{}/mcp", app.base))
        .json(&initialize)
        .header("accept", "application/json, text/event-stream");
    assert_error(&reply(keyless).await, 401);
    let forged = app
        .client
        .post(format!("{}/mcp", app.base))
        .json(&initialize)
        .header("accept", "application/json, text/event-stream")
        .header("x-api-key", "dc_not_a_key");
    assert_error(&reply(forged).await, 401);

    let verify_only = create_key(&app.data_dir, &[Scope::Verify]).await;
    let limited = http_client(&app.base, &verify_only).await;
    let refused = call(&limited, "search_labels", json!({"question": "dizziness"})).await;
    assert_eq!(refused.is_error, Some(true));
    assert!(format!("{:?}", refused.content).contains("scope `search`"));
    limited.cancel().await.unwrap();
}
