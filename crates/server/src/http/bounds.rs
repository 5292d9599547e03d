//! Bounds on one request, checked before routing: the length of the request target, the
//! number and size of headers, the size of a body, the time the whole request may take, and a
//! handler's panic answered as a 500. Each refusal is an `ApiError`; connection-level limits
//! (header read, idle, cap) live in `server`. A hand-written tower layer around the whole
//! router: no boxing, and nothing paid by a request that does not need the bound (a GET carries
//! no body to limit; an answer ready at its first poll arms no timer).

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::Method;
use axum::response::{IntoResponse, Response};
use tokio::time::Sleep;
use tower::{Layer, Service};

use super::ApiError;

/// Longest request target (path and query) accepted: 414 beyond.
pub const MAX_URI_BYTES: usize = 8 * 1024;
/// Most request headers accepted: 431 beyond.
pub const MAX_HEADERS: usize = 64;
/// Most bytes of header names and values together: 431 beyond.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;

/// The router behind the request bounds. `limited` is the same router with the body limit,
/// taken by requests whose method carries a body; `inner` by the rest.
#[derive(Clone)]
pub struct Bounded<S> {
    inner: S,
    limited: <DefaultBodyLimit as Layer<S>>::Service,
    timeout: Duration,
}

impl<S: Clone> Bounded<S> {
    pub fn new(inner: S, timeout: Duration, max_body_bytes: usize) -> Self {
        let limited = DefaultBodyLimit::max(max_body_bytes).layer(inner.clone());
        Self {
            inner,
            limited,
            timeout,
        }
    }
}

impl<S> Service<Request> for Bounded<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = BoundedFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        std::task::ready!(self.inner.poll_ready(cx))?;
        self.limited.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        if let Err(refused) = check_head(&request) {
            return BoundedFuture::Refused {
                response: Some(refused.into_response()),
            };
        }
        let called = std::panic::catch_unwind(AssertUnwindSafe(|| {
            if carries_no_body(request.method()) {
                self.inner.call(request)
            } else {
                self.limited.call(request)
            }
        }));
        match called {
            Ok(inner) => BoundedFuture::Running {
                inner,
                deadline: None,
                timeout: self.timeout,
            },
            Err(_) => BoundedFuture::Refused {
                response: Some(panicked()),
            },
        }
    }
}

/// Methods whose requests have no body to read, so no limit to pass down.
fn carries_no_body(method: &Method) -> bool {
    matches!(
        *method,
        Method::GET | Method::HEAD | Method::DELETE | Method::OPTIONS
    )
}

pin_project_lite::pin_project! {
    #[project = BoundedProjection]
    pub enum BoundedFuture<F> {
        Refused { response: Option<Response> },
        Running {
            #[pin]
            inner: F,
            // Armed when the answer is first not ready: `timeout` from then.
            #[pin]
            deadline: Option<Sleep>,
            timeout: Duration,
        },
    }
}

impl<F, E> Future for BoundedFuture<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            BoundedProjection::Refused { response } => {
                Poll::Ready(Ok(response.take().expect("polled after completion")))
            }
            BoundedProjection::Running {
                inner,
                mut deadline,
                timeout,
            } => match std::panic::catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
                Ok(Poll::Ready(answered)) => Poll::Ready(answered),
                Ok(Poll::Pending) => {
                    if deadline.is_none() {
                        deadline.set(Some(tokio::time::sleep(*timeout)));
                    }
                    let sleep = deadline.as_pin_mut().expect("armed above");
                    match sleep.poll(cx) {
                        Poll::Ready(()) => {
                            Poll::Ready(Ok(ApiError::Timeout(timeout.as_secs()).into_response()))
                        }
                        Poll::Pending => Poll::Pending,
                    }
                }
                Err(_) => Poll::Ready(Ok(panicked())),
            },
        }
    }
}

fn panicked() -> Response {
    ApiError::Internal("a request handler panicked".into()).into_response()
}

fn check_head(request: &Request) -> Result<(), ApiError> {
    let target = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    if target > MAX_URI_BYTES {
        return Err(ApiError::UriTooLong);
    }
    let headers = request.headers();
    let bytes: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum();
    if headers.len() > MAX_HEADERS || bytes > MAX_HEADER_BYTES {
        return Err(ApiError::HeadersTooLarge);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::StatusCode;
    use std::convert::Infallible;
    use tower::{service_fn, ServiceExt};

    async fn answer<S>(inner: S, request: Request) -> Response
    where
        S: Service<Request, Response = Response, Error = Infallible> + Clone,
    {
        let bounded = Bounded::new(inner, Duration::from_millis(50), 16);
        bounded.oneshot(request).await.unwrap()
    }

    fn get(path: &str) -> Request {
        Request::get(path).body(Body::empty()).unwrap()
    }

    #[tokio::test]
    async fn a_panic_while_called_or_while_answering_is_a_500_and_a_slow_answer_times_out() {
        let panics_when_called = service_fn(
            |_: Request| -> std::future::Ready<Result<Response, Infallible>> { panic!("in call") },
        );
        let panics_when_polled = service_fn(|_: Request| async {
            if std::hint::black_box(true) {
                panic!("in poll");
            }
            Ok::<Response, Infallible>(Response::default())
        });
        let slow = service_fn(|_: Request| async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            Ok::<Response, Infallible>(Response::default())
        });
        let fine = service_fn(|_: Request| async { Ok::<_, Infallible>(Response::default()) });
        for status in [
            answer(panics_when_called, get("/")).await.status(),
            answer(panics_when_polled, get("/")).await.status(),
            answer(slow, get("/")).await.status(),
        ] {
            assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        }
        assert_eq!(answer(fine, get("/")).await.status(), StatusCode::OK);
    }

    #[tokio::test]
    async fn a_body_over_the_limit_is_refused_and_one_within_it_is_read() {
        let router = axum::Router::new().route(
            "/",
            axum::routing::post(|body: axum::body::Bytes| async move { body.len().to_string() }),
        );
        let post = |bytes: usize| {
            Request::post("/")
                .body(Body::from(vec![b'x'; bytes]))
                .unwrap()
        };
        let over = answer(router.clone(), post(17)).await;
        assert_eq!(over.status(), StatusCode::PAYLOAD_TOO_LARGE);
        let within = answer(router, post(16)).await;
        assert_eq!(within.status(), StatusCode::OK);
    }

    #[tokio::test]
    async fn an_over_long_target_is_refused_before_the_service_runs() {
        let fine = service_fn(|_: Request| async { Ok::<_, Infallible>(Response::default()) });
        let target = format!("/{}", "a".repeat(MAX_URI_BYTES));
        let refused = answer(fine, get(&target)).await;
        assert_eq!(refused.status(), StatusCode::URI_TOO_LONG);
    }
}
