//! No input makes the parsers panic or lose their place: random text, and the
//! shipped outputs cut at any byte or with any line replaced.

use std::path::Path;

use cqlmodel_diagnose::{DiagnoseInput, ProblemKind, diagnose, parse_input};
use proptest::prelude::*;

fn fixture(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/nodetool")
        .join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn all_fixtures() -> Vec<String> {
    [
        "cassandra-4.0/tablestats.txt",
        "cassandra-4.1/tablestats.json",
        "cassandra-5.0-written/tablestats.yaml",
        "cassandra-5.0-written/tablehistograms.txt",
        "scylla-5.4/tablehistograms.txt",
        "scylla-6.2/tablestats.json",
    ]
    .iter()
    .map(|f| fixture(f))
    .collect()
}

fn run_all(text: &str) {
    let parsed = parse_input(0, "n", text);
    for p in &parsed.problems {
        assert!(p.line >= 1);
        assert!(p.span.end <= text.len());
    }
    let _ = diagnose(&DiagnoseInput {
        stats: &parsed.stats,
        histograms: &parsed.histograms,
        status: &parsed.status,
        schema: None,
        thresholds: cqlmodel_stats::Thresholds::default(),
        data_age: None,
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_text_never_panics(text in "\\PC{0,400}") {
        run_all(&text);
    }

    #[test]
    fn random_nodetool_like_lines_never_panic(
        lines in proptest::collection::vec(
            prop_oneof![
                Just("Total number of tables: 2".to_string()),
                Just("Keyspace : ks".to_string()),
                Just("\t\tTable: t".to_string()),
                Just("\t\tCompacted partition maximum bytes: NaN".to_string()),
                Just("----------------".to_string()),
                Just("ks/t histograms".to_string()),
                Just("Percentile  SSTables  Read Latency".to_string()),
                Just("99%   1.00  NaN".to_string()),
                Just("{\"ks\": {\"tables\": {\"t\": {}}}}".to_string()),
                Just("ks:".to_string()),
                Just("  tables:".to_string()),
                Just("- 1".to_string()),
                Just("==> n2 <==".to_string()),
                "[ -~\t]{0,40}",
            ],
            0..40,
        )
    ) {
        run_all(&lines.join("\n"));
    }

    #[test]
    fn fixtures_cut_anywhere_keep_a_prefix(which in 0usize..6, cut in 0.0f64..1.0) {
        let text = &all_fixtures()[which];
        let mut at = (text.len() as f64 * cut) as usize;
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        run_all(&text[..at]);
    }
}

#[test]
fn a_cut_text_output_is_always_reported() {
    let text = fixture("cassandra-5.0-written/tablestats.txt");
    // Every cut that ends after the first table starts and before the end.
    let first = text.find("Table:").expect("a table");
    for at in (first + 10..text.len() - 20).step_by(97) {
        if !text.is_char_boundary(at) {
            continue;
        }
        let parsed = parse_input(0, "n", &text[..at]);
        assert!(
            parsed
                .problems
                .iter()
                .any(|p| matches!(p.kind, ProblemKind::Truncated { .. })),
            "cut at {at} not reported: {:?}",
            parsed.problems
        );
    }
}
