//! The measured figures as numbers, for `--format json` and the HTML chart:
//! what each node's tablestats and tablehistograms say about each table, and
//! the limits the checks compare them with. The findings state the same
//! figures as text; these fields carry them as numbers beside it, so a
//! consumer never parses a message.

use serde_json::{Map, Value, json};

use crate::analyze::{
    READ_MEAN_MS_WARN, READ_P99_US_WARN, SSTABLES_WARN, TOMBSTONE_FAIL, TOMBSTONE_WARN,
    is_system_keyspace,
};
use crate::model::{HistogramRow, NodeStats, Percentile, TableHistogram, TableStats};
use cqlmodel_stats::Thresholds;

/// The percentiles of a histogram in the order nodetool prints them.
const PERCENTILES: [Percentile; 7] = [
    Percentile::P50,
    Percentile::P75,
    Percentile::P95,
    Percentile::P98,
    Percentile::P99,
    Percentile::Min,
    Percentile::Max,
];

/// The limits the checks use, by name: partition size and rows (the stats
/// thresholds), tombstones per read (Cassandra's warn and failure
/// thresholds), SSTables per read, read latency.
pub fn limits_json(thresholds: &Thresholds) -> Value {
    json!({
        "partition_bytes": thresholds.partition_bytes,
        "partition_rows": thresholds.partition_rows,
        "tombstones_per_read_warn": TOMBSTONE_WARN,
        "tombstones_per_read_fail": TOMBSTONE_FAIL,
        "sstables_per_read_p99": SSTABLES_WARN,
        "read_latency_mean_ms": READ_MEAN_MS_WARN,
        "read_latency_p99_us": READ_P99_US_WARN,
    })
}

/// One entry per user table and node that was read, in table then node
/// order: `table`, `node`, `tablestats` (or null) and `histogram` (or null).
/// System keyspaces are left out, as the diagnosis leaves them out.
pub fn measured_json(stats: &[NodeStats], histograms: &[TableHistogram]) -> Value {
    let mut rows: std::collections::BTreeMap<(String, String), Map<String, Value>> =
        std::collections::BTreeMap::new();
    for node in stats {
        for t in node
            .tables
            .iter()
            .filter(|t| !is_system_keyspace(&t.keyspace))
        {
            let key = (format!("{}.{}", t.keyspace, t.table), node.node.clone());
            rows.entry(key)
                .or_default()
                .insert("tablestats".into(), tablestats_json(t));
        }
    }
    for h in histograms
        .iter()
        .filter(|h| !is_system_keyspace(&h.keyspace))
    {
        rows.entry((h.qualified_name(), h.node.clone()))
            .or_default()
            .insert("histogram".into(), histogram_json(h));
    }
    Value::Array(
        rows.into_iter()
            .map(|((table, node), mut fields)| {
                fields.insert("table".into(), json!(table));
                fields.insert("node".into(), json!(node));
                fields.entry("tablestats").or_insert(Value::Null);
                fields.entry("histogram").or_insert(Value::Null);
                Value::Object(fields)
            })
            .collect(),
    )
}

/// A node's tablestats of one table; a figure the output did not have is null.
fn tablestats_json(t: &TableStats) -> Value {
    json!({
        "sstables": t.sstable_count,
        "space_used_live_bytes": t.space_used_live,
        "partitions_estimate": t.partitions_estimate,
        "partition_bytes": {
            "min": t.partition_min_bytes,
            "mean": t.partition_mean_bytes,
            "max": t.partition_max_bytes,
        },
        "live_cells_per_read": {
            "mean": finite(t.avg_live_cells_per_slice),
            "max": finite(t.max_live_cells_per_slice),
        },
        "tombstones_per_read": {
            "mean": finite(t.avg_tombstones_per_slice),
            "max": finite(t.max_tombstones_per_slice),
            "max_doubtful": t.max_tombstones_doubtful,
        },
        "droppable_tombstone_ratio": finite(t.droppable_tombstone_ratio),
        "read_count": t.local_read_count,
        "read_latency_mean_ms": finite(t.local_read_latency_ms),
        "write_count": t.local_write_count,
        "write_latency_mean_ms": finite(t.local_write_latency_ms),
    })
}

/// A node's tablehistograms of one table: each column by percentile
/// (`p50` … `p99`, `min`, `max`); a percentile nodetool printed as NaN is null.
fn histogram_json(h: &TableHistogram) -> Value {
    let column = |get: fn(&HistogramRow) -> Option<f64>| {
        let mut by = Map::new();
        for p in PERCENTILES {
            if let Some(row) = h.row(p) {
                by.insert(p.label().into(), finite(get(row)));
            }
        }
        Value::Object(by)
    };
    json!({
        "partition_bytes": column(|r| r.partition_bytes),
        "cell_count": column(|r| r.cell_count),
        "sstables_per_read": column(|r| r.sstables),
        "read_latency_us": column(|r| r.read_latency_us),
        "write_latency_us": column(|r| r.write_latency_us),
    })
}

/// A number JSON can hold (no NaN or infinity), else null.
fn finite(v: Option<f64>) -> Value {
    v.filter(|x| x.is_finite())
        .map_or(Value::Null, |x| json!(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_histogram_becomes_numbers_by_percentile() {
        let parsed = crate::parse_input(
            0,
            "n1",
            "iot/readings histograms\n\
             Percentile  Read Latency  Write Latency  SSTables  Partition Size  Cell Count\n\
             \x20                (micros)       (micros)                (bytes)\n\
             50%               20.50          10.00      1.00            1331          20\n\
             99%              943.13          51.01      3.00          152321        1597\n\
             Min                4.77           2.00      0.00              21           0\n\
             Max             1955.67         126.93      NaN          219342        2299\n",
        );
        // Four of seven rows: reported as truncated, and the rows read are kept.
        let measured = measured_json(&parsed.stats, &parsed.histograms);
        let entries = measured.as_array().expect("an array");
        assert_eq!(entries.len(), 1);
        let entry = &entries[0];
        assert_eq!(entry["table"], json!("iot.readings"));
        assert_eq!(entry["node"], json!("n1"));
        assert!(entry["tablestats"].is_null());
        let h = &entry["histogram"];
        assert_eq!(h["partition_bytes"]["p99"], json!(152321.0));
        assert_eq!(h["cell_count"]["max"], json!(2299.0));
        assert_eq!(h["sstables_per_read"]["p50"], json!(1.0));
        assert_eq!(h["sstables_per_read"]["max"], Value::Null, "NaN is null");
        assert_eq!(h["read_latency_us"]["p99"], json!(943.13));
        assert!(h["partition_bytes"].get("p75").is_none(), "not printed");
    }

    #[test]
    fn the_limits_are_the_checks_limits() {
        let limits = limits_json(&Thresholds::default());
        assert_eq!(limits["partition_bytes"], json!(100e6));
        assert_eq!(limits["tombstones_per_read_warn"], json!(1000.0));
        assert_eq!(limits["tombstones_per_read_fail"], json!(100000.0));
        assert_eq!(limits["sstables_per_read_p99"], json!(10.0));
    }
}
