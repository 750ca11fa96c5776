//! `cqlmodel ring` through its library entry point (`ring_cmd::run`): reports,
//! their JSON shape, and the errors bad topologies get.

use std::path::PathBuf;

use cqlmodel_cli::ring_cmd::{RingArgs, TableLoad, report_json, report_text, run};
use cqlmodel_ring::{Allocation, Ring, Token, Topology, ownership, place_load, token_of_key};
use serde_json::Value;

fn example(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples")).join(name)
}

fn flags(nodes: u32, vnodes: u32, rf: u32) -> RingArgs {
    RingArgs {
        nodes: Some(nodes),
        vnodes,
        rf,
        ..RingArgs::default()
    }
}

fn json_of(args: RingArgs) -> Value {
    let (out, err, code) = run(args, true);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    serde_json::from_str(&out).expect("JSON output")
}

fn sum(nodes: &[Value], field: &str, dc: Option<&str>) -> f64 {
    nodes
        .iter()
        .filter(|n| dc.is_none_or(|dc| n["dc"] == dc))
        .map(|n| n[field].as_f64().expect("a number"))
        .sum()
}

#[test]
fn flags_ring_text() {
    let (out, err, code) = run(flags(6, 16, 3), false);
    assert_eq!((code, err.as_str()), (0, ""));
    insta::assert_snapshot!(out);
}

#[test]
fn flags_ring_json_shape_and_sums() {
    let v = json_of(flags(5, 8, 2));
    let nodes = v["nodes"].as_array().expect("an array");
    assert_eq!(nodes.len(), 5);
    assert!((sum(nodes, "ownership", None) - 100.0).abs() < 0.01);
    assert!((sum(nodes, "effective_ownership", None) - 200.0).abs() < 0.01);
    for n in nodes {
        assert_eq!(n["tokens"], 8);
        assert_eq!(n["dc"], "dc1");
        assert_eq!(n["rack"], "rack1");
        assert!(
            n["data_share"].is_null() && n["request_share"].is_null(),
            "no table, no load"
        );
    }
    assert!(v["imbalance"]["ownership"].as_f64().expect("a number") >= 1.0);
    assert!(v["imbalance"]["data"].is_null());
    assert_eq!(v["hottest_partitions"], Value::Array(vec![]));
    assert_eq!(
        v["topology"]["replication"],
        "SimpleStrategy, replication_factor 2"
    );
}

#[test]
fn the_seed_decides_random_tokens() {
    let random = |seed| RingArgs {
        allocation: cqlmodel_cli::ring_cmd::AllocationArg::Random,
        seed,
        ..flags(4, 4, 1)
    };
    assert_eq!(json_of(random(3)), json_of(random(3)));
    assert_ne!(json_of(random(3))["nodes"], json_of(random(4))["nodes"]);
}

#[test]
fn three_dc_topology_text() {
    let args = RingArgs {
        topology: Some(example("topology-3dc.toml")),
        ..RingArgs::default()
    };
    let (out, err, code) = run(args, false);
    assert_eq!((code, err.as_str()), (0, ""));
    insta::assert_snapshot!(out);
}

#[test]
fn three_dc_topology_effective_ownership_is_rf_per_dc() {
    let v = json_of(RingArgs {
        topology: Some(example("topology-3dc.toml")),
        ..RingArgs::default()
    });
    let nodes = v["nodes"].as_array().expect("an array");
    for (dc, rf) in [("us-east", 3.0), ("eu-west", 3.0), ("ap-south", 1.0)] {
        let effective = sum(nodes, "effective_ownership", Some(dc));
        assert!((effective - rf * 100.0).abs() < 0.01, "{dc}: {effective}");
    }
    assert!((sum(nodes, "ownership", None) - 100.0).abs() < 0.01);
    let big = nodes
        .iter()
        .find(|n| n["node"] == "use-3b")
        .expect("use-3b is in the example");
    assert_eq!(big["tokens"], 32);
}

fn run_topology(text: &str, json: bool) -> (String, String, u8) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("cluster.toml");
    std::fs::write(&path, text).expect("the topology file is written");
    let args = RingArgs {
        topology: Some(path),
        ..RingArgs::default()
    };
    let (out, err, code) = run(args, json);
    let root = dir.path().display().to_string();
    (
        out.replace(&root, "<dir>"),
        err.replace(&root, "<dir>"),
        code,
    )
}

