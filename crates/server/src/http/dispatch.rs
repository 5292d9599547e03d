//! The innermost service: a GET whose route has a direct handler (the match `observe` left in
//! the request) calls that handler; every other request goes through axum's router. For the
//! hottest routes this skips axum's second path match, its parameter decoding and the
//! extensions it inserts. Holds no routes or handlers of its own: they come from `Routes`.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::extract::Request;
use axum::http::Method;
use axum::response::Response;
use axum::routing::future::RouteFuture;
use axum::Router;
use tower::Service;

use super::route_table::{DirectAnswer, DirectGet, Matched};
use super::state::AppState;

/// The router, and the handlers that GET requests of some routes are given directly.
#[derive(Clone)]
pub struct Dispatch {
    router: Router,
    state: AppState,
    directs: Arc<[DirectGet]>,
}

impl Dispatch {
    pub fn new(router: Router, state: AppState, directs: Arc<[DirectGet]>) -> Self {
        Self {
            router,
            state,
            directs,
        }
    }
}

impl Service<Request> for Dispatch {
    type Response = Response;
    type Error = Infallible;
    type Future = Dispatched;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Service::<Request>::poll_ready(&mut self.router, cx)
    }

    fn call(&mut self, request: Request) -> Dispatched {
        let direct = match *request.method() {
            Method::GET => request
                .extensions()
                .get::<Matched>()
                .and_then(|matched| self.directs.get(matched.direct?)),
            _ => None,
        };
        match direct {
            Some(handler) => Dispatched::Direct {
                answer: handler(request, self.state.clone()),
            },
            None => Dispatched::Routed {
                answer: self.router.call(request),
            },
        }
    }
}

pin_project_lite::pin_project! {
    #[project = DispatchedProjection]
    pub enum Dispatched {
        Direct { answer: DirectAnswer },
        Routed { #[pin] answer: RouteFuture<Infallible> },
    }
}

impl Future for Dispatched {
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            DispatchedProjection::Direct { answer } => answer.as_mut().poll(cx).map(Ok),
            DispatchedProjection::Routed { answer } => answer.poll(cx),
        }
    }
}
