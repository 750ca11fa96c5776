//! Two datacenters on this machine (`scripts/cassandra.sh start multidc`: dc1 on
//! 127.0.0.1, dc2 on 127.0.0.2, `CQLMODEL_TEST_MULTIDC=1`). A keyspace replicated
//! dc1:1, dc2:1 is loaded (one ≈2 MB partition, 20 small ones), flushed on both nodes
//! and repaired. Then:
//! - without `--dc`, each node's tables are read from that node (two readings, one per
//!   datacenter), and the notes say how many nodes were queried;
//! - with `--dc dc2`, only dc2's node is read and the dc1 node is named as not read;
//! - (`top_partitions_after_a_repair_on_two_dcs`, not in the phase: `system.top_partitions`
//!   after a repair; it stayed empty on 5.0.9);
//! - `size --cluster --dc dc2` and `review --cluster --dc dc1` read through one datacenter.

use cqlmodel_cli::cluster_args::ClusterArgs;
use cqlmodel_cluster::{ClusterSnapshot, read_cluster};
use cqlmodel_livetest::Node;
use serde_json::Value;

const KEYSPACE: &str = "two_dcs";

fn enabled() -> bool {
    let on = std::env::var("CQLMODEL_TEST_MULTIDC").is_ok();
    if !on {
        eprintln!("CQLMODEL_TEST_MULTIDC is not set: no two-datacenter cluster; stopping");
    }
    on
}

