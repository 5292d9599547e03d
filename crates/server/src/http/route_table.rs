//! Every route's path template, written once: `Routes` adds a route to axum's router and keeps
//! its template, so that the front layer, which runs outside axum's routing, can name the route
//! a request takes (for the metrics and the access log) with one lookup. No handlers here.

use axum::routing::MethodRouter;
use axum::Router;

use super::metrics::{HttpMetrics, RouteSlot};
use super::state::AppState;

/// A router under construction and the templates of its routes.
#[derive(Default)]
pub struct Routes {
    router: Router<AppState>,
    templates: Vec<&'static str>,
}

impl Routes {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `template` (axum's syntax: `/v1/verify/{fingerprint}`) answered by `methods`.
    pub fn route(mut self, template: &'static str, methods: MethodRouter<AppState>) -> Self {
        self.router = self.router.route(template, methods);
        self.templates.push(template);
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
        self.templates.push(template);
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
        for template in self.templates {
            let slot = metrics.route(Some(template));
            table
                .insert(template, slot)
                .expect("axum accepted the same template");
        }
        let unmatched = metrics.route(None);
        (self.router, RouteTable { table, unmatched })
    }
}

/// From a request path to its route's metrics slot (`unmatched` when no route has it).
pub struct RouteTable {
    table: matchit::Router<RouteSlot>,
    unmatched: RouteSlot,
}

impl RouteTable {
    pub fn slot(&self, path: &str) -> RouteSlot {
        self.table
            .at(path)
            .map_or(self.unmatched, |found| *found.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::get;

    #[test]
    fn a_path_is_named_by_its_template_and_unknown_paths_are_unmatched() {
        let metrics = HttpMetrics::default();
        let routes = Routes::new()
            .route("/health", get(|| async {}))
            .merge(Routes::new().route("/v1/verify/{fingerprint}", get(|| async {})));
        let (_, table) = routes.finish(&metrics);
        let name = |path| metrics.template(table.slot(path));
        assert_eq!(name("/health"), Some("/health"));
        assert_eq!(name("/v1/verify/0101"), Some("/v1/verify/{fingerprint}"));
        assert_eq!(name("/v1/verify"), Some("unmatched"));
        assert_eq!(name("/nowhere"), Some("unmatched"));
    }
}
