//! `cqlmodel diagnose --cluster` against the node: a table keyed by a status with one hot
//! value (one partition of ≈30 MB, 49 of ≈30 kB) is loaded and flushed; the diagnosis must
//! name the table, the skew and a salted table; that table, loaded with the same rows, must
//! diagnose clean. Nothing may be written by the diagnosis (the schema version and the row
//! count are compared before and after), and with `CQLMODEL_TEST_AUTH=user:password` (a
//! superuser of a node with PasswordAuthenticator, `scripts/cassandra.sh start auth`) a role
//! that may only SELECT reads the cluster and is refused an INSERT.
//!
//! nodetool (`CQLMODEL_TEST_NODETOOL`) flushes and refreshes the size estimates; without it
//! the test says so and stops.

use std::process::Command;

use cqlmodel_cli::cluster_args::ClusterArgs;
use cqlmodel_cli::diagnose_cmd::{DiagnoseArgs, FailOn, run};
use cqlmodel_cli::review_cmd::ReviewFormat;
use cqlmodel_livetest::{CONTACT_VAR, Node, Verdict};
use scylla::value::CqlTimeuuid;
use serde_json::Value;

const KEYSPACE: &str = "diag";
const HOT_ROWS: usize = 20_000;
const COLD_STATUSES: usize = 49;
const COLD_ROWS: usize = 20;
const PAYLOAD_BYTES: usize = 1_500;
const ROWS_PER_BATCH: usize = 20;

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

fn contact() -> String {
    std::env::var(CONTACT_VAR).unwrap_or_else(|_| panic!("{CONTACT_VAR} is not set"))
}

fn args(user: Option<(&str, &str)>) -> DiagnoseArgs {
    DiagnoseArgs {
        inputs: Vec::new(),
        cluster: ClusterArgs {
            cluster: vec![contact()],
            username: user.map(|u| u.0.to_string()),
            password: user.map(|u| u.1.to_string()),
            connect_timeout: 10,
            ..ClusterArgs::default()
        },
        schema: Vec::new(),
        data_age: None,
        fail_on: FailOn::Error,
    }
}

/// Runs the diagnosis off the test's runtime (the command has its own).
async fn diagnose(args: DiagnoseArgs) -> (u8, Value, String) {
    let out = tokio::task::spawn_blocking(move || run(&args, ReviewFormat::Json, false))
        .await
        .expect("diagnose ran");
    let json: Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", out.stdout, out.stderr));
    (out.code, json, out.stderr)
}

fn findings_of<'a>(json: &'a Value, table: &str) -> Vec<&'a Value> {
    json["findings"]
        .as_array()
        .map(|a| a.iter().filter(|f| f["table"] == table).collect())
        .unwrap_or_default()
}

fn payload(i: usize) -> String {
    let seed = format!("{i:08}");
    seed.repeat(PAYLOAD_BYTES / seed.len())
}

/// Inserts every row through `insert`, whose values are (status, [bucket,] id, payload);
/// `salt` gives the bucket of row `i` when the table has one.
async fn load(node: &Node, insert: &str, salt: Option<usize>) {
    use scylla::statement::batch::{Batch, BatchType};
    let prepared = node.session().prepare(insert).await.expect("prepare");
    let mut batch = Batch::new(BatchType::Unlogged);
    for _ in 0..ROWS_PER_BATCH {
        batch.append_statement(prepared.clone());
    }
    let mut rows: Vec<(String, usize)> = (0..HOT_ROWS).map(|i| ("ok".to_string(), i)).collect();
    for s in 0..COLD_STATUSES {
        rows.extend(
            (0..COLD_ROWS).map(|i| (format!("status-{s:02}"), HOT_ROWS + s * COLD_ROWS + i)),
        );
    }
    // One batch = one partition (same status, same bucket).
    let mut groups: std::collections::BTreeMap<(String, usize), Vec<usize>> = Default::default();
    for (status, i) in rows {
        let bucket = salt.map(|k| i % k).unwrap_or(0);
        groups.entry((status, bucket)).or_default().push(i);
    }
    for ((status, bucket), ids) in groups {
        for chunk in ids.chunks(ROWS_PER_BATCH) {
            let mut b = batch.clone();
            if chunk.len() < ROWS_PER_BATCH {
                b = Batch::new(BatchType::Unlogged);
                for _ in chunk {
                    b.append_statement(prepared.clone());
                }
            }
            let result = match salt {
                None => {
                    let values: Vec<(&str, CqlTimeuuid, String)> = chunk
                        .iter()
                        .map(|i| (status.as_str(), timeuuid(*i), payload(*i)))
                        .collect();
                    node.session().batch(&b, values).await
                }
                Some(_) => {
                    let values: Vec<(&str, i32, CqlTimeuuid, String)> = chunk
                        .iter()
                        .map(|i| (status.as_str(), bucket as i32, timeuuid(*i), payload(*i)))
                        .collect();
                    node.session().batch(&b, values).await
                }
            };
            result.expect("load batch");
        }
    }
}

