//! From what the parsers read to findings: per table, partition size and rows,
//! skew, node imbalance, tombstones, SSTables and latency per read, and the hot
//! tables; with the key change when the schema is given.

mod context;
mod evidence;
mod fix;
mod nodes;
mod ownership;
mod partitions;
mod reads;
pub mod rules;
mod sketch;
mod view;

use cqlmodel_diagnostics::Diagnostic;
use cqlmodel_schema::Schema;
use cqlmodel_stats::Thresholds;

use crate::model::{NodeStats, NodeStatus, TableHistogram};

pub use evidence::{Evidence, Finding, Unit};
pub use fix::{Change, Measured, propose};
pub use reads::{
    READ_MEAN_MS_WARN, READ_P99_US_WARN, SSTABLES_WARN, TOMBSTONE_FAIL, TOMBSTONE_WARN,
};
pub use sketch::validate;
pub use view::{TableView, is_system_keyspace, table_views};

/// What `diagnose` reads.
#[derive(Debug, Clone, Copy)]
pub struct DiagnoseInput<'a> {
    pub stats: &'a [NodeStats],
    pub histograms: &'a [TableHistogram],
    /// `nodetool status` rows (empty when not given).
    pub status: &'a [NodeStatus],
    pub schema: Option<&'a Schema>,
    pub thresholds: Thresholds,
    /// Seconds of data the tables hold, to size time buckets (`--data-age`).
    pub data_age: Option<u64>,
}

/// Every finding, grouped by table in name order, then the hot tables.
pub fn diagnose(input: &DiagnoseInput<'_>) -> Vec<Diagnostic> {
    diagnose_findings(input)
        .into_iter()
        .map(|f| f.diagnostic)
        .collect()
}

/// [`diagnose`], each finding with the figures it is about (value, limit, node).
pub fn diagnose_findings(input: &DiagnoseInput<'_>) -> Vec<Finding> {
    let cx = context::Context {
        schema: input.schema,
        thresholds: input.thresholds,
        data_age: input.data_age,
        empty: Schema::default(),
        ownership: ownership::ownership(input.status),
    };
    let views = table_views(input.stats, input.histograms);
    let mut out: Vec<Finding> = Vec::new();
    for view in &views {
        out.extend(partitions::check(view, &cx));
        out.extend(nodes::imbalance(view, &cx));
        out.extend(reads::check(view, &cx));
    }
    out.extend(nodes::hot_tables(&views, &cx));
    out.extend(
        ownership::check(input.status)
            .into_iter()
            .map(Finding::from),
    );
    for f in &mut out {
        f.diagnostic.notes.retain(|n| !n.is_empty());
    }
    out
}
