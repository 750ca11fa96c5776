//! The CPU time (not wall time: the build machine is shared) of parsing
//! tablestats of 5,000 tables on each of 12 nodes, read from the kernel's
//! per-thread run-time counter. Linux only. Run with
//! `cargo run --release -p cqlmodel-diagnose --example parse_cpu`.

#[path = "../benches/generate.rs"]
mod generate;

use cqlmodel_diagnose::{DiagnoseInput, diagnose, parse_input};
use generate::{NODES, TABLES, text};

/// Nanoseconds this thread has run on a CPU (`/proc/thread-self/schedstat`).
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let inputs: Vec<String> = (0..NODES).map(text).collect();
    let mb = inputs.iter().map(String::len).sum::<usize>() as f64 / 1e6;
    for round in 1..=3 {
        let start = cpu_ns();
        let parsed: Vec<_> = inputs
            .iter()
            .enumerate()
            .map(|(i, t)| parse_input(i, &format!("node{i}"), t))
            .collect();
        let parse_ns = cpu_ns() - start;
        let tables: usize = parsed
            .iter()
            .map(|p| p.stats.iter().map(|s| s.tables.len()).sum::<usize>())
            .sum();
        assert_eq!(tables, TABLES * NODES);
        let stats: Vec<_> = parsed.into_iter().flat_map(|p| p.stats).collect();
        let start = cpu_ns();
        let findings = diagnose(&DiagnoseInput {
            stats: &stats,
            histograms: &[],
            status: &[],
            schema: None,
            thresholds: cqlmodel_stats::Thresholds::default(),
            data_age: None,
        });
        let diagnose_ns = cpu_ns() - start;
        println!(
            "round {round}: parse {TABLES} tables x {NODES} nodes ({mb:.1} MB): {:.0} ms CPU; diagnose: {:.0} ms CPU ({} findings)",
            parse_ns as f64 / 1e6,
            diagnose_ns as f64 / 1e6,
            findings.len()
        );
    }
}
