//! What the server counts for operators on the request path: requests per route template and
//! status, latency histograms per route, requests in flight, refusals and Neo4j errors. Plain
//! atomics in tables that only grow (a route is added once, on first sight), so recording a
//! request takes no lock and allocates nothing. Exposition lives in `metrics_export`.

use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use super::failure::{Failure, Refusal};

/// Upper bounds of the latency buckets, in seconds (a last bucket takes the rest).
pub const LATENCY_BUCKETS_SECS: [f64; 16] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0,
];
/// Route templates tracked; later ones are counted under `OVERFLOW_ROUTE`.
const MAX_ROUTES: usize = 64;
/// The route of requests that matched no route (404s, 405s of unknown paths).
pub const UNMATCHED_ROUTE: &str = "unmatched";
const OVERFLOW_ROUTE: &str = "other";
/// Statuses 100–599 are counted one by one.
const STATUSES: usize = 500;

/// A latency histogram of fixed buckets: one atomic add per bucket hit, one for the sum.
pub struct LatencyHistogram {
    /// Not cumulative; the last entry counts what is above every bound.
    buckets: [AtomicU64; LATENCY_BUCKETS_SECS.len() + 1],
    sum_nanos: AtomicU64,
}

impl LatencyHistogram {
    fn new() -> Self {
        Self {
            buckets: std::array::from_fn(|_| AtomicU64::new(0)),
            sum_nanos: AtomicU64::new(0),
        }
    }

    pub fn observe(&self, latency: Duration) {
        let secs = latency.as_secs_f64();
        let bucket = LATENCY_BUCKETS_SECS
            .iter()
            .position(|bound| secs <= *bound)
            .unwrap_or(LATENCY_BUCKETS_SECS.len());
        self.buckets[bucket].fetch_add(1, Ordering::Relaxed);
        let nanos = u64::try_from(latency.as_nanos()).unwrap_or(u64::MAX);
        self.sum_nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// (sum in seconds, count, (upper bound, count in that bucket alone) pairs ending with
    /// +Inf): the encoder makes them cumulative.
    pub fn buckets(&self) -> (f64, u64, Vec<(f64, u64)>) {
        let buckets: Vec<(f64, u64)> = self
            .buckets
            .iter()
            .enumerate()
            .map(|(i, bucket)| {
                let bound = LATENCY_BUCKETS_SECS
                    .get(i)
                    .copied()
                    .unwrap_or(f64::INFINITY);
                (bound, bucket.load(Ordering::Relaxed))
            })
            .collect();
        let count = buckets.iter().map(|(_, n)| n).sum();
        let sum = self.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9;
        (sum, count, buckets)
    }
}

/// The counts of one route template.
pub struct RouteStats {
    pub template: Box<str>,
    by_status: Box<[AtomicU64]>,
    pub latency: LatencyHistogram,
}

impl RouteStats {
    fn new(template: &str) -> Self {
        Self {
            template: template.into(),
            by_status: (0..STATUSES).map(|_| AtomicU64::new(0)).collect(),
            latency: LatencyHistogram::new(),
        }
    }

    fn record(&self, status: u16, latency: Duration) {
        let slot = usize::from(status.clamp(100, 599) - 100);
        self.by_status[slot].fetch_add(1, Ordering::Relaxed);
        self.latency.observe(latency);
    }

    /// (status, requests) for every status seen.
    pub fn statuses(&self) -> impl Iterator<Item = (u16, u64)> + '_ {
        self.by_status.iter().enumerate().filter_map(|(i, n)| {
            let n = n.load(Ordering::Relaxed);
            let status = u16::try_from(i + 100).unwrap_or(599);
            (n > 0).then_some((status, n))
        })
    }
}

/// Where a Neo4j failure was met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Neo4jFailure {
    /// A request answered 500 because Neo4j failed or timed out.
    Request,
    /// The background check for a newer completed sync failed.
    SyncWatch,
}

