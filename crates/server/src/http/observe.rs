//! The outermost request layer: gives every request an id (a sane incoming `x-request-id`, else
//! a new one) and echoes it, counts the answer in `HttpMetrics` under its route template and
//! writes one access-log line (method, route, status, latency, id; never a key, cookie, query
//! or raw path). Wraps the whole router once (the route is named from `RouteTable`, not from
//! axum's per-route `MatchedPath`) and leaves a direct route's match in the request for
//! `dispatch`. A hand-written tower service: no boxing, no lock.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, Method};
use axum::response::Response;
use tower::{Layer, Service};

use super::failure::Failure;
use super::metrics::{HttpMetrics, RouteSlot, UNMATCHED_ROUTE};
use super::route_table::RouteTable;

pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");
/// Longest incoming request id kept; longer ones are replaced.
const MAX_REQUEST_ID_BYTES: usize = 64;
/// The tracing target of access-log lines (off by default; `RUST_LOG=info` turns them on).
pub const ACCESS_LOG_TARGET: &str = "drugcite::access";

#[derive(Clone)]
pub struct ObserveLayer {
    metrics: Arc<HttpMetrics>,
    routes: Arc<RouteTable>,
    ids: Arc<RequestIds>,
}

impl ObserveLayer {
    pub fn new(metrics: Arc<HttpMetrics>, routes: RouteTable) -> Self {
        Self {
            metrics,
            routes: Arc::new(routes),
            ids: Arc::new(RequestIds::new()),
        }
    }
}

impl<S> Layer<S> for ObserveLayer {
    type Service = Observe<S>;

    fn layer(&self, inner: S) -> Observe<S> {
        Observe {
            inner,
            layer: self.clone(),
        }
    }
}

#[derive(Clone)]
pub struct Observe<S> {
    inner: S,
    layer: ObserveLayer,
}

impl<S> Service<Request> for Observe<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Observed<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request) -> Self::Future {
        let id = match request.headers().get(&REQUEST_ID) {
            Some(incoming) if is_sane(incoming) => incoming.clone(),
            _ => self.layer.ids.next(),
        };
        let metrics = &self.layer.metrics;
        let matched = self.layer.routes.matched(request.uri().path());
        let route = matched.slot;
        if matched.direct.is_some() {
            request.extensions_mut().insert(matched);
        }
        let method = request.method().clone();
        metrics.started();
        let pending = Pending {
            metrics: Arc::clone(metrics),
            route,
            method,
            id,
            started: Instant::now(),
        };
        Observed {
            inner: self.inner.call(request),
            pending: Some(pending),
        }
    }
}

/// What is known of a request until its answer: counted as finished when dropped, so a
/// request whose connection went away leaves the in-flight gauge too.
struct Pending {
    metrics: Arc<HttpMetrics>,
    route: RouteSlot,
    method: Method,
    id: HeaderValue,
    started: Instant,
}

impl Drop for Pending {
    fn drop(&mut self) {
        self.metrics.finished();
    }
}

impl Pending {
    fn answered(self, response: &mut Response) {
        let latency = self.started.elapsed();
        let status = response.status().as_u16();
        let failure = response.extensions().get::<Failure>().copied();
        self.metrics.record(self.route, status, latency, failure);
        tracing::info!(
            target: ACCESS_LOG_TARGET,
            method = self.method.as_str(),
            route = self.metrics.template(self.route).unwrap_or(UNMATCHED_ROUTE),
            status,
            latency_ms = latency.as_secs_f64() * 1e3,
            request_id = self.id.to_str().unwrap_or_default(),
            "request"
        );
        response.headers_mut().insert(REQUEST_ID, self.id.clone());
    }
}

pin_project_lite::pin_project! {
    pub struct Observed<F> {
        #[pin]
        inner: F,
        pending: Option<Pending>,
    }
}

impl<F, E> Future for Observed<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let mut outcome = std::task::ready!(this.inner.poll(cx));
        if let (Ok(response), Some(pending)) = (&mut outcome, this.pending.take()) {
            pending.answered(response);
        }
        Poll::Ready(outcome)
    }
}

/// An incoming id is kept if it is 1–64 characters of letters, digits and `-_.:` (so it is
/// safe in a log line and cannot smuggle anything); else the server makes its own.
fn is_sane(id: &HeaderValue) -> bool {
    let bytes = id.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= MAX_REQUEST_ID_BYTES
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

/// New request ids: 16 hex digits, unique within the process (a bijective mix of a counter
/// offset by a random start), not guessable from the previous one.
struct RequestIds {
    start: u64,
    next: AtomicU64,
}

impl RequestIds {
    fn new() -> Self {
        Self {
            start: rand::random(),
            next: AtomicU64::new(0),
        }
    }

    fn next(&self) -> HeaderValue {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let id = mix(self.start.wrapping_add(n));
        let mut hex = [0u8; 16];
        for (i, digit) in hex.iter_mut().enumerate() {
            let nibble = (id >> (60 - 4 * i)) & 0xf;
            *digit = b"0123456789abcdef"[nibble as usize];
        }
        HeaderValue::from_bytes(&hex).expect("hex digits are a valid header value")
    }
}

/// SplitMix64's finaliser: a bijection on u64, so distinct inputs give distinct ids.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sane_ids_are_kept_and_others_are_not() {
        let sane = |raw: &str| is_sane(&HeaderValue::from_str(raw).unwrap());
        assert!(sane("4bf92f3577b34da6a3ce929d0e0e4736"));
        assert!(sane("req-1.2:3_x"));
        assert!(!sane(""));
        assert!(!sane("has space"));
        assert!(!sane("quote\"and{braces}"));
        assert!(!sane(&"a".repeat(MAX_REQUEST_ID_BYTES + 1)));
    }

    #[test]
    fn generated_ids_are_sixteen_hex_digits_and_distinct() {
        let ids = RequestIds::new();
        let made: std::collections::HashSet<String> = (0..1000)
            .map(|_| ids.next().to_str().unwrap().to_owned())
            .collect();
        assert_eq!(made.len(), 1000);
        assert!(made
            .iter()
            .all(|id| id.len() == 16 && id.bytes().all(|b| b.is_ascii_hexdigit())));
        assert!(made
            .iter()
            .all(|id| is_sane(&HeaderValue::from_str(id).unwrap())));
    }
}
