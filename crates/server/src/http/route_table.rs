//! Every route's path template, written once: `Routes` adds a route to axum's router and keeps
//! its template, so that the front layer, which runs outside axum's routing, can name the route
//! a request takes (for the metrics and the access log) with one lookup (a plain comparison for
//! the direct routes), and pass on the GET handler of a route added with `direct_get`, which
//! `dispatch` calls without axum's routing.

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
        let mut quick = Vec::new();
        let templates: Vec<&'static str> = self.templates.iter().map(|(t, _)| *t).collect();
        for (template, direct) in self.templates {
            let direct = direct.map(|handler| {
                directs.push(handler);
                directs.len() - 1
            });
            let matched = Matched {
                slot: metrics.route(Some(template)),
                direct,
            };
            if let Some(shape) = direct.and_then(|_| Shape::of(template, &templates)) {
                quick.push((shape, matched));
            }
            table
                .insert(template, matched)
                .expect("axum accepted the same template");
        }
        let unmatched = Matched {
            slot: metrics.route(None),
            direct: None,
        };
        let table = RouteTable {
            quick,
            table,
            unmatched,
            directs: directs.into(),
        };
        (self.router, table)
    }
}

/// A direct route's template in a form matched by a comparison, before the general table:
/// the hot routes skip the tree walk.
#[derive(Debug, PartialEq, Eq)]
enum Shape {
    /// A template without parameters: the paths equal to it.
    Exact(&'static str),
    /// `prefix{param}`: the paths that are the prefix and one more non-empty segment, except
    /// the static templates of that depth beside it (which the table prefers), as the table
    /// would match them.
    LastSegment {
        prefix: &'static str,
        except: Vec<&'static str>,
    },
}

impl Shape {
    /// The shape of `template` among all the router's `templates`, if it has one.
    fn of(template: &'static str, templates: &[&'static str]) -> Option<Self> {
        let Some(open) = template.find('{') else {
            return Some(Self::Exact(template));
        };
        let (prefix, param) = template.split_at(open);
        let one_last_param =
            param.ends_with('}') && !param.contains('/') && !param.starts_with("{*");
        if !one_last_param || !prefix.ends_with('/') {
            return None;
        }
        let beside: Vec<&'static str> = templates
            .iter()
            .copied()
            .filter(|other| *other != template)
            .filter(|other| {
                other
                    .strip_prefix(prefix)
                    .is_some_and(|rest| !rest.contains('/'))
            })
            .collect();
        let all_static = beside.iter().all(|other| !other.contains('{'));
        all_static.then_some(Self::LastSegment {
            prefix,
            except: beside,
        })
    }

    fn fits(&self, path: &str) -> bool {
        match self {
            Self::Exact(template) => path == *template,
            Self::LastSegment { prefix, except } => {
                path.strip_prefix(prefix)
                    .is_some_and(|last| !last.is_empty() && !last.contains('/'))
                    && !except.contains(&path)
            }
        }
    }
}

/// From a request path to what it matched (`unmatched` when no route has it).
pub struct RouteTable {
    quick: Vec<(Shape, Matched)>,
    table: matchit::Router<Matched>,
    unmatched: Matched,
    directs: Arc<[DirectGet]>,
}

impl RouteTable {
    pub fn matched(&self, path: &str) -> Matched {
        if let Some((_, matched)) = self.quick.iter().find(|(shape, _)| shape.fits(path)) {
            return *matched;
        }
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

    #[test]
    fn a_direct_route_matched_by_comparison_matches_as_the_table_does() {
        let templates = ["/health", "/v1/verify/{fingerprint}", "/v1/verify/quote"];
        let shape = |template| Shape::of(template, &templates);
        assert_eq!(shape("/health"), Some(Shape::Exact("/health")));
        assert_eq!(
            shape("/v1/verify/{fingerprint}"),
            Some(Shape::LastSegment {
                prefix: "/v1/verify/",
                except: vec!["/v1/verify/quote"]
            })
        );
        let beside = [
            "/v1/labels/{set_id}",
            "/v1/labels/{id}/history",
            "/v1/labels/a/{b}",
        ];
        assert!(Shape::of("/v1/labels/{set_id}", &beside).is_some());
        let beside = ["/v1/labels/{set_id}", "/v1/labels/{id}"];
        assert_eq!(Shape::of("/v1/labels/{set_id}", &beside), None);
        assert_eq!(Shape::of("/files/{*rest}", &["/files/{*rest}"]), None);
        let metrics = HttpMetrics::default();
        let routes = Routes::new()
            .direct_get("/health", || async {})
            .direct_get("/v1/verify/{fingerprint}", || async {})
            .route("/v1/verify", get(|| async {}))
            .route("/v1/verify/quote", get(|| async {}))
            .route("/v1/verify/{fingerprint}/history", get(|| async {}))
            .route("/v1/labels/{set_id}", get(|| async {}));
        let (_, table) = routes.finish(&metrics);
        assert_eq!(table.quick.len(), 2);
        for path in [
            "/health",
            "/health/",
            "/healthz",
            "/v1/verify/0101",
            "/v1/verify/",
            "/v1/verify",
            "/v1/verify/01/10",
            "/v1/verify/%30",
            "/v1/verify/quote",
            "/v1/verify/quotes",
            "/v1/verify/01/history",
            "/v1/labels/x",
            "/",
            "",
        ] {
            let general = table
                .table
                .at(path)
                .map_or(table.unmatched, |found| *found.value);
            let name = |matched: Matched| metrics.template(matched.slot);
            assert_eq!(name(table.matched(path)), name(general), "{path}");
            assert_eq!(table.matched(path).direct, general.direct, "{path}");
        }
    }
}