/// A version-1 UUID whose time is 2026-01-01 plus `i` ms: distinct per row.
fn timeuuid(i: usize) -> CqlTimeuuid {
    let ticks: u64 = 0x01f0_e2c6_b9a0_0000 + i as u64 * 10_000;
    let time_low = (ticks & 0xffff_ffff) as u32;
    let time_mid = ((ticks >> 32) & 0xffff) as u16;
    let time_hi = (((ticks >> 48) & 0x0fff) as u16) | 0x1000;
    let mut bytes = [0u8; 16];
    bytes[0..4].copy_from_slice(&time_low.to_be_bytes());
    bytes[4..6].copy_from_slice(&time_mid.to_be_bytes());
    bytes[6..8].copy_from_slice(&time_hi.to_be_bytes());
    bytes[8] = 0x80;
    bytes[10..16].copy_from_slice(&[0x02, 0x42, 0xac, 0x11, 0x00, 0x02]);
    CqlTimeuuid::from_bytes(bytes)
}

async fn schema_version(node: &Node) -> String {
    let result = node
        .session()
        .query_unpaged("SELECT schema_version FROM system.local", ())
        .await
        .expect("schema_version");
    let rows = result.into_rows_result().expect("rows");
    let (v,) = rows
        .single_row::<(scylla::value::CqlValue,)>()
        .expect("one row");
    format!("{v:?}")
}

async fn flush() -> bool {
    let flushed = tokio::task::spawn_blocking(|| {
        nodetool(&["flush", KEYSPACE])?;
        nodetool(&["refreshsizeestimates"])
    })
    .await
    .expect("nodetool");
    flushed.is_some()
}