impl Neo4jFailure {
    pub const ALL: [Neo4jFailure; 2] = [Neo4jFailure::Request, Neo4jFailure::SyncWatch];

    pub fn label(self) -> &'static str {
        match self {
            Neo4jFailure::Request => "request",
            Neo4jFailure::SyncWatch => "sync_watch",
        }
    }
}

/// Every request-path counter of one server.
pub struct HttpMetrics {
    routes: Box<[OnceLock<RouteStats>]>,
    route_count: AtomicUsize,
    adding_route: Mutex<()>,
    in_flight: AtomicI64,
    refusals: [AtomicU64; Refusal::ALL.len()],
    neo4j_errors: [AtomicU64; Neo4jFailure::ALL.len()],
}

/// A route's place in the table, found when a request arrives and used when it is answered.
#[derive(Clone, Copy, Debug)]
pub struct RouteSlot(usize);

impl Default for HttpMetrics {
    fn default() -> Self {
        let metrics = Self {
            routes: (0..MAX_ROUTES).map(|_| OnceLock::new()).collect(),
            route_count: AtomicUsize::new(0),
            adding_route: Mutex::new(()),
            in_flight: AtomicI64::new(0),
            refusals: std::array::from_fn(|_| AtomicU64::new(0)),
            neo4j_errors: std::array::from_fn(|_| AtomicU64::new(0)),
        };
        metrics.slot_of(UNMATCHED_ROUTE);
        metrics
    }
}

impl HttpMetrics {
    /// The slot of a matched route template (`/v1/verify/{fingerprint}`, never a raw path), or
    /// of `unmatched`.
    pub fn route(&self, template: Option<&str>) -> RouteSlot {
        self.slot_of(template.unwrap_or(UNMATCHED_ROUTE))
    }

    fn slot_of(&self, template: &str) -> RouteSlot {
        if let Some(slot) = self.find(template, self.route_count.load(Ordering::Acquire)) {
            return slot;
        }
        let _adding = self.adding_route.lock().unwrap_or_else(|e| e.into_inner());
        let count = self.route_count.load(Ordering::Acquire);
        if let Some(slot) = self.find(template, count) {
            return slot;
        }
        let template = if count + 1 < MAX_ROUTES {
            template
        } else if let Some(slot) = self.find(OVERFLOW_ROUTE, count) {
            return slot;
        } else {
            OVERFLOW_ROUTE
        };
        let _ = self.routes[count].set(RouteStats::new(template));
        self.route_count.store(count + 1, Ordering::Release);
        RouteSlot(count)
    }

    fn find(&self, template: &str, count: usize) -> Option<RouteSlot> {
        self.routes[..count]
            .iter()
            .position(|route| route.get().is_some_and(|r| &*r.template == template))
            .map(RouteSlot)
    }

    /// The template a slot counts.
    pub fn template(&self, route: RouteSlot) -> Option<&str> {
        self.routes[route.0].get().map(|r| &*r.template)
    }

    /// Counts an answered request.
    pub fn record(
        &self,
        route: RouteSlot,
        status: u16,
        latency: Duration,
        failure: Option<Failure>,
    ) {
        if let Some(stats) = self.routes[route.0].get() {
            stats.record(status, latency);
        }
        match failure {
            Some(Failure::Refused(refusal)) => self.count_refusal(refusal),
            Some(Failure::StoreUnavailable) => self.count_neo4j_error(Neo4jFailure::Request),
            Some(Failure::Other) | None => {}
        }
    }

    pub fn count_refusal(&self, refusal: Refusal) {
        self.refusals[refusal as usize].fetch_add(1, Ordering::Relaxed);
    }

    pub fn count_neo4j_error(&self, failure: Neo4jFailure) {
        self.neo4j_errors[failure as usize].fetch_add(1, Ordering::Relaxed);
    }

    pub fn started(&self) {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
    }

    pub fn finished(&self) {
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
    }

    pub fn in_flight(&self) -> i64 {
        self.in_flight.load(Ordering::Relaxed)
    }

