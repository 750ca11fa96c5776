//! The design at scale (issue 16): a 10,000-table pg_dump with one read per
//! table is designed and its files rendered in under 10 s on one core, and
//! the time grows linearly with the tables: twice the tables, at most 2.5 times
//! the time (a stage that scans every table for every table or read grows 4
//! times). Run in an optimized build, by hand:
//! `cargo test --profile bench -p cqlmodel --test design_scale -- --ignored --nocapture`.

use std::time::Duration;

use cqlmodel_design::{DesignInput, design, files};

#[path = "../benches/inputs/pg_dump.rs"]
mod pg_dump;

/// This thread's time on a CPU (`/proc/thread-self/schedstat`, nanoseconds),
/// when the system shows it: the time the work takes on one core, whatever
/// else the machine runs.
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// The CPU time of designing `n` tables and rendering every output file
/// (writing them is the kernel's time, not measured here).
fn design_cpu(n: usize) -> f64 {
    let (model, queries) = (pg_dump::dump(n), pg_dump::queries(n));
    let input = DesignInput {
        keyspace: "big",
        model_sql: &model,
        queries_sql: Some(&queries),
        stats_toml: None,
    };
    let started = cpu_time().expect("/proc/thread-self/schedstat: Linux only");
    let d = design(&input).expect("the generated dump designs");
    let rendered = files(&d);
    let spent = cpu_time().expect("schedstat").saturating_sub(started);
    assert_eq!(d.tables.len(), 2 * n, "a table by id and one by parent");
    assert!(
        rendered.len() > 2 * n,
        "one diagram per table and the reports"
    );
    spent.as_secs_f64()
}

#[test]
#[ignore = "a benchmark: run in an optimized build by hand"]
fn ten_thousand_tables_in_linear_time_under_ten_seconds() {
    let half = design_cpu(5_000);
    let full = design_cpu(10_000);
    println!(
        "design + render on one core: 5,000 tables {half:.2} s, 10,000 tables {full:.2} s ({:.2}×)",
        full / half
    );
    assert!(
        full < 10.0,
        "10,000 tables took {full:.2} s on one core (target 10 s)"
    );
    assert!(
        full / half < 2.5,
        "twice the tables took {:.2} times the time (5,000: {half:.2} s, 10,000: {full:.2} s): a stage grows faster than linearly",
        full / half
    );
}