/// The `% k` of the salt in the fix's description.
fn salt_factor(description: &str) -> usize {
    let after = description.split("% ").nth(1).expect("a `% k` salt");
    let digits: String = after.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().expect("k")
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs a node: scripts/test-cassandra.sh"]
async fn diagnose_names_the_hot_key_and_its_fix_clears_it() {
    let node = Node::from_env().await.expect("node");
    node.fresh_keyspace(KEYSPACE).await.expect("keyspace");
    node.must_run(
        "CREATE TABLE diag.events_by_status (status text, id timeuuid, payload text, \
         PRIMARY KEY ((status), id))",
    )
    .await
    .expect("table");
    load(
        &node,
        "INSERT INTO diag.events_by_status (status, id, payload) VALUES (?, ?, ?)",
        None,
    )
    .await;
    if !flush().await {
        eprintln!("CQLMODEL_TEST_NODETOOL is not set: cannot flush; the diagnose test stops here");
        return;
    }

    let before = schema_version(&node).await;
    let count = "SELECT count(*) FROM diag.events_by_status";
    let rows_before = node.first_bigint(count).await.expect("count");
    let (code, json, stderr) = diagnose(args(None)).await;
    println!(
        "{}",
        serde_json::to_string_pretty(&json["findings"]).unwrap_or_default()
    );
    assert_ne!(code, 2, "{stderr}");
    // Read-only: no schema change, no row written.
    assert_eq!(schema_version(&node).await, before);
    assert_eq!(node.first_bigint(count).await.expect("count"), rows_before);

    let found = findings_of(&json, "diag.events_by_status");
    // The mean's label names the system table it came from, not tablestats.
    let skew_notes = found
        .iter()
        .filter(|f| f["rule"] == "partition-skew")
        .map(|f| f["notes"].to_string())
        .collect::<String>();
    assert!(
        skew_notes.contains("(system.table_estimates, mean of nodes)")
            && !skew_notes.contains("tablestats, mean"),
        "{skew_notes}"
    );
    // What a live read cannot measure is said for the table (DG002, p50/p99).
    let unmeasured = json["problems"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p["table"] == "diag.events_by_status")
        .unwrap_or_else(|| panic!("no per-table note: {:#}", json["problems"]));
    let message = unmeasured["message"].as_str().unwrap_or("");
    assert!(
        message.contains("p50/p99") && message.contains("(DG002) not measured"),
        "{message}"
    );
    let skew = found
        .iter()
        .find(|f| f["rule"] == "partition-skew")
        .unwrap_or_else(|| panic!("no partition-skew finding: {found:#?}"));
    assert!(
        skew["message"]
            .as_str()
            .unwrap_or("")
            .contains("diag.events_by_status"),
        "{skew:#}"
    );
    // The key change rides on the first key finding of the table.
    let with_fix = found
        .iter()
        .find(|f| f["fix"].is_object())
        .unwrap_or_else(|| panic!("no fix: {found:#?}"));
    let notes = with_fix["notes"].to_string();
    assert!(notes.contains("key: PRIMARY KEY ((status), id)"), "{notes}");
    assert!(notes.contains("few values"), "{notes}");
    let cql = with_fix["fix"]["cql"].as_str().expect("fix cql");
    let description = with_fix["fix"]["description"]
        .as_str()
        .expect("description");
    let k = salt_factor(description);
    assert!(k >= 3, "k = {k}: {description}");

    // Apply the fix: the new table, the rows again (bucket = row % k stands for hash(id) % k).
    node.must_run("DROP TABLE diag.events_by_status")
        .await
        .expect("drop");
    for statement in cql.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        let statement: String = statement
            .lines()
            .filter(|l| !l.trim_start().starts_with("--"))
            .collect::<Vec<_>>()
            .join("\n");
        node.must_run(&statement)
            .await
            .expect("the fix's CREATE TABLE");
    }
    load(
        &node,
        "INSERT INTO diag.events_by_status_salted (status, bucket, id, payload) VALUES (?, ?, ?, ?)",
        Some(k),
    )
    .await;
    assert!(flush().await);
    let (_, json, _) = diagnose(args(None)).await;
    let after = findings_of(&json, "diag.events_by_status_salted");
    println!("after the fix: {after:#?}");
    assert!(
        after
            .iter()
            .all(|f| !["large-partition", "wide-partition", "partition-skew"]
                .contains(&f["rule"].as_str().unwrap_or(""))),
        "{after:#?}"
    );
    // The salted table was read (its write latencies come from system_views).
    let histograms = json["read"]["histograms"].to_string();
    assert!(
        histograms.contains("diag.events_by_status_salted"),
        "{histograms}"
    );
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs a node: scripts/test-cassandra.sh"]
async fn diagnose_with_a_read_only_role() {
    let Ok(auth) = std::env::var("CQLMODEL_TEST_AUTH") else {
        eprintln!("CQLMODEL_TEST_AUTH is not set (a node without authentication): skipped");
        return;
    };
    let (admin, password) = auth.split_once(':').expect("user:password");
    let node = Node::connect_as(&contact(), Some((admin, password)))
        .await
        .expect("superuser");
    node.fresh_keyspace("diag_ro").await.expect("keyspace");
    node.must_run("CREATE TABLE diag_ro.t (k int PRIMARY KEY, v text)")
        .await
        .expect("table");
    node.must_run("INSERT INTO diag_ro.t (k, v) VALUES (1, 'one')")
        .await
        .expect("row");
    node.must_run(
        "CREATE ROLE IF NOT EXISTS cqlmodel_reader WITH PASSWORD = 'reader' AND LOGIN = true",
    )
    .await
    .expect("role");
    node.must_run("GRANT SELECT ON ALL KEYSPACES TO cqlmodel_reader")
        .await
        .expect("grant");

    let reader = Node::connect_as(&contact(), Some(("cqlmodel_reader", "reader")))
        .await
        .expect("reader");
    // The role cannot write: whatever diagnose sent, nothing could change.
    match reader
        .run("INSERT INTO diag_ro.t (k, v) VALUES (2, 'two')")
        .await
        .expect("answer")
    {
        Verdict::Rejected(r) => assert_eq!(r.class, "Unauthorized", "{r}"),
        Verdict::Accepted { .. } => panic!("the reader role could write"),
    }
    let (code, json, stderr) = diagnose(args(Some(("cqlmodel_reader", "reader")))).await;
    assert_ne!(code, 2, "{stderr}");
    let problems = json["problems"].to_string();
    assert!(problems.contains("release_version"), "{problems}");
    assert!(
        json["read"].to_string().contains("system tables"),
        "{}",
        json["read"]
    );
    // Without credentials the node refuses the connection: a clear input error.
    let (code, _, stderr) = {
        let out = tokio::task::spawn_blocking(|| run(&args(None), ReviewFormat::Text, false))
            .await
            .expect("ran");
        (out.code, out.stdout, out.stderr)
    };
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot connect"), "{stderr}");
}
