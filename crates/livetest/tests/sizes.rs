//! Sizes: a data set shaped by `tests/data/sizes/stats.toml` (200,000 rows, 400 partitions of
//! 500 rows, the declared value sizes) is generated and loaded into the table of
//! `tests/data/sizes/schema.cql`, flushed and compacted into one sstable, and `nodetool tablehistograms` / `tablestats`
//! are compared with what `cqlmodel size` estimates for the same statistics: the ratio
//! node / cqlmodel for each percentile of partition size and cell count, and for the mean
//! partition size.
//!
//! nodetool is the command in `CQLMODEL_TEST_NODETOOL` (scripts/test-cassandra.sh sets it to
//! `scripts/cassandra.sh nodetool`); without it the test says so and stops. With
//! `CQLMODEL_SAVE_NODETOOL=DIR` the raw outputs are written to DIR (the fixtures under
//! tests/data/nodetool/cassandra-5.0/ were made this way).

use std::path::Path;
use std::process::Command;

use cqlmodel_livetest::{Node, apply_schema};
use scylla::statement::batch::{Batch, BatchType};
use scylla::value::CqlTimestamp;

const USERS: usize = 400;
const ROWS_PER_USER: usize = 500;
const ROWS_PER_BATCH: usize = 100;
const KINDS: [&str; 4] = ["purchase", "pageview", "checkout", "signupok"];
/// The node's partition-size histogram has buckets 20% apart; the cell-count buckets too.
/// Beyond the bucket, the estimate's per-cell overhead is Cassandra's documentation formula,
/// not the 5.0 sstable format (delta-encoded timestamps, vint lengths): the bound is a
/// factor of 2 either way, and the ratios are printed for calibration.
const TOLERANCE: f64 = 2.0;

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/sizes")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn nodetool(args: &[&str]) -> Option<String> {
    let command = std::env::var("CQLMODEL_TEST_NODETOOL").ok()?;
    let mut words = command.split_whitespace();
    let program = words.next()?;
    let output = Command::new(program)
        .args(words)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{command}: {e}"));
    assert!(
        output.status.success(),
        "nodetool {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// 8-byte kinds, 100-byte payloads, 12-byte user ids, as the stats file declares.
async fn load(node: &Node) {
    let insert = "INSERT INTO sizes.events_by_user (user_id, ts, kind, payload, amount) VALUES (?, ?, ?, ?, ?)";
    let prepared = node.session().prepare(insert).await.expect("prepare");
    let mut batch = Batch::new(BatchType::Unlogged);
    for _ in 0..ROWS_PER_BATCH {
        batch.append_statement(prepared.clone());
    }
    let start_ms: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z
    for user in 0..USERS {
        let user_id = format!("user-{user:07}");
        for chunk in 0..ROWS_PER_USER / ROWS_PER_BATCH {
            let values: Vec<(String, CqlTimestamp, &str, String, i32)> = (0..ROWS_PER_BATCH)
                .map(|i| {
                    let row = chunk * ROWS_PER_BATCH + i;
                    let payload = payload((user * ROWS_PER_USER + row) as u64);
                    (
                        user_id.clone(),
                        CqlTimestamp(start_ms + row as i64 * 1000),
                        KINDS[row % KINDS.len()],
                        payload,
                        (row * 7 % 1000) as i32,
                    )
                })
                .collect();
            node.session()
                .batch(&batch, values)
                .await
                .unwrap_or_else(|e| panic!("load {user_id}: {e}"));
        }
    }
}

/// 100 printable characters that do not repeat, so compression sees realistic data rather
/// than a pattern it shrinks to nothing.
fn payload(seed: u64) -> String {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..100)
        .map(|_| {
            // xorshift64
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from(b'!' + (state % 94) as u8)
        })
        .collect()
}

/// `nodetool tablehistograms`: percentile -> (partition size bytes, cell count).
fn histogram(text: &str) -> Vec<(String, f64, f64)> {
    text.lines()
        .filter_map(|line| {
            let cols: Vec<&str> = line.split_whitespace().collect();
            let label = *cols.first()?;
            if !(label.ends_with('%') || label == "Min" || label == "Max") || cols.len() < 6 {
                return None;
            }
            Some((
                label.to_string(),
                cols[4].parse().ok()?,
                cols[5].parse().ok()?,
            ))
        })
        .collect()
}

/// `nodetool tablestats`: "Compacted partition mean bytes: N".
fn mean_partition_bytes(text: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.trim().strip_prefix("Compacted partition mean bytes:"))
        .and_then(|v| v.trim().parse().ok())
}

/// `nodetool tablestats`: "Bytes unrepaired: 25.535MiB", the uncompressed length of the
/// data files (nothing is repaired on a test node), in bytes.
fn uncompressed_bytes(text: &str) -> Option<f64> {
    let value = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Bytes unrepaired:"))?
        .trim();
    let units = [
        ("GiB", 1024.0 * 1024.0 * 1024.0),
        ("MiB", 1024.0 * 1024.0),
        ("KiB", 1024.0),
        ("B", 1.0),
    ];
    let (number, scale) = units
        .iter()
        .find_map(|(unit, scale)| value.strip_suffix(unit).map(|n| (n, *scale)))?;
    Some(number.trim().parse::<f64>().ok()? * scale)
}

