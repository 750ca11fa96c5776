//! What each node knows about its own tables. Every table read here is
//! node-local (estimates, metrics, top partitions), so each query is sent to one
//! node alone and the answers are kept per node. A table a version lacks (no
//! `system_views` before 4.0, no `top_partitions` before 4.1, no
//! `large_partitions` on Cassandra) becomes a note, never an error.

use std::collections::BTreeMap;
use std::sync::Arc;

use scylla::client::session::Session;
use scylla::cluster::Node;

use crate::query::rows;
use crate::schema::is_system;
use crate::{Distribution, TableEstimate};

pub const TABLE_ESTIMATES: &str = "SELECT keyspace_name, table_name, range_type, partitions_count, mean_partition_size FROM system.table_estimates";
pub const SIZE_ESTIMATES: &str = "SELECT keyspace_name, table_name, partitions_count, mean_partition_size FROM system.size_estimates";
pub const MAX_PARTITION_SIZE: &str =
    "SELECT keyspace_name, table_name, mebibytes FROM system_views.max_partition_size";
pub const DISK_USAGE: &str =
    "SELECT keyspace_name, table_name, mebibytes FROM system_views.disk_usage";
pub const TOMBSTONES_PER_READ: &str = "SELECT keyspace_name, table_name, count, p50th, p99th, max FROM system_views.tombstones_per_read";
pub const ROWS_PER_READ: &str =
    "SELECT keyspace_name, table_name, count, p50th, p99th, max FROM system_views.rows_per_read";
pub const READ_LATENCY: &str = "SELECT keyspace_name, table_name, count, p50th_ms, p99th_ms, max_ms FROM system_views.local_read_latency";
pub const WRITE_LATENCY: &str = "SELECT keyspace_name, table_name, count, p50th_ms, p99th_ms, max_ms FROM system_views.local_write_latency";
pub const TOP_PARTITIONS: &str =
    "SELECT keyspace_name, table_name, top_type, top FROM system.top_partitions";
pub const LARGE_PARTITIONS: &str =
    "SELECT keyspace_name, table_name, partition_size, partition_key FROM system.large_partitions";
pub const LARGE_ROWS: &str =
    "SELECT keyspace_name, table_name, row_size, partition_key FROM system.large_rows";
pub const LARGE_CELLS: &str =
    "SELECT keyspace_name, table_name, cell_size, partition_key FROM system.large_cells";

/// The per-node statements, in the order they are sent.
pub const PER_NODE: [&str; 12] = [
    TABLE_ESTIMATES,
    SIZE_ESTIMATES,
    MAX_PARTITION_SIZE,
    DISK_USAGE,
    TOMBSTONES_PER_READ,
    ROWS_PER_READ,
    READ_LATENCY,
    WRITE_LATENCY,
    TOP_PARTITIONS,
    LARGE_PARTITIONS,
    LARGE_ROWS,
    LARGE_CELLS,
];

const MIB: u64 = 1024 * 1024;

type Key = (String, String);
type DistRow = (
    String,
    String,
    Option<i64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
);
type SizeRow = (String, String, Option<i64>);
type LargeRow = (String, String, Option<i64>, Option<String>);

/// Reads one node's tables; `notes` says what the node could not answer.
pub async fn read_node(
    session: &Session,
    node: &Arc<Node>,
    notes: &mut Vec<String>,
) -> Vec<TableEstimate> {
    let address = node.address.ip().to_string();
    let mut acc: BTreeMap<Key, TableEstimate> = BTreeMap::new();
    let mut note = |what: &str, why: String| notes.push(format!("{address}: {what}: {why}"));

    estimates(session, node, &mut acc, &mut note).await;
    match rows::<SizeRow>(session, MAX_PARTITION_SIZE, Some(node)).await {
        Ok(r) => {
            for (ks, t, mib) in r {
                entry(&mut acc, ks, t).max_partition_bytes = mib.map(|m| m.max(0) as u64 * MIB);
            }
        }
        Err(e) => note(
            "no system_views.max_partition_size (before Cassandra 4.0, or ScyllaDB)",
            e.to_string(),
        ),
    }
    if let Ok(r) = rows::<SizeRow>(session, DISK_USAGE, Some(node)).await {
        for (ks, t, mib) in r {
            entry(&mut acc, ks, t).disk_bytes = mib.map(|m| m.max(0) as u64 * MIB);
        }
    }
    for (query, slot) in [
        (TOMBSTONES_PER_READ, Slot::Tombstones),
        (ROWS_PER_READ, Slot::Rows),
        (READ_LATENCY, Slot::Reads),
        (WRITE_LATENCY, Slot::Writes),
    ] {
        match rows::<DistRow>(session, query, Some(node)).await {
            Ok(r) => {
                for (ks, t, count, p50, p99, max) in r {
                    let d = Distribution {
                        count: count.map(|c| c.max(0) as u64),
                        p50,
                        p99,
                        max,
                    };
                    slot.set(entry(&mut acc, ks, t), d);
                }
            }
            Err(e) => note(slot.table(), e.to_string()),
        }
    }
    top_partitions(session, node, &mut acc, &mut note).await;
    scylla_large(session, node, &mut acc, &mut note).await;
    acc.into_values()
        .filter(|t| !is_system(&t.keyspace))
        .collect()
}

#[derive(Clone, Copy)]
enum Slot {
    Tombstones,
    Rows,
    Reads,
    Writes,
}

impl Slot {
    fn set(self, t: &mut TableEstimate, d: Distribution) {
        match self {
            Slot::Tombstones => t.tombstones_per_read = Some(d),
            Slot::Rows => t.rows_per_read = Some(d),
            Slot::Reads => t.read_latency_ms = Some(d),
            Slot::Writes => t.write_latency_ms = Some(d),
        }
    }

