//! The numbers a finding is about, carried beside its message: the measured
//! value, the limit it was compared with, the node and the source it was read
//! from. `--format json` gives them as numbers (`evidence`), so a consumer never
//! parses a message; text and SARIF show them as one `measured:` note each.

use cqlmodel_diagnostics::Diagnostic;
use cqlmodel_stats::units::{format_bytes, format_count};
use serde_json::{Value, json};

/// The unit of an [`Evidence`] value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Bytes,
    Rows,
    /// A count per read: tombstones, SSTables.
    Count,
    Milliseconds,
    Microseconds,
    /// A ratio of two measures (largest ÷ typical, node ÷ mean of nodes).
    Ratio,
    /// A share of a whole, 0 to 1.
    Share,
}

impl Unit {
    pub fn name(self) -> &'static str {
        match self {
            Unit::Bytes => "bytes",
            Unit::Rows => "rows",
            Unit::Count => "count",
            Unit::Milliseconds => "ms",
            Unit::Microseconds => "us",
            Unit::Ratio => "ratio",
            Unit::Share => "share",
        }
    }

    fn show(self, v: f64) -> String {
        match self {
            Unit::Bytes => format_bytes(v),
            Unit::Rows => format!("{} rows", format_count(v)),
            Unit::Count => format_count(v),
            Unit::Milliseconds => format!("{v:.1} ms"),
            Unit::Microseconds => format!("{:.1} ms", v / 1000.0),
            Unit::Ratio => format!("{v:.1}×"),
            Unit::Share => format!("{:.0}%", v * 100.0),
        }
    }
}

/// One measured figure of a finding.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    /// What was measured: `partition_bytes`, `partition_rows`, `partition_skew`,
    /// `tombstones_per_read`, `sstables_per_read`, `read_latency`,
    /// `node_imbalance`, `read_share`, `write_share`.
    pub measure: &'static str,
    /// Which figure of it: `p99`, `max`, `mean`, `max/p50`, `max/mean`, `sum`.
    pub statistic: &'static str,
    pub value: f64,
    pub unit: Unit,
    /// The limit the value was compared with (the finding's threshold).
    pub limit: Option<f64>,
    /// The node it was read on; `None` for a figure over every node.
    pub node: Option<String>,
    /// The output or system table it came from.
    pub source: String,
}

impl Evidence {
    pub fn new(measure: &'static str, statistic: &'static str, value: f64, unit: Unit) -> Self {
        Evidence {
            measure,
            statistic,
            value,
            unit,
            limit: None,
            node: None,
            source: String::new(),
        }
    }

    pub fn limit(mut self, limit: f64) -> Self {
        self.limit = Some(limit);
        self
    }

    pub fn on(mut self, node: &str) -> Self {
        self.node = Some(node.to_string());
        self
    }

    pub fn from(mut self, source: impl Into<String>) -> Self {
        self.source = source.into();
        self
    }

    /// `measured: partition_bytes p99 = 120 MB on 10.0.0.1 (tablehistograms); limit 100 MB`.
    pub fn text(&self) -> String {
        let mut s = format!(
            "measured: {} {} = {}",
            self.measure,
            self.statistic,
            self.unit.show(self.value)
        );
        if let Some(node) = &self.node {
            s.push_str(&format!(" on {node}"));
        }
        if !self.source.is_empty() {
            s.push_str(&format!(" ({})", self.source));
        }
        if let Some(limit) = self.limit {
            s.push_str(&format!("; limit {}", self.unit.show(limit)));
        }
        s
    }

    /// The figure as JSON numbers (a value that is not finite is null).
    pub fn json(&self) -> Value {
        let finite = |v: f64| v.is_finite().then_some(v);
        json!({
            "measure": self.measure,
            "statistic": self.statistic,
            "value": finite(self.value),
            "unit": self.unit.name(),
            "limit": self.limit.and_then(finite),
            "node": self.node,
            "source": self.source,
        })
    }
}

/// A finding and the figures it is about.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub diagnostic: Diagnostic,
    pub evidence: Vec<Evidence>,
}

impl Finding {
    pub fn with(mut self, evidence: Evidence) -> Self {
        self.evidence.push(evidence);
        self
    }
}

impl From<Diagnostic> for Finding {
    fn from(diagnostic: Diagnostic) -> Self {
        Finding {
            diagnostic,
            evidence: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_reads_as_text_and_as_numbers() {
        let e = Evidence::new("partition_bytes", "p99", 120e6, Unit::Bytes)
            .limit(100e6)
            .on("10.0.0.1")
            .from("tablehistograms");
        assert_eq!(
            e.text(),
            "measured: partition_bytes p99 = 120 MB on 10.0.0.1 (tablehistograms); limit 100 MB"
        );
        let j = e.json();
        assert_eq!(j["value"], 120e6);
        assert_eq!(j["limit"], 100e6);
        assert_eq!(j["unit"], "bytes");
        assert_eq!(j["node"], "10.0.0.1");
        let nan = Evidence::new("read_latency", "p99", f64::NAN, Unit::Microseconds);
        assert!(nan.json()["value"].is_null());
    }
}