fn estimate() -> cqlmodel_stats::SizeEstimate {
    let parsed = cqlmodel_cql::parse(&fixture("schema.cql"));
    let schema = cqlmodel_schema::build_schema(0, &parsed.statements).schema;
    let stats = cqlmodel_stats::load_stats(&fixture("stats.toml"), &schema).expect("stats");
    cqlmodel_stats::estimate_all(&schema, &stats)
        .into_iter()
        .next()
        .expect("one table")
}

fn save(outputs: &[(&str, &str)]) {
    let Some(dir) = std::env::var_os("CQLMODEL_SAVE_NODETOOL") else {
        return;
    };
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir).expect("create the fixture directory");
    for (name, text) in outputs {
        std::fs::write(dir.join(name), text).expect("write a nodetool fixture");
    }
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs a node and nodetool: scripts/test-cassandra.sh (CQLMODEL_TEST_CONTACT, CQLMODEL_TEST_NODETOOL)"]
async fn partition_sizes_on_the_node_match_cqlmodel_size() {
    if std::env::var_os("CQLMODEL_TEST_NODETOOL").is_none() {
        println!(
            "skipped: CQLMODEL_TEST_NODETOOL is not set (e.g. \"scripts/cassandra.sh nodetool\")"
        );
        return;
    }
    let node = Node::from_env().await.expect("a node to test against");
    let applied = apply_schema(&node, &fixture("schema.cql"))
        .await
        .expect("schema");
    assert!(
        applied.iter().all(|a| a.verdict.is_accepted()),
        "{applied:?}"
    );
    load(&node).await;
    // One sstable, so each partition is counted whole (flushes of the small test memtable
    // would otherwise split partitions across sstables and show the pieces).
    nodetool(&["flush", "sizes", "events_by_user"]);
    nodetool(&["compact", "sizes", "events_by_user"]);
    let histograms = nodetool(&["tablehistograms", "sizes", "events_by_user"]).unwrap_or_default();
    let stats_text = nodetool(&["tablestats", "sizes.events_by_user"]).unwrap_or_default();
    let stats_json =
        nodetool(&["tablestats", "-F", "json", "sizes.events_by_user"]).unwrap_or_default();
    let stats_yaml =
        nodetool(&["tablestats", "-F", "yaml", "sizes.events_by_user"]).unwrap_or_default();
    save(&[
        ("tablehistograms.txt", &histograms),
        ("tablestats.txt", &stats_text),
        ("tablestats.json", &stats_json),
        ("tablestats.yaml", &stats_yaml),
    ]);

    let ours = estimate().sizes;
    let our_quantiles = |label: &str| match label {
        "50%" => Some((ours.bytes.p50, ours.cells.p50)),
        "75%" => Some((ours.bytes.p75, ours.cells.p75)),
        "95%" => Some((ours.bytes.p95, ours.cells.p95)),
        "98%" => Some((ours.bytes.p98, ours.cells.p98)),
        "99%" => Some((ours.bytes.p99, ours.cells.p99)),
        "Max" => Some((ours.bytes.max, ours.cells.max)),
        _ => None,
    };
    let mut out_of_bounds = Vec::new();
    let mut compared = 0;
    println!(
        "sizes: node / cqlmodel size, {} rows in {USERS} partitions",
        USERS * ROWS_PER_USER
    );
    println!("  percentile  node bytes  cqlmodel bytes  ratio   node cells  cqlmodel cells  ratio");
    for (label, bytes, cells) in histogram(&histograms) {
        let Some((our_bytes, our_cells)) = our_quantiles(&label) else {
            continue;
        };
        let (byte_ratio, cell_ratio) = (bytes / our_bytes, cells / our_cells);
        println!(
            "  {label:>10}  {bytes:>10}  {our_bytes:>14}  {byte_ratio:.3}  {cells:>10}  {our_cells:>14}  {cell_ratio:.3}"
        );
        compared += 1;
        for (what, ratio) in [("bytes", byte_ratio), ("cells", cell_ratio)] {
            if !(1.0 / TOLERANCE..=TOLERANCE).contains(&ratio) {
                out_of_bounds.push(format!("{label} {what}: ratio {ratio:.3}"));
            }
        }
    }
    let mean = mean_partition_bytes(&stats_text).expect("tablestats mean partition bytes");
    let mean_ratio = mean / ours.bytes.mean;
    println!(
        "  mean partition bytes: node {mean}, cqlmodel {}, ratio {mean_ratio:.3}",
        ours.bytes.mean
    );
    if !(1.0 / TOLERANCE..=TOLERANCE).contains(&mean_ratio) {
        out_of_bounds.push(format!("mean bytes: ratio {mean_ratio:.3}"));
    }
    // The histogram's mean is bucket-rounded; the data files' uncompressed length over the
    // partition count is the exact mean partition size.
    let exact =
        uncompressed_bytes(&stats_text).expect("tablestats bytes unrepaired") / USERS as f64;
    let exact_ratio = exact / ours.bytes.mean;
    println!(
        "  exact mean partition bytes (uncompressed data / partitions): node {exact:.0}, cqlmodel {}, ratio {exact_ratio:.3}",
        ours.bytes.mean
    );
    if !(1.0 / TOLERANCE..=TOLERANCE).contains(&exact_ratio) {
        out_of_bounds.push(format!("exact mean bytes: ratio {exact_ratio:.3}"));
    }
    assert_eq!(compared, 6, "tablehistograms percentiles:\n{histograms}");
    assert!(
        out_of_bounds.is_empty(),
        "outside a factor {TOLERANCE}: {out_of_bounds:?}"
    );
}
