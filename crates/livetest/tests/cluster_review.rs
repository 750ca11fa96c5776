//! `cqlmodel review --cluster` against the node: a keyspace holding a time-series table
//! with no bucket and no TTL (an unbounded partition) and a query list reading it with
//! ALLOW FILTERING. The review of the deployed schema, restricted with `--keyspace`, must
//! flag both, point the table's finding at `cluster HOST, table ks.t` (no file and line),
//! leave the node's other keyspaces out, exit 1, and write nothing.

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

async fn schema_version(node: &Node) -> String {
    let rows = node
        .session()
        .query_unpaged("SELECT schema_version FROM system.local", ())
        .await
        .expect("schema_version")
        .into_rows_result()
        .expect("rows");
    let (v,) = rows
        .single_row::<(scylla::value::CqlValue,)>()
        .expect("one row");
    format!("{v:?}")
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
    let before = schema_version(&node).await;

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
        schema_version(&node).await,
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
