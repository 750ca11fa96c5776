//! Findings on the shipped scenario: iot.readings is a time series keyed by
//! device alone (large, wide, skewed partitions, many SSTables per read, slow
//! reads); shop.cart_events deletes rows it later reads (tombstones).

use std::path::Path;

use cqlmodel_diagnose::{DiagnoseInput, Parsed, diagnose, parse_input};
use cqlmodel_diagnostics::{Diagnostic, Severity, SourceFile, SourceMap, render_human};
use cqlmodel_schema::{Schema, Settings, build_schema_with};
use cqlmodel_stats::Thresholds;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn schema() -> Schema {
    let text = read(&root().join("tests/data/schema.cql"));
    let parsed = cqlmodel_cql::parse(&text);
    assert!(parsed.errors.is_empty());
    let build = build_schema_with(Settings::default(), 0, &parsed.statements);
    assert!(build.errors.is_empty(), "{:?}", build.errors);
    build.schema
}

/// The 5.0 fixtures: tablestats (file 0) and tablehistograms (file 1).
fn inputs(sources: &mut SourceMap) -> Vec<Parsed> {
    let dir = root().join("../../tests/data/nodetool/cassandra-5.0-written");
    ["tablestats.txt", "tablehistograms.txt"]
        .iter()
        .map(|name| {
            let text = read(&dir.join(name));
            let file = sources.add(SourceFile::new(
                format!("cassandra-5.0-written/{name}"),
                text.clone(),
            ));
            parse_input(file, "node1", &text)
        })
        .collect()
}

fn run(schema: Option<&Schema>, data_age: Option<u64>) -> (Vec<Diagnostic>, SourceMap) {
    let mut sources = SourceMap::new();
    let parsed = inputs(&mut sources);
    let stats: Vec<_> = parsed.iter().flat_map(|p| p.stats.clone()).collect();
    let histograms: Vec<_> = parsed.iter().flat_map(|p| p.histograms.clone()).collect();
    let input = DiagnoseInput {
        stats: &stats,
        histograms: &histograms,
        status: &[],
        schema,
        thresholds: Thresholds::default(),
        data_age,
    };
    (diagnose(&input), sources)
}

fn codes(findings: &[Diagnostic], table: &str) -> Vec<(String, Severity)> {
    findings
        .iter()
        .filter(|d| d.table.as_deref() == Some(table))
        .map(|d| (d.code.clone(), d.severity))
        .collect()
}

#[test]
fn the_problem_tables_and_their_problems_are_named() {
    let schema = schema();
    let (findings, _) = run(Some(&schema), None);
    assert_eq!(
        codes(&findings, "iot.readings"),
        [
            ("DG001".to_string(), Severity::Error),
            ("DG002".to_string(), Severity::Error),
            ("DG003".to_string(), Severity::Warning),
            ("DG006".to_string(), Severity::Warning),
            ("DG007".to_string(), Severity::Warning),
            ("DG008".to_string(), Severity::Info),
        ]
    );
    assert_eq!(
        codes(&findings, "shop.cart_events"),
        [
            ("DG005".to_string(), Severity::Warning),
            ("DG008".to_string(), Severity::Info),
        ]
    );
    assert!(codes(&findings, "iot.devices").is_empty());
}

#[test]
fn the_fix_is_a_day_bucket_sized_from_the_measured_p99_and_the_ttl() {
    let schema = schema();
    let (findings, _) = run(Some(&schema), None);
    let large = &findings[0];
    assert_eq!(large.code, "DG001");
    assert!(
        large
            .notes
            .iter()
            .any(|n| n == "key: PRIMARY KEY ((device_id), ts)")
    );
    assert!(
        large
            .notes
            .iter()
            .any(|n| n.starts_with("reason: time series without a bucket")),
        "{:?}",
        large.notes
    );
    let fix = large.fix.as_ref().expect("a fix");
    assert!(
        fix.description.starts_with("add a `day` bucket"),
        "{}",
        fix.description
    );
    let cql = fix.replacement.as_deref().expect("CREATE TABLE");
    assert!(
        cql.starts_with("CREATE TABLE iot.readings_by_day ("),
        "{cql}"
    );
    assert!(cql.contains("PRIMARY KEY ((device_id, day), ts)"), "{cql}");
    assert!(cql.contains("WITH CLUSTERING ORDER BY (ts DESC)"), "{cql}");
    assert!(cql.contains("default_time_to_live = 7776000"), "{cql}");
    // The new table parses and Cassandra's rules accept it beside the old one.
    assert_eq!(cqlmodel_diagnose::analyze::validate(cql, &schema), Ok(()));
    assert!(
        large
            .help
            .as_deref()
            .is_some_and(|h| h.contains("cqlmodel migrate"))
    );
}

