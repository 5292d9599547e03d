//! `x-request-id`: a sane incoming id is echoed, anything else replaced by one the server makes;
//! every answer carries one, errors and answers from below the router included.

use crate::helpers::spawn_app;

async fn request_id(app: &crate::helpers::TestApp, path: &str, sent: Option<&str>) -> String {
    let mut request = app.client.get(format!("{}{path}", app.base));
    if let Some(id) = sent {
        request = request.header("x-request-id", id);
    }
    let response = request.send().await.unwrap();
    response.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned()
}

fn is_generated(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

#[tokio::test]
async fn a_sane_incoming_request_id_is_echoed_on_every_answer() {
    let app = spawn_app().await;
    let id = "4bf92f3577b34da6-a3ce929d0e0e4736";
    assert_eq!(request_id(&app, "/health", Some(id)).await, id);
    assert_eq!(request_id(&app, "/no/such/path", Some(id)).await, id);
    assert_eq!(request_id(&app, "/v1/verify/xyz", Some(id)).await, id);
    let too_long_target = format!("/v1/verify/{}", "0".repeat(9000));
    assert_eq!(request_id(&app, &too_long_target, Some(id)).await, id);
}

#[tokio::test]
async fn requests_without_a_sane_id_get_a_new_one_each() {
    let app = spawn_app().await;
    let first = request_id(&app, "/health", None).await;
    let second = request_id(&app, "/health", None).await;
    assert!(
        is_generated(&first) && is_generated(&second),
        "{first} {second}"
    );
    assert_ne!(first, second);
    for insane in ["has space", "a{b}", &"x".repeat(65)] {
        let replaced = request_id(&app, "/health", Some(insane)).await;
        assert!(is_generated(&replaced), "{insane:?} → {replaced}");
    }
}