#[test]
fn topology_errors_name_file_line_and_column() {
    let cases = [
        (
            "rf_above_dc_nodes",
            "replication = { class = \"NetworkTopologyStrategy\", dc1 = 3, dc2 = 3 }\n\n[datacenter.dc1]\nnodes = 3\n\n[datacenter.dc2]\nnodes = 2\n",
        ),
        (
            "unknown_dc",
            "[datacenter.dc1]\nnodes = 3\n\n[replication]\nclass = \"NetworkTopologyStrategy\"\ndc1 = 3\neu = 1\n",
        ),
        (
            "duplicate_node",
            "[datacenter.dc1]\nrack.r1 = [\"a\", \"b\"]\nrack.r2 = [\"c\", \"a\"]\n",
        ),
        (
            "zero_vnodes",
            "num_tokens = 0\n\n[datacenter.dc1]\nnodes = 3\n",
        ),
        ("toml_syntax", "[datacenter.dc1]\nnodes = 3\nracks = \n"),
        (
            "unknown_key",
            "[datacenter.dc1]\nnodes = 3\nseeds = [\"a\"]\n",
        ),
        ("no_datacenters", "num_tokens = 8\n"),
    ];
    for (name, text) in cases {
        let (out, err, code) = run_topology(text, false);
        assert_eq!(code, 2, "{name}");
        assert_eq!(out, "", "{name}");
        assert!(err.contains("<dir>/cluster.toml"), "{name}: {err}");
        insta::assert_snapshot!(format!("topology_error_{name}"), err);
    }
}

#[test]
fn topology_error_json() {
    let (out, err, code) = run_topology(
        "[datacenter.dc1]\nnodes = 2\n\n[replication]\nclass = 'SimpleStrategy'\nreplication_factor = 3\n",
        true,
    );
    assert_eq!((code, err.as_str()), (2, ""));
    let v: Value = serde_json::from_str(&out).expect("JSON output");
    let e = &v["errors"][0];
    assert!(
        e.to_string()
            .contains("replication factor 3 is more than the cluster's 2 nodes"),
        "{e}"
    );
    insta::assert_snapshot!(out);
}

#[test]
fn flag_errors_exit_2() {
    for (args, expected) in [
        (
            flags(2, 16, 3),
            "replication factor 3 is more than the cluster's 2 nodes",
        ),
        (flags(3, 0, 1), "--vnodes must be at least 1"),
        (flags(0, 16, 1), "--nodes must be at least 1"),
        (flags(3, 16, 0), "--rf must be at least 1"),
    ] {
        let (out, err, code) = run(args, false);
        assert_eq!((out.as_str(), code), ("", 2));
        assert!(err.contains(expected), "{err}");
    }
}

#[test]
fn schema_without_stats_is_a_usage_error() {
    let args = RingArgs {
        schema: vec![example("orders.cql")],
        ..flags(3, 16, 3)
    };
    let (out, err, code) = run(args, false);
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(err.contains("only with --stats"), "{err}");
}

/// A table keyed by a 3-value status with a million sampled rows: the rendering of
/// the load columns, imbalance and hottest partitions.
fn status_table(ring: &Ring) -> TableLoad {
    let statuses = [&b"active"[..], b"suspended", b"closed"].map(token_of_key);
    // Requests favour `active` 8:1:1; data is even.
    let samples = (0..1_000_000usize).map(|i| {
        let status = statuses[i % 3];
        let requests = if status == statuses[0] { 8.0 } else { 1.0 };
        (status, 1.0, requests)
    });
    TableLoad {
        table: "shop.orders_by_status".into(),
        report: place_load(ring, samples),
        assumptions: vec!["synthetic samples (test)".into()],
    }
}