    fn table(self) -> &'static str {
        match self {
            Slot::Tombstones => "no system_views.tombstones_per_read",
            Slot::Rows => "no system_views.rows_per_read",
            Slot::Reads => "no system_views.local_read_latency",
            Slot::Writes => "no system_views.local_write_latency",
        }
    }
}

fn entry(acc: &mut BTreeMap<Key, TableEstimate>, ks: String, t: String) -> &mut TableEstimate {
    acc.entry((ks.clone(), t.clone()))
        .or_insert_with(|| TableEstimate::new(&ks, &t))
}

/// `system.table_estimates` (4.0+, the node's primary ranges), else the older
/// `system.size_estimates`. The mean is weighted by each range's partitions.
async fn estimates(
    session: &Session,
    node: &Arc<Node>,
    acc: &mut BTreeMap<Key, TableEstimate>,
    note: &mut impl FnMut(&str, String),
) {
    type EstRow = (String, String, String, Option<i64>, Option<i64>);
    let ranges: Vec<(String, String, Option<i64>, Option<i64>)> =
        match rows::<EstRow>(session, TABLE_ESTIMATES, Some(node)).await {
            Ok(r) => r
                .into_iter()
                .filter(|r| r.2 == "primary")
                .map(|(ks, t, _, c, m)| (ks, t, c, m))
                .collect(),
            Err(_) => match rows(session, SIZE_ESTIMATES, Some(node)).await {
                Ok(r) => {
                    note(
                        "no system.table_estimates (before 4.0)",
                        "read system.size_estimates".to_string(),
                    );
                    r
                }
                Err(e) => {
                    note("no size estimates", e.to_string());
                    return;
                }
            },
        };
    for (ks, t, count, mean) in summed(&ranges) {
        let e = entry(acc, ks, t);
        e.partitions = Some(count);
        e.mean_partition_bytes = Some(mean);
    }
}

/// Sums a node's ranges per table: (keyspace, table, partitions, weighted mean bytes).
pub(crate) fn summed(
    ranges: &[(String, String, Option<i64>, Option<i64>)],
) -> Vec<(String, String, u64, u64)> {
    let mut acc: BTreeMap<(&str, &str), (u64, f64)> = BTreeMap::new();
    for (ks, t, count, mean) in ranges {
        let count = count.unwrap_or(0).max(0) as u64;
        let mean = mean.unwrap_or(0).max(0) as f64;
        let e = acc.entry((ks, t)).or_insert((0, 0.0));
        e.0 = e.0.saturating_add(count);
        e.1 += mean * count as f64;
    }
    acc.into_iter()
        .map(|((ks, t), (count, bytes))| {
            let mean = if count > 0 {
                (bytes / count as f64).round() as u64
            } else {
                0
            };
            (ks.to_string(), t.to_string(), count, mean)
        })
        .collect()
}

/// Cassandra 4.1+: the partitions the last repair's validation found largest
/// (`SIZES`) and with most tombstones (`TOMBSTONES`). Empty until a repair ran.
async fn top_partitions(
    session: &Session,
    node: &Arc<Node>,
    acc: &mut BTreeMap<Key, TableEstimate>,
    note: &mut impl FnMut(&str, String),
) {
    type TopRow = (String, String, String, Option<Vec<(String, i64)>>);
    match rows::<TopRow>(session, TOP_PARTITIONS, Some(node)).await {
        Ok(r) => {
            for (ks, t, kind, top) in r {
                let top: Vec<(String, u64)> = top
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(k, v)| (k, v.max(0) as u64))
                    .collect();
                let e = entry(acc, ks, t);
                match kind.as_str() {
                    "SIZES" => e.largest_partitions = top,
                    "TOMBSTONES" => e.most_tombstones = top,
                    _ => {}
                }
            }
        }
        Err(e) => note(
            "no system.top_partitions (before Cassandra 4.1)",
            e.to_string(),
        ),
    }
}

/// ScyllaDB records partitions, rows and cells over its thresholds.
async fn scylla_large(
    session: &Session,
    node: &Arc<Node>,
    acc: &mut BTreeMap<Key, TableEstimate>,
    note: &mut impl FnMut(&str, String),
) {
    match rows::<LargeRow>(session, LARGE_PARTITIONS, Some(node)).await {
        Ok(r) => {
            for (ks, t, size, key) in r {
                let (Some(size), Some(key)) = (size, key) else {
                    continue;
                };
                let e = entry(acc, ks, t);
                let bytes = size.max(0) as u64;
                e.max_partition_bytes = Some(e.max_partition_bytes.unwrap_or(0).max(bytes));
                e.largest_partitions.push((key, bytes));
            }
        }
        Err(_) => {
            note(
                "no system.large_partitions, large_rows, large_cells",
                "a Cassandra node (these are ScyllaDB's)".to_string(),
            );
            return;
        }
    }
    for (query, cells) in [(LARGE_ROWS, false), (LARGE_CELLS, true)] {
        if let Ok(r) = rows::<LargeRow>(session, query, Some(node)).await {
            for (ks, t, size, key) in r {
                let (Some(size), Some(key)) = (size, key) else {
                    continue;
                };
                let e = entry(acc, ks, t);
                let list = if cells {
                    &mut e.large_cells
                } else {
                    &mut e.large_rows
                };
                list.push((key, size.max(0) as u64));
            }
        }
    }
    for e in acc.values_mut() {
        e.largest_partitions.sort_by_key(|p| std::cmp::Reverse(p.1));
    }
}
