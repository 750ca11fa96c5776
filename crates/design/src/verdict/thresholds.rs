//! The numbers the verdict compares against. docs/verdict.md states each one
//! with its reason; a test checks that the page names every threshold here
//! with its value, so the two cannot drift apart.

/// One threshold: its name in the output, its value and whether crossing it
/// changes the verdict (or only shows as evidence).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Threshold {
    pub name: &'static str,
    pub value: f64,
    /// How the value reads in the output (`50%`, `10 partitions`).
    pub shown: &'static str,
    /// Crossing it decides an entity's verdict.
    pub decides: bool,
}

/// A read of 2 to this many partitions is served from "a few" (the review's
/// `scatter_gather_partitions` default).
pub const FEW_PARTITIONS: u64 = 10;

/// The sizing horizon of a growing table without retention when the
/// statistics give none (the design sets its own, `plan::DEFAULT_HORIZON`).
pub const GROWTH_HORIZON_SECONDS: u64 = 365 * 86_400;

/// More than this share of an entity's reads off the OLTP path: it stays relational.
pub const OFF_PATH_STAY: Threshold = Threshold {
    name: "off-path-share",
    value: 0.5,
    shown: "above 50% of the entity's reads",
    decides: true,
};

/// A full scan of a table of at most this many rows is served by a cache of
/// the whole table, not by a companion store or PostgreSQL.
pub const CACHEABLE_ROWS: Threshold = Threshold {
    name: "cacheable-table",
    value: 10_000.0,
    shown: "10,000 rows",
    decides: true,
};

/// Any read off the OLTP path names a companion store.
pub const OFF_PATH_COMPANION: Threshold = Threshold {
    name: "off-path-any",
    value: 0.0,
    shown: "any off-path read",
    decides: true,
};

/// A transaction writing more than this many rows and reading or checking
/// what it writes keeps its entities relational.
pub const TRANSACTION_ROWS: Threshold = Threshold {
    name: "multi-row-transaction",
    value: 1.0,
    shown: "more than 1 row written under isolation",
    decides: true,
};

/// Mean lightweight transactions per second on one partition.
pub const LWT_PER_PARTITION: Threshold = Threshold {
    name: "lwt-per-partition",
    value: 100.0,
    shown: "100/s per partition",
    decides: true,
};

/// Share of the write rate that runs Paxos.
pub const LWT_SHARE: Threshold = Threshold {
    name: "lwt-share",
    value: 0.1,
    shown: "10% of the write rate",
    decides: false,
};

/// Share of the read rate spread over more than [`FEW_PARTITIONS`] partitions.
pub const SCATTER_SHARE: Threshold = Threshold {
    name: "scatter-share",
    value: 0.1,
    shown: "10% of the read rate",
    decides: false,
};

/// Rows written per logical write (fan-out and denormalized copies).
pub const WRITE_AMPLIFICATION: Threshold = Threshold {
    name: "write-amplification",
    value: 10.0,
    shown: "10 rows per write",
    decides: false,
};

/// Share of an entity's writes that update or delete.
pub const UPDATE_DELETE_SHARE: Threshold = Threshold {
    name: "update-delete-share",
    value: 0.5,
    shown: "50% of the entity's writes",
    decides: false,
};

/// Share of an entity's writes that delete (tombstones).
pub const DELETE_SHARE: Threshold = Threshold {
    name: "delete-share",
    value: 0.2,
    shown: "20% of the entity's writes",
    decides: false,
};

/// Strength: this share of the read rate from one partition.
pub const KEY_LOOKUP_SHARE: Threshold = Threshold {
    name: "key-lookup-share",
    value: 0.9,
    shown: "90% of the read rate",
    decides: false,
};

/// Strength: this share of the write rate are inserts.
pub const APPEND_SHARE: Threshold = Threshold {
    name: "append-share",
    value: 0.8,
    shown: "80% of the write rate",
    decides: false,
};

/// Strength: writes at least as frequent as reads.
pub const WRITE_HEAVY_RATIO: Threshold = Threshold {
    name: "write-read-ratio",
    value: 1.0,
    shown: "1 write per read",
    decides: false,
};

/// Strength: rows added per second across the workload.
pub const GROWTH_RATE: Threshold = Threshold {
    name: "growth",
    value: 1_000.0,
    shown: "1,000 rows/s",
    decides: false,
};

/// Strength: rows held across the workload.
pub const SCALE_ROWS: Threshold = Threshold {
    name: "volume",
    value: 1e9,
    shown: "1 billion rows",
    decides: false,
};

/// Below this many rows held (and [`GROWTH_RATE`] rows/s), one PostgreSQL
/// node holds the data: Cassandra's gain is availability, not scale.
pub const SMALL_ROWS: Threshold = Threshold {
    name: "small",
    value: 1e7,
    shown: "under 10 million rows and 1,000 rows/s",
    decides: false,
};

/// Every threshold, in the order docs/verdict.md lists them.
pub const ALL: &[Threshold] = &[
    OFF_PATH_STAY,
    OFF_PATH_COMPANION,
    CACHEABLE_ROWS,
    TRANSACTION_ROWS,
    LWT_PER_PARTITION,
    LWT_SHARE,
    SCATTER_SHARE,
    WRITE_AMPLIFICATION,
    UPDATE_DELETE_SHARE,
    DELETE_SHARE,
    KEY_LOOKUP_SHARE,
    APPEND_SHARE,
    WRITE_HEAVY_RATIO,
    GROWTH_RATE,
    SCALE_ROWS,
    SMALL_ROWS,
];
