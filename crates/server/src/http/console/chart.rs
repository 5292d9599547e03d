//! The usage chart: requests per day, stacked by endpoint, laid out as SVG shapes for the
//! usage template (drawn on the server, no script), at a wide and a narrow width so its text
//! stays legible on a phone. Pure layout; reads nothing.

use serde::Serialize;

use drugcite_accounts::scopes::Scope;
use drugcite_accounts::UsageRow;

/// The wide chart's width (desktop); its text is drawn at about its nominal size.
pub const WIDE: f64 = 720.0;
/// The narrow chart's width (phones: scaled to about 300 px, text stays above 10 px).
pub const NARROW: f64 = 360.0;
const HEIGHT: f64 = 240.0;
const LEFT: f64 = 44.0;
/// Room right of the last bar for its day label.
const RIGHT: f64 = 16.0;
const BOTTOM: f64 = 22.0;
const TOP: f64 = 10.0;

#[derive(Serialize)]
pub struct Chart {
    /// `wide` or `narrow`.
    pub name: &'static str,
    pub width: f64,
    pub height: f64,
    pub left: f64,
    pub bars: Vec<Bar>,
    pub ticks: Vec<Tick>,
    pub days: Vec<DayLabel>,
    pub endpoints: Vec<&'static str>,
    /// The chart in words, for screen readers.
    pub summary: String,
}

#[derive(Serialize)]
pub struct Bar {
    pub endpoint: &'static str,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub title: String,
}

#[derive(Serialize)]
pub struct Tick {
    pub y: f64,
    pub label: u64,
}

#[derive(Serialize)]
pub struct DayLabel {
    pub x: f64,
    pub label: String,
}

/// Lays out `rows` over the `days` days ending `today` (days since 1970-01-01) `width` units
/// wide; `label` names a day on the axis (every second day, every fourth when narrow).
pub fn layout(
    rows: &[UsageRow],
    today: i64,
    days: i64,
    width: f64,
    label: impl Fn(i64) -> String,
) -> Chart {
    let narrow = width < WIDE;
    let label_every = if narrow { 4 } else { 2 };
    let first = today - days + 1;
    let per_day = |day: i64, endpoint: &str| -> i64 {
        rows.iter()
            .filter(|r| r.day == day && r.endpoint == endpoint)
            .map(|r| r.requests)
            .sum()
    };
    let totals: Vec<i64> = (first..=today)
        .map(|d| Scope::ALL.iter().map(|s| per_day(d, s.as_str())).sum())
        .collect();
    let top = nice_ceiling(totals.iter().copied().max().unwrap_or(0));
    let plot_height = HEIGHT - BOTTOM - TOP;
    let slot = (width - LEFT - RIGHT) / days as f64;
    let scale = |n: i64| n as f64 / top as f64 * plot_height;
    let mut bars = Vec::new();
    let mut day_labels = Vec::new();
    for (i, day) in (first..=today).enumerate() {
        let x = LEFT + slot * i as f64 + slot * 0.15;
        let mut base = HEIGHT - BOTTOM;
        for scope in Scope::ALL {
            let requests = per_day(day, scope.as_str());
            if requests > 0 {
                let height = scale(requests);
                base -= height;
                bars.push(Bar {
                    endpoint: scope.as_str(),
                    x: round(x),
                    y: round(base),
                    width: round(slot * 0.7),
                    height: round(height),
                    title: format!("{}: {requests} {} requests", label(day), scope.as_str()),
                });
            }
        }
        if i % label_every == (days as usize - 1) % label_every {
            day_labels.push(DayLabel {
                x: round(x + slot * 0.35),
                label: label(day),
            });
        }
    }
    let ticks = (0..=4u32)
        .map(|i| Tick {
            y: round(HEIGHT - BOTTOM - plot_height * f64::from(i) / 4.0),
            label: (top as u64) * u64::from(i) / 4,
        })
        .collect();
    let total: i64 = totals.iter().sum();
    Chart {
        name: if narrow { "narrow" } else { "wide" },
        width,
        height: HEIGHT,
        left: LEFT,
        bars,
        ticks,
        days: day_labels,
        endpoints: Scope::ALL.iter().map(|s| s.as_str()).collect(),
        summary: format!(
            "{total} requests in the last {days} days, {} today",
            totals.last().copied().unwrap_or(0)
        ),
    }
}

/// The smallest of 4, 8, 20, 40, 80, 200, … not below `n` (ticks at quarters stay whole).
fn nice_ceiling(n: i64) -> i64 {
    let mut step = 1;
    loop {
        for multiple in [4, 8, 20] {
            if multiple * step >= n {
                return multiple * step;
            }
        }
        step *= 10;
    }
}

fn round(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use drugcite_accounts::Credit;

    fn row(day: i64, endpoint: &str, requests: i64) -> UsageRow {
        UsageRow {
            day,
            key_id: "k".into(),
            key_name: "k".into(),
            endpoint: endpoint.into(),
            requests,
            spent: Credit::ZERO,
        }
    }

    #[test]
    fn bars_stack_per_day_and_scale_to_the_busiest_day() {
        let rows = [
            row(100, "search", 6),
            row(100, "verify", 2),
            row(99, "search", 3),
            row(80, "search", 50),
        ];
        let chart = layout(&rows, 100, 14, WIDE, |d| d.to_string());
        assert_eq!(chart.bars.len(), 3, "day 80 is outside the window");
        let plot = HEIGHT - BOTTOM - TOP;
        let today: Vec<&Bar> = chart
            .bars
            .iter()
            .filter(|b| b.title.starts_with("100"))
            .collect();
        assert_eq!(
            today[0].height + today[1].height,
            round(plot),
            "8 requests fill a scale of 8"
        );
        assert_eq!(
            today[1].y + today[1].height,
            today[0].y,
            "verify sits on search"
        );
        assert_eq!(chart.ticks.last().unwrap().label, 8);
        assert!(chart.summary.starts_with("11 requests"));
    }

    #[test]
    fn scales_are_round_numbers() {
        assert_eq!(
            [0, 1, 5, 9, 21, 41, 999].map(nice_ceiling),
            [4, 4, 8, 20, 40, 80, 2000]
        );
    }
}
