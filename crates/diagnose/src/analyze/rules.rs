//! The checks `cqlmodel diagnose` runs, with stable codes. Each has a page in
//! `docs/diagnose.md`.

use cqlmodel_diagnostics::Severity;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiagRule {
    pub code: &'static str,
    pub name: &'static str,
    pub summary: &'static str,
    /// The severity when the worst threshold is crossed.
    pub default_severity: Severity,
}

pub const LARGE_PARTITION: DiagRule = DiagRule {
    code: "DG001",
    name: "large-partition",
    summary: "measured partition sizes over the ~100 MB limit",
    default_severity: Severity::Error,
};
pub const WIDE_PARTITION: DiagRule = DiagRule {
    code: "DG002",
    name: "wide-partition",
    summary: "measured rows per partition over the ~100,000-row limit",
    default_severity: Severity::Error,
};
pub const PARTITION_SKEW: DiagRule = DiagRule {
    code: "DG003",
    name: "partition-skew",
    summary: "a few partitions far larger than the typical one",
    default_severity: Severity::Warning,
};
pub const NODE_IMBALANCE: DiagRule = DiagRule {
    code: "DG004",
    name: "node-imbalance",
    summary: "one node holds or serves far more of a table than the others",
    default_severity: Severity::Warning,
};
pub const TOMBSTONES_PER_READ: DiagRule = DiagRule {
    code: "DG005",
    name: "tombstones-per-read",
    summary: "reads scan tombstones past Cassandra's warn (1,000) or fail (100,000) threshold",
    default_severity: Severity::Error,
};
pub const SSTABLES_PER_READ: DiagRule = DiagRule {
    code: "DG006",
    name: "sstables-per-read",
    summary: "reads merge many SSTables",
    default_severity: Severity::Warning,
};
pub const READ_LATENCY: DiagRule = DiagRule {
    code: "DG007",
    name: "slow-local-reads",
    summary: "local read latency high enough to point at the data model",
    default_severity: Severity::Warning,
};
pub const HOT_TABLE: DiagRule = DiagRule {
    code: "DG008",
    name: "hot-table",
    summary: "one table takes most of the reads or writes",
    default_severity: Severity::Info,
};

pub const UNEVEN_OWNERSHIP: DiagRule = DiagRule {
    code: "DG009",
    name: "uneven-ownership",
    summary: "one node owns far more of the token ring than the others (nodetool status)",
    default_severity: Severity::Warning,
};

pub const RULES: [DiagRule; 9] = [
    LARGE_PARTITION,
    WIDE_PARTITION,
    PARTITION_SKEW,
    NODE_IMBALANCE,
    TOMBSTONES_PER_READ,
    SSTABLES_PER_READ,
    READ_LATENCY,
    HOT_TABLE,
    UNEVEN_OWNERSHIP,
];