#[test]
fn a_short_data_age_gives_a_coarser_bucket() {
    let schema = schema();
    // 7 days of data in one partition: 129.6 MB and 1.4M rows over 7 days
    // need 29× smaller partitions: 7d / 29 = 5.8 h, so hours.
    let (findings, _) = run(Some(&schema), Some(7 * 86_400));
    let fix = findings[0].fix.as_ref().expect("a fix");
    assert!(
        fix.description.starts_with("add a `hour` bucket"),
        "{}",
        fix.description
    );
}

#[test]
fn without_a_time_span_the_fix_is_a_salt() {
    let text = read(&root().join("tests/data/schema.cql"))
        .replace("    AND default_time_to_live = 7776000", "");
    let parsed = cqlmodel_cql::parse(&text);
    let schema = build_schema_with(Settings::default(), 0, &parsed.statements).schema;
    let (findings, _) = run(Some(&schema), None);
    let fix = findings[0].fix.as_ref().expect("a fix");
    assert!(
        fix.description.starts_with("add a salt `bucket`"),
        "{}",
        fix.description
    );
    let cql = fix.replacement.as_deref().unwrap_or_default();
    assert!(
        cql.contains("PRIMARY KEY ((device_id, bucket), ts)"),
        "{cql}"
    );
    assert_eq!(cqlmodel_diagnose::analyze::validate(cql, &schema), Ok(()));
    assert!(findings[0].notes.iter().any(|n| n.contains("--data-age")));
}

#[test]
fn without_a_schema_findings_stand_and_ask_for_it() {
    let (findings, _) = run(None, None);
    let large = &findings[0];
    assert_eq!(large.code, "DG001");
    assert!(large.fix.is_none());
    assert!(
        large
            .help
            .as_deref()
            .is_some_and(|h| h.contains("--schema"))
    );
    // Cells counted as rows: an upper bound, so a warning, not an error.
    let wide = findings.iter().find(|d| d.code == "DG002").expect("DG002");
    assert_eq!(wide.severity, Severity::Warning);
}

#[test]
fn three_nodes_one_heavy_is_an_imbalance() {
    let text = read(&root().join("tests/data/three_nodes.txt"));
    let parsed = parse_input(0, "all", &text);
    let input = DiagnoseInput {
        stats: &parsed.stats,
        histograms: &[],
        status: &[],
        schema: None,
        thresholds: Thresholds::default(),
        data_age: None,
    };
    let findings = diagnose(&input);
    let imbalance = findings
        .iter()
        .find(|d| d.code == "DG004")
        .expect("an imbalance");
    assert_eq!(imbalance.table.as_deref(), Some("iot.readings"));
    assert!(
        imbalance.message.contains("node-c.txt"),
        "{}",
        imbalance.message
    );
    assert_eq!(findings.iter().filter(|d| d.code == "DG004").count(), 1);
}

#[test]
fn rendered_findings() {
    let schema = schema();
    let (findings, sources) = run(Some(&schema), None);
    insta::assert_snapshot!(render_human(&findings, &sources, false));
}

#[test]
fn scylla_json_tombstones_fall_back_to_the_mean_and_say_so() {
    let text = read(&root().join("../../tests/data/nodetool/scylla-6.2/tablestats.json"));
    let parsed = parse_input(0, "n1", &text);
    let input = DiagnoseInput {
        stats: &parsed.stats,
        histograms: &[],
        status: &[],
        schema: None,
        thresholds: Thresholds::default(),
        data_age: None,
    };
    let findings = diagnose(&input);
    let tomb = findings
        .iter()
        .find(|d| d.code == "DG005")
        .expect("tombstones found from the mean");
    assert!(tomb.message.contains("1.2k tombstones"), "{}", tomb.message);
    assert!(
        tomb.notes
            .iter()
            .any(|n| n.contains("the mean is used instead"))
    );
}

#[test]
fn uneven_ownership_is_its_own_finding() {
    let text = read(&root().join("../../tests/data/nodetool/cassandra-5.0-written/status.txt"));
    let parsed = parse_input(0, "status", &text);
    let input = DiagnoseInput {
        stats: &[],
        histograms: &[],
        status: &parsed.status,
        schema: None,
        thresholds: Thresholds::default(),
        data_age: None,
    };
    let findings = diagnose(&input);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0].code, "DG009");
    assert!(
        findings[0]
            .message
            .contains("10.0.0.3 owns 42.5% of the ring"),
        "{}",
        findings[0].message
    );
}

