//! `GET /metrics` in the Prometheus/OpenMetrics text format (prometheus-client's encoder): the
//! request-path counters of `HttpMetrics`, and what is read at scrape time from the engine
//! (cache hits, index generation and size, graph size). Served on its own listener
//! (`--metrics-addr`), never on the API port. No label ever holds a key, email or raw path.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric, NoLabelSet};
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::MetricType;
use prometheus_client::registry::Registry;

use super::metrics::HttpMetrics;
use super::verify_bodies::VerifiedBodies;
use drugcite_engine::cache_stats::CacheStats;
use drugcite_engine::engine::Engine;

const CONTENT_TYPE_OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// What one scrape reads.
#[derive(Clone)]
pub struct Scrape {
    registry: Arc<Registry>,
}

impl Scrape {
    pub fn new(
        engine: Arc<Engine>,
        metrics: Arc<HttpMetrics>,
        verified_bodies: Arc<VerifiedBodies>,
    ) -> Self {
        let mut registry = Registry::default();
        registry.register_collector(Box::new(DrugciteCollector {
            engine,
            metrics,
            verified_bodies,
        }));
        Self {
            registry: Arc::new(registry),
        }
    }

    /// The exposition text.
    pub fn render(&self) -> String {
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry)
            .expect("writing into a String does not fail");
        text
    }
}

/// The router of the metrics listener: `/metrics` and nothing else.
pub fn router(scrape: Scrape) -> Router {
    Router::new()
        .route("/metrics", get(metrics))
        .with_state(scrape)
}

async fn metrics(State(scrape): State<Scrape>) -> impl IntoResponse {
    ([(CONTENT_TYPE, CONTENT_TYPE_OPENMETRICS)], scrape.render())
}

struct DrugciteCollector {
    engine: Arc<Engine>,
    metrics: Arc<HttpMetrics>,
    verified_bodies: Arc<VerifiedBodies>,
}

impl std::fmt::Debug for DrugciteCollector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DrugciteCollector")
    }
}

type Encoded = Result<(), std::fmt::Error>;

impl Collector for DrugciteCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Encoded {
        self.encode_requests(&mut encoder)?;
        self.encode_refusals(&mut encoder)?;
        self.encode_caches(&mut encoder)?;
        self.encode_index(&mut encoder)
    }
}

impl DrugciteCollector {
    fn encode_requests(&self, encoder: &mut DescriptorEncoder) -> Encoded {
        let mut family = encoder.encode_descriptor(
            "drugcite_http_requests",
            "HTTP requests answered, by route template and status",
            None,
            MetricType::Counter,
        )?;
        for route in self.metrics.routes() {
            for (status, count) in route.statuses() {
                let status = status.to_string();
                let labels = [("route", &*route.template), ("status", status.as_str())];
                ConstCounter::new(count).encode(family.encode_family(&labels)?)?;
            }
        }
        let mut family = encoder.encode_descriptor(
            "drugcite_http_request_duration_seconds",
            "Time from a request's arrival to its answer, by route template",
            None,
            MetricType::Histogram,
        )?;
        for route in self.metrics.routes() {
            let (sum, count, buckets) = route.latency.buckets();
            let labels = [("route", &*route.template)];
            family
                .encode_family(&labels)?
                .encode_histogram::<NoLabelSet>(sum, count, &buckets, None)?;
        }
        gauge(
            encoder,
            "drugcite_http_requests_in_flight",
            "Requests being answered now",
            self.metrics.in_flight(),
        )
    }

    fn encode_refusals(&self, encoder: &mut DescriptorEncoder) -> Encoded {
        let mut family = encoder.encode_descriptor(
            "drugcite_refusals",
            "Requests refused before any work: rate limited (per key, per address, failed authentications), credit exhausted, unauthorized, forbidden",
            None,
            MetricType::Counter,
        )?;
        for (refusal, count) in self.metrics.refusals() {
            let labels = [("reason", refusal.label())];
            ConstCounter::new(count).encode(family.encode_family(&labels)?)?;
        }
        let mut family = encoder.encode_descriptor(
            "drugcite_neo4j_errors",
            "Neo4j failures: requests answered 500 because Neo4j failed or timed out, and failed checks for a newer sync",
            None,
            MetricType::Counter,
        )?;
        for (failure, count) in self.metrics.neo4j_errors() {
            let labels = [("source", failure.label())];
            ConstCounter::new(count).encode(family.encode_family(&labels)?)?;
        }
        Ok(())
    }

