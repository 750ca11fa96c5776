//! `cqlmodel review --cluster` and `size --cluster` against the node.
//!
//! Review: a keyspace holding a time-series table
//! with no bucket and no TTL (an unbounded partition) and a query list reading it with
//! ALLOW FILTERING. The review of the deployed schema, restricted with `--keyspace`, must
//! flag both, point the table's finding at `cluster HOST, table ks.t` (no file and line),
//! leave the node's other keyspaces out, exit 1, and write nothing.
//!
//! Size: one partition of ≈3 MB and 20 small ones are loaded and flushed (nodetool,
//! `CQLMODEL_TEST_NODETOOL`, refreshes the estimates); `size --cluster --table` must report
//! the measured partition count, mean and maximum with their sources, rows as assumed, and
//! the percentiles as not measured.

use cqlmodel_cli::cluster_args::ClusterArgs;
use cqlmodel_cli::review_cmd::{ReviewArgs, ReviewFormat, run};
use cqlmodel_diagnostics::Severity;
use cqlmodel_livetest::Node;
use serde_json::Value;

const KEYSPACE: &str = "review_live";

fn review_args(node: &Node, queries: Option<std::path::PathBuf>) -> ReviewArgs {
    ReviewArgs {
        schema: Vec::new(),
        queries,
        stats: None,
        config: None,
        keyspace: Some(KEYSPACE.to_string()),
        cluster: ClusterArgs {
            cluster: vec![node.contact().to_string()],
            connect_timeout: 10,
            ..ClusterArgs::default()
        },
        fail_on: Severity::Error,
        format: ReviewFormat::Json,
        color: false,
    }
}

