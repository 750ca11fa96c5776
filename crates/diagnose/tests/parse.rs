//! Every nodetool output under `tests/data/nodetool/<version>/` parses without a
//! problem: drop a real output in (e.g. the real 5.0.9 captures in `cassandra-5.0/`) and it is tested too.
//! The files cqlmodel ships describe one scenario (see their README), checked
//! value by value below.

use std::path::{Path, PathBuf};

use cqlmodel_diagnose::{InputFormat, Parsed, Percentile, ProblemKind, parse_input};

fn nodetool_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/nodetool")
}

fn data(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn outputs() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let versions = std::fs::read_dir(nodetool_dir()).expect("tests/data/nodetool exists");
    for version in versions.flatten() {
        for f in std::fs::read_dir(version.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let p = f.path();
            if matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("txt" | "json" | "yaml" | "yml")
            ) {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

fn parse_file(path: &Path) -> Parsed {
    let text = std::fs::read_to_string(path).expect("readable fixture");
    parse_input(0, "node1", &text)
}

#[test]
fn every_saved_output_parses_without_problems() {
    let files = outputs();
    assert!(files.len() >= 21, "fixtures missing: {files:?}");
    for path in files {
        let parsed = parse_file(&path);
        assert!(
            parsed.problems.is_empty(),
            "{}: {:?}",
            path.display(),
            parsed.problems
        );
        let tables: usize = parsed.stats.iter().map(|s| s.tables.len()).sum();
        assert!(
            tables + parsed.histograms.len() + parsed.status.len() > 0,
            "{}: nothing read",
            path.display()
        );
        for h in &parsed.histograms {
            assert_eq!(
                h.rows.len(),
                7,
                "{}: {}",
                path.display(),
                h.qualified_name()
            );
        }
    }
}

/// The shipped fixtures' numbers, whatever the version and format.
#[test]
fn shipped_fixtures_read_the_same_numbers_in_every_format() {
    let shipped = [
        "cassandra-4.0",
        "cassandra-4.1",
        "cassandra-5.0-written",
        "scylla-5.4",
        "scylla-6.2",
    ];
    for version in shipped {
        let dir = nodetool_dir().join(version);
        for (file, format) in [
            ("tablestats.txt", InputFormat::TablestatsText),
            ("tablestats.json", InputFormat::TablestatsJson),
            ("tablestats.yaml", InputFormat::TablestatsYaml),
        ] {
            let parsed = parse_file(&dir.join(file));
            let node = &parsed.stats[0];
            assert_eq!(node.format, format, "{version}/{file}");
            let names: Vec<String> = node.tables.iter().map(|t| t.qualified_name()).collect();
            assert_eq!(
                names,
                ["iot.devices", "iot.readings", "shop.cart_events"],
                "{version}/{file}"
            );
            let readings = &node.tables[1];
            // Findings point at the table's own line, in every format.
            let text = std::fs::read_to_string(dir.join(file)).expect("fixture");
            let at = text.lines().nth(readings.origin.line - 1).unwrap_or("");
            assert!(
                at.contains("readings"),
                "{version}/{file}: line {}: {at}",
                readings.origin.line
            );
            assert_eq!(readings.partition_max_bytes, Some(268_650_950));
            assert_eq!(readings.partition_mean_bytes, Some(31_004_522));
            assert_eq!(readings.partitions_estimate, Some(1520));
            assert_eq!(readings.local_write_count, Some(48_211_330));
            assert_eq!(readings.local_read_latency_ms, Some(38.211));
            assert_eq!(readings.space_used_live, Some(18_094_227_302));
            let cart = &node.tables[2];
            if version == "scylla-6.2" && format != InputFormat::TablestatsText {
                // The key holds the live-cells maximum there: dropped, not misread.
                assert_eq!(cart.max_tombstones_per_slice, None, "{version}/{file}");
                assert!(cart.max_tombstones_doubtful);
            } else {
                assert_eq!(
                    cart.max_tombstones_per_slice,
                    Some(5722.0),
                    "{version}/{file}"
                );
            }
            assert_eq!(cart.avg_tombstones_per_slice, Some(1204.4));
        }
        let h = parse_file(&dir.join("tablehistograms.txt"));
        let readings = &h.histograms[0];
        assert_eq!(readings.qualified_name(), "iot.readings");
        let p99 = readings.row(Percentile::P99).expect("a 99% row");
        assert_eq!(p99.partition_bytes, Some(129_557_750.0), "{version}");
        assert_eq!(p99.cell_count, Some(2_816_159.0));
        assert_eq!(
            p99.read_latency_us,
            Some(62_479.63),
            "{version}: column order"
        );
        assert_eq!(p99.sstables, Some(14.0), "{version}: column order");
    }
}

#[test]
fn top_partitions_sections_of_4_1_and_later_are_read() {
    for version in ["cassandra-4.1", "cassandra-5.0-written"] {
        for file in ["tablestats.txt", "tablestats.json", "tablestats.yaml"] {
            let parsed = parse_file(&nodetool_dir().join(version).join(file));
            let readings = &parsed.stats[0].tables[1];
            let top = readings.top_partitions_by_size.first();
            // 256.208 MiB as printed: the printer rounds to three decimals.
            assert_eq!(
                top.map(|(k, _)| k.as_str()),
                Some("dev-0042"),
                "{version}/{file}"
            );
            assert!(top.is_some_and(|(_, b)| b.abs_diff(268_650_950) < 1_000_000));
            let cart = &parsed.stats[0].tables[2];
            assert_eq!(
                cart.top_partitions_by_tombstones.first(),
                Some(&("cart-77f1".to_string(), 5722))
            );
        }
    }
}

#[test]
fn node_headers_split_one_input_into_nodes() {
    let parsed = parse_input(0, "all.txt", &data("three_nodes.txt"));
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    let nodes: Vec<&str> = parsed.stats.iter().map(|s| s.node.as_str()).collect();
    assert_eq!(nodes, ["node-a.txt", "node-b.txt", "node-c.txt"]);
    let live: Vec<Option<u64>> = parsed
        .stats
        .iter()
        .map(|s| s.tables[1].space_used_live)
        .collect();
    assert_eq!(
        live,
        [
            Some(18_094_227_302),
            Some(17_511_300_210),
            Some(54_282_681_906)
        ]
    );
}

#[test]
fn a_truncated_output_names_the_line_it_stopped_at_and_keeps_what_it_read() {
    let parsed = parse_input(0, "node1", &data("truncated.txt"));
    assert_eq!(parsed.problems.len(), 1, "{:?}", parsed.problems);
    let p = &parsed.problems[0];
    assert_eq!(p.line, 70);
    assert!(matches!(&p.kind, ProblemKind::Truncated { what, .. } if what == "table iot.readings"));
    let tables = &parsed.stats[0].tables;
    assert_eq!(tables.len(), 2);
    assert_eq!(tables[1].local_write_count, Some(48_211_330));
    // The lines after the cut were never read.
    assert_eq!(tables[1].partition_max_bytes, None);
}

#[test]
fn a_mixed_input_reports_the_foreign_line_and_reads_on() {
    let text = data("mixed.txt");
    let parsed = parse_input(0, "node1", &text);
    assert_eq!(parsed.problems.len(), 1, "{:?}", parsed.problems);
    let p = &parsed.problems[0];
    assert_eq!(p.line, 147);
    assert!(matches!(p.kind, ProblemKind::UnexpectedLine { .. }));
    assert_eq!(parsed.stats[0].tables.len(), 3);
    assert_eq!(parsed.histograms.len(), 2);
}

#[test]
fn sorted_tablestats_names_tables_with_their_keyspace() {
    let text = "Total number of tables: 9 (showing top 1 by writes)\n----------------\n\tTable: iot.readings\n\tSSTable count: 3\n\tLocal write count: 77\n\n----------------\n";
    let parsed = parse_input(0, "n", text);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    let t = &parsed.stats[0].tables[0];
    assert_eq!((t.keyspace.as_str(), t.table.as_str()), ("iot", "readings"));
    assert_eq!(t.local_write_count, Some(77));
}

#[test]
fn json_errors_carry_the_line_and_truncation_is_named() {
    let text = "{\n  \"total_number_of_tables\": 1,\n  \"iot\": {\n    \"tables\": {\n";
    let parsed = parse_input(0, "n", text);
    assert_eq!(parsed.problems.len(), 1);
    assert!(matches!(
        parsed.problems[0].kind,
        ProblemKind::Truncated { .. }
    ));
    assert_eq!(parsed.problems[0].line, 4);
    let text = "{\n  \"iot\": {\n    \"tables\": oops\n  }\n}\n";
    let parsed = parse_input(0, "n", text);
    assert!(matches!(
        parsed.problems[0].kind,
        ProblemKind::Syntax { .. }
    ));
    assert_eq!(parsed.problems[0].line, 3);
}

#[test]
fn text_that_is_no_nodetool_output_is_said_to_be_so() {
    let parsed = parse_input(0, "n", "SELECT * FROM ks.t;\n");
    assert!(matches!(
        parsed.problems.first().map(|p| &p.kind),
        Some(ProblemKind::UnknownFormat)
    ));
}

#[test]
fn a_histogram_cut_short_is_truncated() {
    let full = std::fs::read_to_string(nodetool_dir().join("cassandra-4.0/tablehistograms.txt"))
        .expect("fixture");
    let cut: String = full.lines().take(7).map(|l| format!("{l}\n")).collect();
    let parsed = parse_input(0, "n", &cut);
    assert_eq!(parsed.histograms[0].rows.len(), 3);
    assert!(matches!(
        parsed.problems.first().map(|p| (&p.kind, p.line)),
        Some((ProblemKind::Truncated { .. }, 7))
    ));
}

#[test]
fn an_input_with_nothing_readable_gets_one_problem() {
    let parsed = parse_input(
        0,
        "n",
        "CREATE TABLE ks.t (k int PRIMARY KEY);\n-- more\nSELECT 1;\n",
    );
    assert_eq!(parsed.problems.len(), 1, "{:?}", parsed.problems);
}

#[test]
fn index_tables_and_pre_3_labels_are_read() {
    let text = "Keyspace : ks\n\tRead Count: 0\n\t\tTable: t\n\t\tCompacted row maximum size: 2048\n\t\tNumber of keys (estimate): 12\n\n\t\tTable (index): t.t_idx\n\t\tSSTable count: 1\n\n----------------\n";
    let parsed = parse_input(0, "n", text);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    let tables = &parsed.stats[0].tables;
    assert_eq!(tables[0].partition_max_bytes, Some(2048));
    assert_eq!(tables[0].partitions_estimate, Some(12));
    assert!(tables[1].is_index);
    assert_eq!(tables[1].table, "t.t_idx");
}

#[test]
fn sorted_yaml_names_tables_with_their_keyspace() {
    let text = "total_number_of_tables: 4\niot.readings:\n  sstable_count: 3\n  compacted_partition_maximum_bytes: 4096\n  local_read_latency_ms: NaN\n";
    let parsed = parse_input(0, "n", text);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    let t = &parsed.stats[0].tables[0];
    assert_eq!(t.qualified_name(), "iot.readings");
    assert_eq!(t.partition_max_bytes, Some(4096));
    assert_eq!(t.local_read_latency_ms, None);
}

#[test]
fn a_bad_number_is_reported_and_the_rest_read() {
    let text = "Keyspace: ks\n\t\tTable: t\n\t\tSSTable count: many\n\t\tLocal write count: 5\n\n----------------\n";
    let parsed = parse_input(0, "n", text);
    assert_eq!(parsed.problems.len(), 1);
    assert_eq!(parsed.problems[0].line, 3);
    assert!(matches!(
        parsed.problems[0].kind,
        ProblemKind::BadNumber { .. }
    ));
    assert_eq!(parsed.stats[0].tables[0].local_write_count, Some(5));
}

#[test]
fn status_rows_are_read_with_their_ownership() {
    let parsed = parse_file(&nodetool_dir().join("cassandra-5.0-written/status.txt"));
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    let owns: Vec<(String, Option<f64>)> = parsed
        .status
        .iter()
        .map(|n| {
            (
                n.address.clone(),
                n.owns.map(|o| (o * 1000.0).round() / 1000.0),
            )
        })
        .collect();
    assert_eq!(
        owns,
        [
            ("10.0.0.1".to_string(), Some(0.279)),
            ("10.0.0.2".to_string(), Some(0.296)),
            ("10.0.0.3".to_string(), Some(0.425)),
        ]
    );
    assert!(!parsed.status[0].effective);
    assert_eq!(parsed.status[2].load_bytes, Some(54_277_649_203));
}

#[test]
fn a_byte_order_mark_and_crlf_line_ends_are_read() {
    let text = "\u{feff}Total number of tables: 1\r\n----------------\r\nKeyspace: ks\r\n\t\tTable: t\r\n\t\tSSTable count: 2\r\n\r\n----------------\r\n";
    let parsed = parse_input(0, "n", text);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    assert_eq!(parsed.stats[0].tables[0].sstable_count, Some(2));
}

/// `nodetool status` and `nodetool ring` captured from the 5.0.9 test node: the ring's
/// sixteen token rows fold into the one node status lists, with the same load and ownership.
#[test]
fn captured_ring_and_status_describe_the_same_node() {
    let read = |name: &str| {
        let path = nodetool_dir().join("cassandra-5.0").join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        parse_input(0, name, &text)
    };
    let (status, ring) = (read("status.txt"), read("ring.txt"));
    assert!(status.problems.is_empty() && ring.problems.is_empty());
    assert_eq!(status.status.len(), 1);
    assert_eq!(ring.status.len(), 1, "{:?}", ring.status);
    let (s, r) = (&status.status[0], &ring.status[0]);
    assert_eq!(
        (s.address.as_str(), r.address.as_str()),
        ("127.0.0.1", "127.0.0.1")
    );
    assert_eq!(
        (s.datacenter.as_str(), r.datacenter.as_str()),
        ("datacenter1", "datacenter1")
    );
    assert_eq!(s.tokens, Some(16));
    assert_eq!(r.tokens, Some(16), "one ring row per vnode");
    assert_eq!(s.state, "UN");
    assert_eq!(r.state, "UN");
    assert_eq!(s.load_bytes, r.load_bytes);
    assert_eq!(s.owns, Some(1.0));
    assert_eq!(r.owns, Some(1.0));
}
