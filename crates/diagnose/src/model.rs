//! What the parsers read out of nodetool's outputs: per node, per table, the
//! numbers cqlmodel reasons about. Every number is optional: lines appear
//! conditionally, versions differ, and NaN means "not measured".

use std::ops::Range;

/// Where a parsed item came from: the input file (an index chosen by the caller),
/// the byte range of its first line, and that line's number (1-based).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Origin {
    pub file: usize,
    pub span: Range<usize>,
    pub line: usize,
}

/// The output format a segment of input was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    /// `nodetool tablestats` (or `cfstats`) in its default text form.
    TablestatsText,
    /// `nodetool tablestats -F json`.
    TablestatsJson,
    /// `nodetool tablestats -F yaml`.
    TablestatsYaml,
    /// `nodetool tablehistograms` (or `cfhistograms`).
    Histograms,
    /// A live cluster's system tables (`--cluster`), read by crates/cluster.
    Cluster,
}

impl InputFormat {
    pub fn name(self) -> &'static str {
        match self {
            InputFormat::TablestatsText => "tablestats text",
            InputFormat::TablestatsJson => "tablestats JSON",
            InputFormat::TablestatsYaml => "tablestats YAML",
            InputFormat::Histograms => "tablehistograms",
            InputFormat::Cluster => "system tables (live cluster)",
        }
    }
}

/// One table's line in `nodetool tablestats` on one node.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TableStats {
    pub keyspace: String,
    pub table: String,
    /// A secondary index's table (`Table (index): t.idx`).
    pub is_index: bool,
    pub sstable_count: Option<u64>,
    /// Bytes on disk of live SSTables.
    pub space_used_live: Option<u64>,
    pub partitions_estimate: Option<u64>,
    pub local_read_count: Option<u64>,
    pub local_read_latency_ms: Option<f64>,
    pub local_write_count: Option<u64>,
    pub local_write_latency_ms: Option<f64>,
    pub partition_min_bytes: Option<u64>,
    pub partition_max_bytes: Option<u64>,
    pub partition_mean_bytes: Option<u64>,
    pub avg_live_cells_per_slice: Option<f64>,
    pub max_live_cells_per_slice: Option<f64>,
    pub avg_tombstones_per_slice: Option<f64>,
    pub max_tombstones_per_slice: Option<f64>,
    /// The output's tombstone maximum was dropped: it equalled the live-cells
    /// maximum, which is what ScyllaDB's native nodetool prints under that JSON/YAML key.
    pub max_tombstones_doubtful: bool,
    pub droppable_tombstone_ratio: Option<f64>,
    /// `Top partitions by size` (4.1+): key as printed, bytes.
    pub top_partitions_by_size: Vec<(String, u64)>,
    /// `Top partitions by tombstone count` (4.1+): key as printed, count.
    pub top_partitions_by_tombstones: Vec<(String, u64)>,
    pub origin: Origin,
}

impl TableStats {
    pub fn qualified_name(&self) -> String {
        format!("{}.{}", self.keyspace, self.table)
    }
}

/// `nodetool tablestats` of one node.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeStats {
    /// The node's name: the node header's, else the file's.
    pub node: String,
    pub format: InputFormat,
    pub tables: Vec<TableStats>,
    pub origin: Origin,
}

/// A row of `nodetool tablehistograms`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Percentile {
    P50,
    P75,
    P95,
    P98,
    P99,
    Min,
    Max,
}

impl Percentile {
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "50%" => Percentile::P50,
            "75%" => Percentile::P75,
            "95%" => Percentile::P95,
            "98%" => Percentile::P98,
            "99%" => Percentile::P99,
            "Min" | "min" => Percentile::Min,
            "Max" | "max" => Percentile::Max,
            _ => return None,
        })
    }

    pub fn label(self) -> &'static str {
        match self {
            Percentile::P50 => "p50",
            Percentile::P75 => "p75",
            Percentile::P95 => "p95",
            Percentile::P98 => "p98",
            Percentile::P99 => "p99",
            Percentile::Min => "min",
            Percentile::Max => "max",
        }
    }
}

/// One percentile row; a value nodetool printed as NaN is `None`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct HistogramRow {
    pub read_latency_us: Option<f64>,
    pub write_latency_us: Option<f64>,
    pub sstables: Option<f64>,
    pub partition_bytes: Option<f64>,
    pub cell_count: Option<f64>,
}

/// `nodetool tablehistograms ks t` of one node.
#[derive(Debug, Clone, PartialEq)]
pub struct TableHistogram {
    pub node: String,
    pub keyspace: String,
    pub table: String,
    pub rows: Vec<(Percentile, HistogramRow)>,
    pub origin: Origin,
}

impl TableHistogram {
    pub fn qualified_name(&self) -> String {
        format!("{}.{}", self.keyspace, self.table)
    }

    pub fn row(&self, p: Percentile) -> Option<&HistogramRow> {
        self.rows.iter().find(|(q, _)| *q == p).map(|(_, r)| r)
    }
}

/// A node's row of `nodetool status`.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeStatus {
    pub datacenter: String,
    /// Status and state letters: `UN`, `DN`, `UJ`, ...
    pub state: String,
    pub address: String,
    pub load_bytes: Option<u64>,
    /// Tokens (vnodes) of the node; absent with one token per node.
    pub tokens: Option<u64>,
    /// Share of the ring the node owns (0..1); `None` when printed as `?`.
    pub owns: Option<f64>,
    /// `Owns (effective)`: ownership with the keyspace's replication, not raw token ranges.
    pub effective: bool,
    pub rack: String,
    pub origin: Origin,
}
