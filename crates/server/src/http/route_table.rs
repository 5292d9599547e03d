//! Every route's path template, written once: `Routes` adds a route to axum's router and keeps
//! its template, so that the front layer, which runs outside axum's routing, can name the route
//! a request takes (for the metrics and the access log) with one lookup, and pass on the GET
//! handler of a route added with `direct_get`, which `dispatch` calls without axum's routing.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use axum::extract::Request;
use axum::handler::Handler;
use axum::response::Response;
use axum::routing::{get, MethodRouter};
use axum::Router;

use super::metrics::{HttpMetrics, RouteSlot};
use super::state::AppState;

/// The answer of a handler as axum's async-fn handlers give it: boxed once.
pub type DirectAnswer = Pin<Box<dyn Future<Output = Response> + Send>>;

/// A GET handler callable without axum's router.
pub type DirectGet = Arc<dyn Fn(Request, AppState) -> DirectAnswer + Send + Sync>;

/// What a request path matched: its route's metrics slot, and the index of its direct GET
/// handler if the route has one.
#[derive(Clone, Copy, Debug)]
pub struct Matched {
    pub slot: RouteSlot,
    pub direct: Option<usize>,
}

/// A router under construction and the templates of its routes.
#[derive(Default)]
pub struct Routes {
    router: Router<AppState>,
    templates: Vec<(&'static str, Option<DirectGet>)>,
}

impl Routes {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `template` (axum's syntax: `/v1/verify/{fingerprint}`) answered by `methods`.
    pub fn route(mut self, template: &'static str, methods: MethodRouter<AppState>) -> Self {
        self.router = self.router.route(template, methods);
        self.templates.push((template, None));
        self
    }

    /// Adds `template` answered by `handler` for GET (and HEAD, through axum), whose GET
    /// requests `dispatch` gives the handler directly. Only for handlers whose extractors
    /// need nothing of axum's routing (no `Path`, no `MatchedPath`).
    pub fn direct_get<H, T>(mut self, template: &'static str, handler: H) -> Self
    where
        H: Handler<T, AppState, Future = DirectAnswer>,
        T: 'static,
    {
        self.router = self.router.route(template, get(handler.clone()));
        let direct: DirectGet =
            Arc::new(move |request, state| handler.clone().call(request, state));
        self.templates.push((template, Some(direct)));
        self
    }

    /// Adds `template` answered by a whole tower service (every method).
    pub fn route_service<S>(mut self, template: &'static str, service: S) -> Self
    where
        S: tower::Service<axum::extract::Request, Error = std::convert::Infallible>
            + Clone
            + Send
            + Sync
            + 'static,
        S::Response: axum::response::IntoResponse,
        S::Future: Send + 'static,
    {
        self.router = self.router.route_service(template, service);
        self.templates.push((template, None));
        self
    }

    /// Applies `map` to the router built so far (layers meant for these routes only).
    pub fn map_router(mut self, map: impl FnOnce(Router<AppState>) -> Router<AppState>) -> Self {
        self.router = map(self.router);
        self
    }

    pub fn merge(mut self, other: Routes) -> Self {
        self.router = self.router.merge(other.router);
        self.templates.extend(other.templates);
        self
    }

    /// The router, and the table naming each request's route in `metrics`.
    pub fn finish(self, metrics: &HttpMetrics) -> (Router<AppState>, RouteTable) {
        let mut table = matchit::Router::new();
        let mut directs = Vec::new();
        for (template, direct) in self.templates {
            let direct = direct.map(|handler| {
                directs.push(handler);
                directs.len() - 1
            });
            let matched = Matched {
                slot: metrics.route(Some(template)),
                direct,
            };
            table
                .insert(template, matched)
                .expect("axum accepted the same template");
        }
        let unmatched = Matched {
            slot: metrics.route(None),
            direct: None,
        };
        let table = RouteTable {
            table,
            unmatched,
            directs: directs.into(),
        };
        (self.router, table)
    }
}

/// From a request path to what it matched (`unmatched` when no route has it).
pub struct RouteTable {
    table: matchit::Router<Matched>,
    unmatched: Matched,
    directs: Arc<[DirectGet]>,
}

impl RouteTable {
    pub fn matched(&self, path: &str) -> Matched {
        self.table
            .at(path)
            .map_or(self.unmatched, |found| *found.value)
    }

    /// The direct GET handlers, indexed by `Matched::direct`.
    pub fn directs(&self) -> Arc<[DirectGet]> {
        Arc::clone(&self.directs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_named_by_its_template_and_only_direct_routes_carry_a_handler() {
        let metrics = HttpMetrics::default();
        let routes = Routes::new()
            .route("/health", get(|| async {}))
            .merge(Routes::new().direct_get("/v1/verify/{fingerprint}", || async {}));
        let (_, table) = routes.finish(&metrics);
        let name = |path| metrics.template(table.matched(path).slot);
        assert_eq!(name("/health"), Some("/health"));
        assert_eq!(name("/v1/verify/0101"), Some("/v1/verify/{fingerprint}"));
        assert_eq!(name("/v1/verify"), Some("unmatched"));
        assert_eq!(name("/nowhere"), Some("unmatched"));
        assert_eq!(table.matched("/health").direct, None);
        let direct = table.matched("/v1/verify/0101").direct;
        assert!(direct.is_some_and(|at| at < table.directs().len()));
        assert_eq!(table.matched("/nowhere").direct, None);
    }
}