/// nodetool on the node with JMX port `jmx` (7199: dc1, 7299: dc2).
fn nodetool(jmx: &str, args: &[&str]) {
    let command = std::env::var("CQLMODEL_TEST_NODETOOL").expect("CQLMODEL_TEST_NODETOOL");
    let mut words = command.split_whitespace();
    let program = words.next().expect("a program");
    let output = std::process::Command::new(program)
        .args(words)
        .args(args)
        .env("CQLMODEL_NODE_JMX", jmx)
        .output()
        .unwrap_or_else(|e| panic!("{command}: {e}"));
    assert!(
        output.status.success(),
        "nodetool {args:?} on JMX {jmx}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn cluster(dc: Option<&str>) -> ClusterArgs {
    ClusterArgs {
        cluster: vec!["127.0.0.1:9042".to_string()],
        dc: dc.map(str::to_string),
        connect_timeout: 20,
        ..ClusterArgs::default()
    }
}

async fn load(node: &Node) {
    node.must_run(&format!("DROP KEYSPACE IF EXISTS {KEYSPACE}"))
        .await
        .expect("drop");
    node.must_run(&format!(
        "CREATE KEYSPACE {KEYSPACE} WITH replication = {{'class': 'NetworkTopologyStrategy', 'dc1': 1, 'dc2': 1}}"
    ))
    .await
    .expect("keyspace");
    node.must_run(&format!(
        "CREATE TABLE {KEYSPACE}.chunks (file_id int, chunk int, data blob, PRIMARY KEY ((file_id), chunk))"
    ))
    .await
    .expect("table");
    let insert = node
        .session()
        .prepare(format!(
            "INSERT INTO {KEYSPACE}.chunks (file_id, chunk, data) VALUES (?, ?, ?)"
        ))
        .await
        .expect("prepare");
    let kilobyte: Vec<u8> = (0..1024u32).map(|i| (i % 251) as u8).collect();
    for (file, chunks) in std::iter::once((0, 2_000)).chain((1..=20).map(|f| (f, 1))) {
        for chunk in 0..chunks {
            node.session()
                .execute_unpaged(&insert, (file, chunk, kilobyte.clone()))
                .await
                .expect("insert");
        }
    }
}

fn read(dc: Option<&str>) -> ClusterSnapshot {
    read_cluster(&cluster(dc).options()).unwrap_or_else(|e| panic!("read --dc {dc:?}: {e}"))
}

/// Loads the keyspace, flushes it on both nodes, repairs it (full) and refreshes the estimates.
async fn loaded_and_repaired(node: &Node) {
    load(node).await;
    tokio::task::spawn_blocking(|| {
        for jmx in ["7199", "7299"] {
            nodetool(jmx, &["flush", KEYSPACE]);
        }
        nodetool("7199", &["repair", "--full", KEYSPACE]);
        for jmx in ["7199", "7299"] {
            nodetool(jmx, &["refreshsizeestimates"]);
        }
    })
    .await
    .expect("nodetool");
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs the two-datacenter cluster: scripts/test-cassandra.sh"]
async fn multidc_dc_routing_and_per_node_reads() {
    if !enabled() {
        return;
    }
    let node = Node::from_env().await.expect("node");
    loaded_and_repaired(&node).await;
    let (all, dc2) = tokio::task::spawn_blocking(|| (read(None), read(Some("dc2"))))
        .await
        .expect("read");
    let dcs: Vec<Option<&str>> = all.nodes.iter().map(|n| n.datacenter.as_deref()).collect();
    eprintln!("without --dc: {dcs:?}; notes {:?}", all.notes);
    assert_eq!(all.nodes.len(), 2, "both nodes read: {dcs:?}");
    assert!(
        dcs.contains(&Some("dc1")) && dcs.contains(&Some("dc2")),
        "{dcs:?}"
    );
    assert!(
        all.notes
            .iter()
            .any(|n| n.contains("read on 2 node(s), each query sent to that node alone")),
        "{:?}",
        all.notes
    );
    eprintln!("--dc dc2: notes {:?}", dc2.notes);
    assert_eq!(dc2.nodes.len(), 1);
    assert_eq!(dc2.nodes[0].address, "127.0.0.2");
    assert!(
        dc2.notes
            .iter()
            .any(|n| n.starts_with("127.0.0.1: not read (datacenter dc1, not --dc dc2)")),
        "the other datacenter's node is named as not read: {:?}",
        dc2.notes
    );

    // size and review through one datacenter.
    let size_args = cqlmodel_cli::size_live::SizeLiveArgs {
        cluster: cluster(Some("dc2")),
        table: Some(format!("{KEYSPACE}.chunks")),
        stats: None,
    };
    let review = cqlmodel_cli::review_cmd::ReviewArgs {
        schema: Vec::new(),
        queries: None,
        stats: None,
        config: None,
        keyspace: Some(KEYSPACE.to_string()),
        cluster: cluster(Some("dc1")),
        fail_on: cqlmodel_diagnostics::Severity::Error,
        format: cqlmodel_cli::review_cmd::ReviewFormat::Json,
        color: false,
    };
    let ((size_out, _, size_code), review_out) = tokio::task::spawn_blocking(move || {
        (
            cqlmodel_cli::size_live::run(&size_args, true, false),
            cqlmodel_cli::review_cmd::run(&review),
        )
    })
    .await
    .expect("ran");
    let size: Value = serde_json::from_str(&size_out).unwrap_or_else(|e| panic!("{e}: {size_out}"));
    assert!(size_code <= 1, "{size_out}");
    assert_eq!(
        size[0]["cluster"]["nodes"],
        serde_json::json!(["127.0.0.2"]),
        "{size}"
    );
    assert_eq!(size[0]["measured"]["nodes_reporting"], 1);
    assert!(
        review_out.code <= 1,
        "{}{}",
        review_out.stdout,
        review_out.stderr
    );
}

/// Not in the `multidc` phase (its filter is `multidc_`): on Cassandra 5.0.9,
/// `system.top_partitions` stayed empty on both nodes after `nodetool repair --full`
/// of this keyspace (one ≈2 MB partition, over the 1 MiB `min_tracked_partition_size`),
/// and why is not understood yet. Run it by name against `start multidc`.
#[tokio::test(flavor = "current_thread")]
#[ignore = "system.top_partitions stays empty after repair on 5.0.9 (not understood); run by name"]
async fn top_partitions_after_a_repair_on_two_dcs() {
    if !enabled() {
        return;
    }
    let node = Node::from_env().await.expect("node");
    loaded_and_repaired(&node).await;
    let all = tokio::task::spawn_blocking(|| read(None))
        .await
        .expect("read");
    // system.top_partitions after the repair: the 2 MB partition, on a node that holds it.
    let tops: Vec<(String, Vec<(String, u64)>)> = all
        .nodes
        .iter()
        .flat_map(|n| {
            n.tables
                .iter()
                .filter(|t| t.keyspace == KEYSPACE && t.table == "chunks")
                .map(|t| (n.address.clone(), t.largest_partitions.clone()))
        })
        .collect();
    eprintln!("top partitions after repair: {tops:?}");
    assert!(
        tops.iter().any(|(_, top)| top
            .first()
            .is_some_and(|(key, bytes)| key == "0" && *bytes > 1_000_000)),
        "system.top_partitions names partition 0 (≈2 MB) after the repair: {tops:?}"
    );
}