#[test]
fn low_cardinality_table_report() {
    let topology = Topology::uniform(12, 16, 3, Allocation::Balanced, 1);
    let ring = Ring::build(&topology).expect("the ring builds");
    let owned = ownership(&ring);
    let load = status_table(&ring);
    let text = report_text(&ring, &topology, &owned, Some(&load));
    insta::assert_snapshot!(text);

    let v = report_json(&ring, &topology, &owned, Some(&load));
    let nodes = v["nodes"].as_array().expect("an array");
    let loaded = nodes
        .iter()
        .filter(|n| n["data_share"].as_f64().expect("a number") > 0.0)
        .count();
    assert!(loaded <= 9, "3 statuses × RF 3: {loaded} nodes hold data");
    assert!((sum(nodes, "data_share", None) - 300.0).abs() < 0.01);
    assert!((sum(nodes, "request_share", None) - 100.0).abs() < 0.01);
    let hottest = v["hottest_partitions"].as_array().expect("an array");
    assert_eq!(hottest.len(), 3);
    assert_eq!(hottest[0]["token"], token_of_key(b"active").0);
    assert!((hottest[0]["request_share"].as_f64().expect("a number") - 80.0).abs() < 0.01);
    assert_eq!(
        hottest[0]["replicas"].as_array().expect("an array").len(),
        3
    );
    // `active` gets 80% of the requests, spread over its 3 replicas.
    for replica in hottest[0]["replicas"].as_array().expect("an array") {
        let node = nodes
            .iter()
            .find(|n| &n["node"] == replica)
            .expect("a replica is a node");
        let share = node["request_share"].as_f64().expect("a number");
        assert!(share >= 80.0 / 3.0 - 0.01, "{replica}: {share}%");
    }
}

#[test]
fn sequential_ids_report_no_hot_partition() {
    let topology = Topology::uniform(6, 16, 3, Allocation::Random, 1);
    let ring = Ring::build(&topology).expect("the ring builds");
    let owned = ownership(&ring);
    let samples = (1..=200_000i64).map(|id| (token_of_key(&id.to_be_bytes()), 1.0, 1.0));
    let load = TableLoad {
        table: "shop.orders".into(),
        report: place_load(&ring, samples),
        assumptions: vec![],
    };
    let v = report_json(&ring, &topology, &owned, Some(&load));
    let data = v["imbalance"]["data"].as_f64().expect("a number");
    let owned_imbalance = v["imbalance"]["ownership"].as_f64().expect("a number");
    assert!(
        (data - owned_imbalance).abs() < 0.03,
        "data {data} vs ownership {owned_imbalance}"
    );
    for n in v["nodes"].as_array().expect("an array") {
        let (d, e) = (
            n["data_share"].as_f64().expect("a number"),
            n["effective_ownership"].as_f64().expect("a number"),
        );
        assert!((d - e).abs() < 1.0, "{}: data {d}% vs owns {e}%", n["node"]);
    }
    let top = v["hottest_partitions"][0]["data_share"]
        .as_f64()
        .expect("a number");
    assert!(top < 0.01, "every id is one row: {top}%");
    let _ = Token::MIN;
}

fn orders(table: &str, nodes: u32, keys: usize) -> RingArgs {
    RingArgs {
        schema: vec![example("orders.cql")],
        stats: Some(example("orders-stats.toml")),
        table: Some(table.into()),
        keys,
        ..flags(nodes, 16, 3)
    }
}

#[test]
fn orders_by_status_from_the_statistics_file() {
    let (out, err, code) = run(orders("shop.orders_by_status", 12, 200_000), false);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    insta::assert_snapshot!(out);

    let v = json_of(orders("orders_by_status", 30, 200_000));
    let nodes = v["nodes"].as_array().expect("an array");
    let loaded = nodes
        .iter()
        .filter(|n| n["data_share"].as_f64().expect("a number") > 0.0)
        .count();
    assert!(loaded <= 15, "5 statuses × RF 3: {loaded} nodes hold data");
    assert!(v["imbalance"]["data"].as_f64().expect("a number") > 2.0);
    assert_eq!(
        v["hottest_partitions"].as_array().expect("an array").len(),
        5
    );
    assert_eq!(v["table"], "shop.orders_by_status");
}

#[test]
fn sequential_order_ids_from_the_statistics_file_spread_evenly() {
    let v = json_of(orders("shop.order_by_id", 12, 500_000));
    let data = v["imbalance"]["data"].as_f64().expect("a number");
    assert!(
        data < 1.02,
        "balanced ring, sequential ids: data imbalance {data}"
    );
    let top = v["hottest_partitions"][0]["data_share"]
        .as_f64()
        .expect("a number");
    assert!(top < 0.01, "no partition stands out: {top}%");
}

#[test]
fn table_load_input_errors() {
    // More than one table described and no --table.
    let args = RingArgs {
        table: None,
        ..orders("", 6, 1000)
    };
    let (out, err, code) = run(args, false);
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(err.contains("choose one with --table"), "{err}");
    let (_, err, code) = run(orders("shop.nope", 6, 1000), false);
    assert_eq!(code, 2);
    assert!(err.contains("--table shop.nope: no such table"), "{err}");
}