    /// Every route seen so far.
    pub fn routes(&self) -> impl Iterator<Item = &RouteStats> {
        let count = self.route_count.load(Ordering::Acquire);
        self.routes[..count].iter().filter_map(OnceLock::get)
    }

    pub fn refusals(&self) -> impl Iterator<Item = (Refusal, u64)> + '_ {
        Refusal::ALL
            .into_iter()
            .map(|r| (r, self.refusals[r as usize].load(Ordering::Relaxed)))
    }

    pub fn neo4j_errors(&self) -> impl Iterator<Item = (Neo4jFailure, u64)> + '_ {
        Neo4jFailure::ALL
            .into_iter()
            .map(|f| (f, self.neo4j_errors[f as usize].load(Ordering::Relaxed)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_template_gets_one_slot_and_unknown_requests_share_unmatched() {
        let metrics = HttpMetrics::default();
        let verify = metrics.route(Some("/v1/verify/{fingerprint}"));
        metrics.record(verify, 200, Duration::from_micros(300), None);
        let again = metrics.route(Some("/v1/verify/{fingerprint}"));
        metrics.record(again, 200, Duration::from_millis(2), None);
        let unknown = metrics.route(None);
        metrics.record(unknown, 404, Duration::from_micros(50), None);
        let routes: Vec<(&str, Vec<(u16, u64)>)> = metrics
            .routes()
            .map(|r| (&*r.template, r.statuses().collect()))
            .collect();
        assert_eq!(
            routes,
            vec![
                (UNMATCHED_ROUTE, vec![(404, 1)]),
                ("/v1/verify/{fingerprint}", vec![(200, 2)]),
            ]
        );
    }

    #[test]
    fn the_histogram_counts_each_bucket_and_sums_seconds() {
        let histogram = LatencyHistogram::new();
        histogram.observe(Duration::from_micros(300));
        histogram.observe(Duration::from_millis(2));
        histogram.observe(Duration::from_secs(60));
        let (sum, count, buckets) = histogram.buckets();
        assert_eq!(count, 3);
        assert!((sum - 60.0023).abs() < 1e-9, "{sum}");
        assert_eq!(buckets.last(), Some(&(f64::INFINITY, 1)));
        let at = |bound: f64| buckets.iter().find(|(b, _)| *b == bound).unwrap().1;
        assert_eq!(
            (at(0.00025), at(0.0005), at(0.001), at(0.0025)),
            (0, 1, 0, 1)
        );
    }

    #[test]
    fn routes_beyond_the_table_are_counted_as_other() {
        let metrics = HttpMetrics::default();
        for i in 0..(MAX_ROUTES + 5) {
            let slot = metrics.route(Some(&format!("/r{i}")));
            metrics.record(slot, 200, Duration::from_micros(1), None);
        }
        let templates: Vec<&str> = metrics.routes().map(|r| &*r.template).collect();
        assert_eq!(templates.len(), MAX_ROUTES);
        assert_eq!(templates.last(), Some(&OVERFLOW_ROUTE));
        let other = metrics.routes().last().unwrap();
        assert_eq!(other.statuses().collect::<Vec<_>>(), vec![(200, 7)]);
    }

    #[test]
    fn refusals_and_neo4j_errors_are_counted_by_kind() {
        let metrics = HttpMetrics::default();
        let route = metrics.route(Some("/v1/search"));
        let refused = Some(Failure::Refused(Refusal::CreditExhausted));
        metrics.record(route, 429, Duration::ZERO, refused);
        metrics.record(route, 500, Duration::ZERO, Some(Failure::StoreUnavailable));
        metrics.count_neo4j_error(Neo4jFailure::SyncWatch);
        let refusals: Vec<(Refusal, u64)> = metrics.refusals().filter(|(_, n)| *n > 0).collect();
        assert_eq!(refusals, vec![(Refusal::CreditExhausted, 1)]);
        let errors: Vec<u64> = metrics.neo4j_errors().map(|(_, n)| n).collect();
        assert_eq!(errors, vec![1, 1]);
    }
}
