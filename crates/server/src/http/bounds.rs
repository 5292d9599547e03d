//! Bounds on one request, checked before routing: the length of the request target, the
//! number and size of headers, the time the whole request may take, and a handler's panic
//! answered as a 500. Each refusal is an `ApiError`; connection-level limits (header read,
//! idle, cap) live in `server`. A hand-written tower layer around the whole router: no boxing.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use tokio::time::Timeout;
use tower::Service;

use super::ApiError;

/// Longest request target (path and query) read, in bytes: 414 above it.
pub const MAX_URI_BYTES: usize = 8 * 1024;
/// Most request headers read: 431 above it. Below hyper's own limit (100, its default, whose
/// table lives on the stack; a larger limit costs two heap tables on every request, ~4 % of a
/// `/health`), so that 65–100 headers get our envelope; hyper answers an empty 431 beyond 100.
pub const MAX_HEADERS: usize = 64;
/// Largest sum of header name and value lengths read, in bytes: 431 above it.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;

/// Refuses over-long targets and oversized headers, then runs the request under `timeout`,
/// answering a panic of the service below as a 500.
#[derive(Clone)]
pub struct Bounded<S> {
    inner: S,
    timeout: Duration,
}

impl<S> Bounded<S> {
    pub fn new(inner: S, timeout: Duration) -> Self {
        Self { inner, timeout }
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
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        if let Err(refused) = check_head(&request) {
            return BoundedFuture::Refused {
                response: Some(refused.into_response()),
            };
        }
        let timeout = self.timeout;
        match std::panic::catch_unwind(AssertUnwindSafe(|| self.inner.call(request))) {
            Ok(inner) => BoundedFuture::Running {
                inner: tokio::time::timeout(timeout, inner),
                timeout,
            },
            Err(_) => BoundedFuture::Refused {
                response: Some(panicked()),
            },
        }
    }
}

pin_project_lite::pin_project! {
    #[project = BoundedProjection]
    pub enum BoundedFuture<F> {
        Refused { response: Option<Response> },
        Running {
            #[pin]
            inner: Timeout<F>,
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
            BoundedProjection::Running { inner, timeout } => {
                match std::panic::catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
                    Ok(Poll::Pending) => Poll::Pending,
                    Ok(Poll::Ready(Ok(answered))) => Poll::Ready(answered),
                    Ok(Poll::Ready(Err(_elapsed))) => {
                        Poll::Ready(Ok(ApiError::Timeout(timeout.as_secs()).into_response()))
                    }
                    Err(_) => Poll::Ready(Ok(panicked())),
                }
            }
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
        S: Service<Request, Response = Response, Error = Infallible>,
    {
        let bounded = Bounded::new(inner, Duration::from_millis(50));
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
    async fn an_over_long_target_is_refused_before_the_service_runs() {
        let fine = service_fn(|_: Request| async { Ok::<_, Infallible>(Response::default()) });
        let target = format!("/{}", "a".repeat(MAX_URI_BYTES));
        let refused = answer(fine, get(&target)).await;
        assert_eq!(refused.status(), StatusCode::URI_TOO_LONG);
    }
}