    /// Verify answers come from a kept body or else from the verifier (its own cache or a
    /// lookup): each request is one hit or one miss.
    fn verify_cache_stats(&self) -> CacheStats {
        let verifier = self.engine.verifier.cache_stats();
        CacheStats {
            hits: verifier.hits + self.verified_bodies.hits(),
            ..verifier
        }
    }

    fn encode_caches(&self, encoder: &mut DescriptorEncoder) -> Encoded {
        let caches = [
            ("verify", self.verify_cache_stats()),
            (
                "query_vector",
                self.engine.searcher.query_vector_cache_stats(),
            ),
        ];
        let mut family = encoder.encode_descriptor(
            "drugcite_cache_lookups",
            "Cache lookups by cache and result (hit or miss)",
            None,
            MetricType::Counter,
        )?;
        for (cache, stats) in &caches {
            for (result, count) in [("hit", stats.hits), ("miss", stats.misses)] {
                let labels = [("cache", *cache), ("result", result)];
                ConstCounter::new(count).encode(family.encode_family(&labels)?)?;
            }
        }
        cache_gauge(
            encoder,
            "drugcite_cache_hit_ratio",
            "Hits per lookup since the server started",
            &caches,
            CacheStats::hit_ratio,
        )?;
        cache_gauge(
            encoder,
            "drugcite_cache_entries",
            "Entries the cache holds now",
            &caches,
            |s| s.entries as f64,
        )
    }

    fn encode_index(&self, encoder: &mut DescriptorEncoder) -> Encoded {
        let live = self.engine.index.current();
        let snapshot = &live.snapshot;
        let generation = snapshot
            .generation()
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut family = encoder.encode_descriptor(
            "drugcite_index_generation",
            "The index generation being served (always 1, named by its label)",
            None,
            MetricType::Gauge,
        )?;
        let labels = [("generation", generation.as_str())];
        ConstGauge::new(1i64).encode(family.encode_family(&labels)?)?;
        gauge(
            encoder,
            "drugcite_index_generation_epoch",
            "How many generations this server has opened before the one it serves",
            count_i64(live.epoch),
        )?;
        gauge(
            encoder,
            "drugcite_index_segments",
            "Label segments (fingerprints) of the served generation",
            count_i64(snapshot.segment_count()),
        )?;
        let current = snapshot.current_labels().count();
        gauge(
            encoder,
            "drugcite_index_labels",
            "Labels of the served generation in their current version",
            count_i64(current as u64),
        )?;
        gauge(
            encoder,
            "drugcite_index_label_versions",
            "Label versions of the served generation, current, superseded and withdrawn",
            count_i64(snapshot.labels().len() as u64),
        )?;
        let (nodes, relationships) = self.engine.graph.size();
        gauge(
            encoder,
            "drugcite_graph_nodes",
            "Nodes of the knowledge graph being served",
            count_i64(nodes as u64),
        )?;
        gauge(
            encoder,
            "drugcite_graph_relationships",
            "Relationships of the knowledge graph being served",
            count_i64(relationships as u64),
        )
    }
}

fn count_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn gauge(encoder: &mut DescriptorEncoder, name: &str, help: &str, value: i64) -> Encoded {
    let metric = ConstGauge::new(value);
    metric.encode(encoder.encode_descriptor(name, help, None, metric.metric_type())?)
}

fn cache_gauge(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    caches: &[(&str, CacheStats)],
    value: impl Fn(&CacheStats) -> f64,
) -> Encoded {
    let mut family = encoder.encode_descriptor(name, help, None, MetricType::Gauge)?;
    for (cache, stats) in caches {
        let labels = [("cache", *cache)];
        ConstGauge::new(value(stats)).encode(family.encode_family(&labels)?)?;
    }
    Ok(())
}