#[test]
fn with_even_ownership_an_imbalance_is_the_keys() {
    let stats = parse_input(0, "all", &read(&root().join("tests/data/three_nodes.txt")));
    let status = parse_input(
        1,
        "status",
        &read(&root().join("tests/data/status_even.txt")),
    );
    let input = DiagnoseInput {
        stats: &stats.stats,
        histograms: &[],
        status: &status.status,
        schema: None,
        thresholds: Thresholds::default(),
        data_age: None,
    };
    let findings = diagnose(&input);
    assert!(findings.iter().all(|d| d.code != "DG009"));
    let imbalance = findings.iter().find(|d| d.code == "DG004").expect("DG004");
    assert!(
        imbalance
            .help
            .as_deref()
            .is_some_and(|h| h.starts_with("token ownership is even")),
        "{:?}",
        imbalance.help
    );
}

/// Numbers read from a cluster's system tables name that source, not tablestats.
#[test]
fn a_live_largest_partition_names_the_system_view() {
    use cqlmodel_diagnose::{InputFormat, NodeStats, Origin, TableStats};
    let hot = TableStats {
        keyspace: "iot".to_string(),
        table: "readings".to_string(),
        partitions_estimate: Some(50),
        partition_mean_bytes: Some(600_000),
        partition_max_bytes: Some(21 * 1024 * 1024),
        ..TableStats::default()
    };
    let stats = vec![NodeStats {
        node: "10.0.0.1".to_string(),
        format: InputFormat::Cluster,
        tables: vec![hot],
        origin: Origin::default(),
    }];
    let schema = schema();
    let input = DiagnoseInput {
        stats: &stats,
        histograms: &[],
        status: &[],
        schema: Some(&schema),
        thresholds: Thresholds::default(),
        data_age: None,
    };
    let findings = diagnose(&input);
    let skew = findings
        .iter()
        .find(|d| d.code == "DG003")
        .unwrap_or_else(|| panic!("{findings:#?}"));
    assert!(
        skew.message
            .contains("10.0.0.1, system_views.max_partition_size"),
        "{}",
        skew.message
    );
}

#[test]
fn each_finding_carries_its_own_numbers() {
    let schema = schema();
    let mut sources = SourceMap::new();
    let parsed = inputs(&mut sources);
    let stats: Vec<_> = parsed.iter().flat_map(|p| p.stats.clone()).collect();
    let histograms: Vec<_> = parsed.iter().flat_map(|p| p.histograms.clone()).collect();
    let input = DiagnoseInput {
        stats: &stats,
        histograms: &histograms,
        status: &[],
        schema: Some(&schema),
        thresholds: Thresholds::default(),
        data_age: None,
    };
    let findings = cqlmodel_diagnose::diagnose_findings(&input);
    let of = |code: &str| {
        findings
            .iter()
            .find(|f| {
                f.diagnostic.code == code && f.diagnostic.table.as_deref() == Some("iot.readings")
            })
            .unwrap_or_else(|| panic!("{code} on iot.readings"))
    };
    let large = &of("DG001").evidence[0];
    assert_eq!((large.measure, large.statistic), ("partition_bytes", "p99"));
    assert_eq!(large.limit, Some(Thresholds::default().partition_bytes));
    assert!(
        large.value > Thresholds::default().partition_bytes,
        "{large:?}"
    );
    assert_eq!(large.node.as_deref(), Some("node1"));
    assert_eq!(large.source, "tablehistograms");
    assert!(
        of("DG001")
            .diagnostic
            .message
            .contains(&cqlmodel_stats::units::format_bytes(large.value)),
        "the message states the same figure"
    );
    let wide = &of("DG002").evidence[0];
    assert_eq!(
        (wide.measure, wide.unit),
        ("partition_rows", cqlmodel_diagnose::Unit::Rows)
    );
    assert!(wide.value > Thresholds::default().partition_rows);
    let skew = &of("DG003").evidence[0];
    assert!(skew.value >= 10.0 && skew.limit == Some(10.0), "{skew:?}");
    let sstables = &of("DG006").evidence[0];
    assert_eq!(sstables.limit, Some(10.0), "SSTables per read: p99 of 10");
    assert!(!of("DG007").evidence.is_empty());
    // Every table finding says what it measured.
    for f in findings.iter().filter(|f| f.diagnostic.table.is_some()) {
        assert!(
            !f.evidence.is_empty(),
            "{} has no figure",
            f.diagnostic.message
        );
    }
}
