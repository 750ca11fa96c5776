//! One timed run of `design` on the bench inputs, for the README's figures and
//! for profiling (`perf record` on this binary) without criterion's repeats:
//!
//! ```sh
//! cargo run --release -p cqlmodel --example design_scale -- pg_dump 10000
//! cargo run --release -p cqlmodel --example design_scale -- synthetic 200
//! ```
//!
//! Prints the wall time and the CPU time of this thread (from
//! `/proc/thread-self/schedstat`, so other jobs on the machine do not inflate
//! it) for loading the model and for the whole design.

use std::time::{Duration, Instant};

use cqlmodel_design::{DesignInput, design, pgread::read_model};

#[path = "../benches/inputs/pg_dump.rs"]
mod pg_dump;
#[path = "../benches/inputs/synthetic.rs"]
mod synthetic;

/// Nanoseconds this thread has run on a CPU (Linux); none elsewhere.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Runs `f` and prints its wall and CPU time under `label`.
fn timed<T>(label: &str, f: impl FnOnce() -> T) -> T {
    let (wall, cpu) = (Instant::now(), thread_cpu());
    let out = f();
    let wall = wall.elapsed();
    let cpu = match (cpu, thread_cpu()) {
        (Some(a), Some(b)) => format!("{:.3} s", (b - a).as_secs_f64()),
        _ => "unknown".to_string(),
    };
    println!("{label}: wall {:.3} s, cpu {cpu}", wall.as_secs_f64());
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let kind = args.next().unwrap_or_else(|| "pg_dump".to_string());
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let (model, queries) = match kind.as_str() {
        "pg_dump" => (pg_dump::dump(n), pg_dump::queries(n)),
        "synthetic" => synthetic::synthetic_application(n),
        other => {
            eprintln!("usage: design_scale [pg_dump|synthetic] [TABLES] (not `{other}`)");
            std::process::exit(2);
        }
    };
    let statements = queries.matches(';').count();
    println!("{kind}: {n} tables, {statements} statements");
    let entities = timed("load the model", || read_model(&model).model.entities.len());
    println!("  {entities} entities");
    let input = DesignInput {
        keyspace: "big",
        model_sql: &model,
        queries_sql: Some(&queries),
        stats_toml: None,
    };
    match timed("design", || design(&input)) {
        Ok(d) => println!("  {} tables designed", d.tables.len()),
        Err(e) => {
            eprintln!("design failed: {e}");
            std::process::exit(1);
        }
    }
}