/// The keyspace's tables with their ids and columns: what a write to the schema would
/// change. (The node's schema version would do, but the other tests of this binary change
/// the schema at the same time.)
async fn keyspace_schema(node: &Node) -> String {
    let mut out = String::new();
    for query in [
        "SELECT table_name, id, comment FROM system_schema.tables WHERE keyspace_name = ?",
        "SELECT table_name, column_name, type FROM system_schema.columns WHERE keyspace_name = ?",
    ] {
        let rows = node
            .session()
            .query_unpaged(query, (KEYSPACE,))
            .await
            .expect("system_schema")
            .into_rows_result()
            .expect("rows");
        for row in rows.rows::<scylla::value::Row>().expect("rows") {
            out.push_str(&format!("{:?}\n", row.expect("row").columns));
        }
    }
    out
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs a node: scripts/test-cassandra.sh"]
async fn review_cluster_flags_the_deployed_anti_pattern() {
    let node = Node::from_env().await.expect("node");
    node.fresh_keyspace(KEYSPACE).await.expect("keyspace");
    node.must_run(
        "CREATE TABLE review_live.readings_by_sensor (sensor_id text, read_at timestamp, \
         celsius double, PRIMARY KEY ((sensor_id), read_at)) WITH CLUSTERING ORDER BY (read_at DESC)",
    )
    .await
    .expect("table");
    let dir = std::env::temp_dir().join(format!("cqlmodel-review-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let queries = dir.join("queries.cql");
    std::fs::write(
        &queries,
        "-- @name hot_readings @rate 50/s\n\
         SELECT * FROM readings_by_sensor WHERE celsius > 40 ALLOW FILTERING;\n\
         -- @name latest @rate 500/s\n\
         SELECT * FROM readings_by_sensor WHERE sensor_id = ? LIMIT 10;\n",
    )
    .expect("queries file");
    let before = keyspace_schema(&node).await;

    let args = review_args(&node, Some(queries));
    let out = tokio::task::spawn_blocking(move || run(&args))
        .await
        .expect("review ran");
    let _ = std::fs::remove_dir_all(&dir);
    let json: Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", out.stdout, out.stderr));
    eprintln!(
        "{}",
        serde_json::to_string_pretty(&json["findings"]).unwrap_or_default()
    );

    assert_eq!(out.code, 1, "an error finding exits 1: {}", out.stdout);
    let findings = json["findings"].as_array().expect("findings");
    let of = |rule: &str| findings.iter().find(|f| f["rule"] == rule);
    let unbounded = of("unbounded-partition").expect("the unbounded partition is flagged");
    assert_eq!(unbounded["table"], "review_live.readings_by_sensor");
    let where_ = format!(
        "cluster {}, table review_live.readings_by_sensor",
        node.contact()
    );
    assert_eq!(unbounded["file"], where_.as_str());
    assert!(unbounded["line"].is_null(), "no line in the rebuilt DDL");
    // The fix of a deployed table: no option the node holds at its default, no
    // annotation there is no file for, and the way there is `migrate --cluster`.
    // The review JSON's fix is the description, a newline, then the CQL.
    let fix = unbounded["fix"].as_str().expect("a fix");
    let (description, replacement) = fix.split_once('\n').expect("a fix with its CQL");
    assert!(replacement.contains("CREATE TABLE"), "{fix}");
    for default in [
        "default_time_to_live",
        "gc_grace_seconds",
        "speculative_retry",
    ] {
        assert!(!replacement.contains(default), "{default} in {replacement}");
    }
    assert!(description.contains("migrate --cluster"), "{fix}");
    assert!(
        !out.stdout.contains("@ttl"),
        "no `-- @ttl` advice for a deployed schema: {}",
        out.stdout
    );
    let filtering = of("allow-filtering").expect("ALLOW FILTERING is flagged");
    assert_eq!(filtering["severity"], "error");
    assert!(
        filtering["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("queries.cql")),
        "a query's finding still points into the query file: {filtering}"
    );
    assert!(
        findings.iter().all(|f| f["table"]
            .as_str()
            .is_none_or(|t| t.starts_with("review_live."))),
        "only --keyspace is reviewed"
    );
    assert_eq!(
        keyspace_schema(&node).await,
        before,
        "the review wrote nothing"
    );
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs a node: scripts/test-cassandra.sh"]
async fn review_cluster_refuses_an_unknown_keyspace() {
    let node = Node::from_env().await.expect("node");
    let mut args = review_args(&node, None);
    args.keyspace = Some("no_such_keyspace".to_string());
    args.format = ReviewFormat::Text;
    let out = tokio::task::spawn_blocking(move || run(&args))
        .await
        .expect("review ran");
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("--keyspace no_such_keyspace")
            && out.stderr.contains("holds no such keyspace"),
        "{}",
        out.stderr
    );
}

fn nodetool(args: &[&str]) -> Option<String> {
    let command = std::env::var("CQLMODEL_TEST_NODETOOL").ok()?;
    let mut words = command.split_whitespace();
    let program = words.next()?;
    let output = std::process::Command::new(program)
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

const BIG_ROWS: i32 = 3_000;
const SMALL_PARTITIONS: i32 = 20;

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs a node: scripts/test-cassandra.sh"]
async fn size_cluster_reports_measured_sizes_and_says_what_is_assumed() {
    let node = Node::from_env().await.expect("node");
    node.fresh_keyspace("size_live").await.expect("keyspace");
    node.must_run(
        "CREATE TABLE size_live.chunks (file_id int, chunk int, data blob, \
         PRIMARY KEY ((file_id), chunk))",
    )
    .await
    .expect("table");
    let insert = node
        .session()
        .prepare("INSERT INTO size_live.chunks (file_id, chunk, data) VALUES (?, ?, ?)")
        .await
        .expect("prepare");
    let kilobyte: Vec<u8> = (0..1024u32).map(|i| (i % 251) as u8).collect();
    for chunk in 0..BIG_ROWS {
        let values = (0i32, chunk, kilobyte.clone());
        node.session()
            .execute_unpaged(&insert, values)
            .await
            .expect("insert");
    }
    for file in 1..=SMALL_PARTITIONS {
        let values = (file, 0i32, kilobyte.clone());
        node.session()
            .execute_unpaged(&insert, values)
            .await
            .expect("insert");
    }
    let flushed = tokio::task::spawn_blocking(|| {
        nodetool(&["flush", "size_live"])?;
        nodetool(&["refreshsizeestimates"])
    })
    .await
    .expect("nodetool");
    if flushed.is_none() {
        eprintln!("CQLMODEL_TEST_NODETOOL is not set: the sizes cannot be flushed; stopping");
        return;
    }
    let args = cqlmodel_cli::size_live::SizeLiveArgs {
        cluster: ClusterArgs {
            cluster: vec![node.contact().to_string()],
            connect_timeout: 10,
            ..ClusterArgs::default()
        },
        table: Some("size_live.chunks".to_string()),
        stats: None,
    };
    let text_args = args.clone();
    let (stdout, _, code) =
        tokio::task::spawn_blocking(move || cqlmodel_cli::size_live::run(&args, true, false))
            .await
            .expect("size ran");
    let json: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    eprintln!(
        "{}",
        serde_json::to_string_pretty(&json).unwrap_or_default()
    );
    assert_eq!(code, 0, "3 MB is within the thresholds");
    let tables = json
        .as_array()
        .expect("an array of tables, as offline size");
    assert_eq!(tables.len(), 1, "--table keeps one table");
    let t = &tables[0];
    assert_eq!(t["table"], "size_live.chunks");
    let partitions = t["partitions"].as_u64().expect("a partition estimate");
    assert!(partitions >= 1, "{partitions}");
    assert_eq!(t["sources"]["partitions"], "system.table_estimates");
    assert_eq!(t["measured"]["partitions"]["value"], partitions);
    let max = t["bytes_per_partition"]["max"].as_u64().expect("a maximum");
    assert!(
        (2 << 20..=4 << 20).contains(&max),
        "the 3 MB partition, in whole MiB: {max}"
    );
    let mean = t["bytes_per_partition"]["mean"].as_u64().expect("a mean");
    assert!(mean < max, "mean {mean} under max {max}");
    // The rows are assumed: the measured bytes over the schema's row size with a blob of
    // the default size, far smaller than the 1 KB written, so they overestimate; the
    // output shows the row size it divided by.
    let rows = t["rows_per_partition"]["max"]
        .as_u64()
        .expect("assumed rows");
    let row_bytes = t["row_bytes"]["value"]
        .as_u64()
        .expect("the assumed row size");
    assert_eq!(t["row_bytes"]["source"], "assumed");
    assert!(row_bytes > 0 && row_bytes < 1024, "{row_bytes}");
    let expected = max / row_bytes;
    assert!(
        rows.abs_diff(expected) <= expected / 10 + 1,
        "{rows} ≈ {max} / {row_bytes}"
    );
    assert_eq!(t["not_measured"], serde_json::json!(["p50", "p95", "p99"]));

    let mut stats_args = text_args.clone();
    let (text, _, _) =
        tokio::task::spawn_blocking(move || cqlmodel_cli::size_live::run(&text_args, false, false))
            .await
            .expect("size ran");
    eprintln!("{text}");
    assert!(text.contains("measured  max partition size"), "{text}");
    assert!(text.contains("assumed   rows, max partition"), "{text}");
    assert!(
        text.contains("p50/p95/p99 partition size: not measured"),
        "{text}"
    );

    // --stats: the 1 KB blob the test wrote corrects the row size, so the rows of the
    // largest partition come out near the 3,000 written; the measured bytes stay.
    let dir = std::env::temp_dir().join(format!("cqlmodel-size-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let stats = dir.join("stats.toml");
    std::fs::write(
        &stats,
        "[table.\"size_live.chunks\"]\nrows = 3020\n\n[table.\"size_live.chunks\".column.data]\navg_size = 1024\n",
    )
    .expect("stats file");
    stats_args.stats = Some(stats);
    let (stdout, stderr, code) =
        tokio::task::spawn_blocking(move || cqlmodel_cli::size_live::run(&stats_args, true, false))
            .await
            .expect("size ran");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let json: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let t = &json[0];
    assert_eq!(t["row_bytes"]["source"], "stats");
    assert_eq!(
        t["bytes_per_partition"]["max"], max,
        "the measured max wins"
    );
    assert_eq!(
        t["sources"]["bytes_per_partition.max"],
        "system_views.max_partition_size"
    );
    let rows = t["rows_per_partition"]["max"].as_u64().expect("rows");
    assert!(
        (1_500..=4_500).contains(&rows),
        "{rows} rows in the largest partition (3,000 written; the max is in whole MiB)"
    );
}
