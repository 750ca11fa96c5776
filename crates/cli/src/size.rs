//! `cqlmodel size SCHEMA --stats STATS.toml [--table KS.T] [--keyspace KS]`: partition sizes per
//! table from workload statistics, as `nodetool tablehistograms` would show them on
//! a live cluster, with the thresholds exceeded and what to change.
//!
//! Exit codes: 0 every table within the thresholds, 1 a table exceeds one, 2 bad
//! input (unreadable files, schema errors, a statistics file with a mistake).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cqlmodel_diagnostics::{Diagnostic, Severity, SourceMap, render_human, render_json};
use cqlmodel_schema::Schema;
use cqlmodel_stats::units::{format_bytes, format_count, format_duration};
use cqlmodel_stats::{
    Quantiles, RecommendationKind, SizeEstimate, Stats, TableStats, estimate_table,
};
use serde_json::{Value, json};

use crate::output::Model;
use crate::schema_load::{load_schema_in, load_stats_file};

/// What to size: the schema files, the statistics file, and the narrowing flags.
#[derive(Debug, Clone, Copy)]
pub struct SizeInputs<'a> {
    pub schema: &'a [PathBuf],
    pub stats: &'a Path,
    /// `--table`: only this table.
    pub table: Option<&'a str>,
    /// `--keyspace`: the keyspace a schema without one is read into, as
    /// `cqlsh -k KS -f schema.cql` would run it.
    pub keyspace: Option<&'a str>,
}

/// Runs `size` and returns (stdout, stderr, exit code).
pub fn run(inputs: SizeInputs<'_>, json: bool, color: bool) -> (String, String, u8) {
    run_once(inputs, json, color, &mut Model::unwanted())
}

/// [`run`], also filling `model` with the JSON document for the HTML page.
pub fn run_once(
    inputs: SizeInputs<'_>,
    json: bool,
    color: bool,
    model: &mut Model,
) -> (String, String, u8) {
    let mut sources = SourceMap::new();
    match estimate(inputs, &mut sources) {
        Ok((estimates, notes)) => {
            let code = u8::from(estimates.iter().any(|e| !e.exceeds.is_empty()));
            let document = model.document(json, || {
                Value::Array(estimates.iter().map(estimate_json).collect())
            });
            let out = document.unwrap_or_else(|| render_text(&estimates, color));
            // The notes are in each table's assumptions too; on stderr they
            // read as explain and review print them.
            let err = if json || notes.is_empty() {
                String::new()
            } else {
                render_human(&notes, &sources, color) + "\n"
            };
            (out, err, code)
        }
        Err(diags) => {
            if json {
                let mut text = serde_json::to_string_pretty(
                    &json!({ "errors": render_json(&diags, &sources) }),
                )
                .unwrap_or_default();
                text.push('\n');
                (text, String::new(), 2)
            } else {
                (String::new(), render_human(&diags, &sources, color), 2)
            }
        }
    }
}

/// Loads the inputs and estimates the requested tables, with the notes to
/// show beside them (the keyspace `--keyspace` assumed); any input problem is
/// a list of diagnostics.
fn estimate(
    inputs: SizeInputs<'_>,
    sources: &mut SourceMap,
) -> Result<(Vec<SizeEstimate>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let input_error = |e: &dyn std::fmt::Display| vec![Diagnostic::error("input", e.to_string())];
    let loaded =
        load_schema_in(inputs.schema, sources, inputs.keyspace).map_err(|e| input_error(&e))?;
    if loaded
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error)
    {
        return Err(loaded.diagnostics);
    }
    let stats = load_stats_file(inputs.stats, &loaded.schema, sources)?;
    let schema = &loaded.schema;
    let mut estimates = match inputs.table {
        Some(name) => {
            let missing = |m: String| vec![Diagnostic::error("input", m)];
            let qualified = resolve_in_keyspace(name, inputs.keyspace, schema).map_err(missing)?;
            let estimate = estimate_one(schema, &stats, &qualified)
                .ok_or_else(|| missing(format!("--table {name}: no such table in the schema")))?;
            vec![estimate]
        }
        None => cqlmodel_stats::estimate_all(schema, &stats),
    };
    let notes: Vec<Diagnostic> = loaded
        .diagnostics
        .into_iter()
        .filter(|d| d.code == ASSUMED_KEYSPACE)
        .collect();
    if let (Some(keyspace), false) = (inputs.keyspace, notes.is_empty()) {
        note_assumed_keyspace(&mut estimates, keyspace);
    }
    Ok((estimates, notes))
}

/// The code of the loader's info about a keyspace `--keyspace` assumed.
const ASSUMED_KEYSPACE: &str = "assumed-keyspace";

/// `--table t` with `--keyspace ks` means `ks.t` when that table exists, as
/// an unqualified name in `cqlsh -k ks` does; otherwise the usual lookup.
fn resolve_in_keyspace(
    name: &str,
    keyspace: Option<&str>,
    schema: &Schema,
) -> Result<String, String> {
    if let Some(ks) = keyspace.filter(|_| !name.contains('.'))
        && let Some(table) = schema.table(ks, name)
    {
        return Ok(table.qualified_name());
    }
    crate::schema_load::resolve_table(name, schema)
}

/// Each table of the assumed keyspace says so among its assumptions: its
/// figures do not depend on replication, but the reader should know the
/// keyspace came from the flag, not from the files.
fn note_assumed_keyspace(estimates: &mut [SizeEstimate], keyspace: &str) {
    let prefix = format!("{keyspace}.");
    for e in estimates
        .iter_mut()
        .filter(|e| e.table.starts_with(&prefix))
    {
        e.assumptions.push(format!(
            "keyspace {keyspace} is assumed (--keyspace): the schema files do not create it; its replication is unknown, which changes no figure here (sizes are per partition, before replication)"
        ));
    }
}

fn estimate_one(schema: &Schema, stats: &Stats, qualified: &str) -> Option<SizeEstimate> {
    let default = TableStats::default();
    let ts = stats.table(qualified).unwrap_or(&default);
    let (ks, name) = qualified.split_once('.')?;
    let table = schema.table(ks, name)?;
    Some(estimate_table(table, ts, &stats.thresholds))
}

/// A number for JSON: whole numbers as integers, others rounded to 3 decimals.
fn num(v: f64) -> Value {
    if !v.is_finite() {
        return Value::Null;
    }
    let rounded = v.round();
    if (v - rounded).abs() < 1e-9 && rounded.abs() < 9.0e15 {
        json!(rounded as i64)
    } else {
        json!((v * 1000.0).round() / 1000.0)
    }
}

fn quantiles_json(q: &Quantiles) -> Value {
    json!({
        "mean": num(q.mean), "p50": num(q.p50), "p75": num(q.p75), "p95": num(q.p95),
        "p98": num(q.p98), "p99": num(q.p99), "max": num(q.max),
    })
}

fn estimate_json(e: &SizeEstimate) -> Value {
    let exceeds: Vec<&str> = e.exceeds.iter().map(|x| x.name()).collect();
    let growth: Vec<Value> = e
        .growth
        .iter()
        .map(|g| {
            json!({
                "after": format_duration(g.age_seconds),
                "seconds": g.age_seconds,
                "partitions": num(g.sizes.partitions),
                "rows_per_partition": quantiles_json(&g.sizes.rows),
                "bytes_per_partition": quantiles_json(&g.sizes.bytes),
                "exceeds": g.exceeds.iter().map(|x| x.name()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let recommendation = e.recommendation.as_ref().map_or(Value::Null, |r| {
        let mut obj = json!({
            "read_fanout": r.read_fanout,
            "query_span": format_duration(r.query_span),
            "partitions": num(r.sizes.partitions),
            "rows_per_partition": quantiles_json(&r.sizes.rows),
            "bytes_per_partition": quantiles_json(&r.sizes.bytes),
            "summary": r.summary,
        });
        match r.kind {
            RecommendationKind::TimeBucket(unit) => {
                obj["kind"] = json!("time-bucket");
                obj["bucket"] = json!(unit.name());
            }
            RecommendationKind::Salt(n) => {
                obj["kind"] = json!("salt");
                obj["buckets"] = json!(n);
            }
        }
        obj
    });
    json!({
        "table": e.table,
        "sized_at": e.sized_at.map(format_duration),
        "partitions": num(e.sizes.partitions),
        "total_rows": num(e.sizes.total_rows),
        "rows_per_partition": quantiles_json(&e.sizes.rows),
        "bytes_per_partition": quantiles_json(&e.sizes.bytes),
        "cells_per_partition": quantiles_json(&e.sizes.cells),
        "formula": {
            "partition_key_bytes": num(e.formula.partition_key_bytes),
            "static_bytes": num(e.formula.static_bytes),
            "row_bytes": num(e.formula.row_bytes),
            "cells_per_row": num(e.formula.cells_per_row),
            "static_cells": num(e.formula.static_cells),
            "cell_overhead_bytes": num(e.formula.cell_overhead),
        },
        "thresholds": {
            "partition_bytes": num(e.thresholds.partition_bytes),
            "partition_rows": num(e.thresholds.partition_rows),
        },
        "exceeds": exceeds,
        "growth": growth,
        "recommendation": recommendation,
        "assumptions": e.assumptions,
    })
}

const BAR_WIDTH: usize = 32;

fn paint(text: &str, code: &str, color: bool) -> String {
    if color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

fn render_text(estimates: &[SizeEstimate], color: bool) -> String {
    let mut out = String::new();
    for (i, e) in estimates.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        render_table(&mut out, e, color);
    }
    let over = estimates.iter().filter(|e| !e.exceeds.is_empty()).count();
    let _ = writeln!(
        out,
        "\n{} table{}: {} within the thresholds, {} over",
        estimates.len(),
        if estimates.len() == 1 { "" } else { "s" },
        estimates.len() - over,
        over
    );
    out
}

fn render_table(out: &mut String, e: &SizeEstimate, color: bool) {
    let verdict = if e.exceeds.is_empty() {
        paint("ok", "32", color)
    } else {
        let names: Vec<&str> = e.exceeds.iter().map(|x| x.name()).collect();
        paint(&format!("EXCEEDS {}", names.join(", ")), "1;31", color)
    };
    let table = cqlmodel_diagnostics::escape_line(&e.table);
    let _ = writeln!(out, "{}  {verdict}", paint(&table, "1", color));
    let age = e
        .sized_at
        .map(|a| format!("sized after {} · ", format_duration(a)))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "  {age}{} partitions · {} rows · mean {} rows, {} per partition",
        format_count(e.sizes.partitions),
        format_count(e.sizes.total_rows),
        format_count(e.sizes.rows.mean),
        format_bytes(e.sizes.bytes.mean)
    );
    out.push('\n');
    histogram(out, e, color);
    let f = &e.formula;
    let _ = writeln!(
        out,
        "\n  St = {} (key) + {} (static) + Nr × {} (row) + Nv × {} B;  Nv = Nr × {} + {}",
        format_bytes(f.partition_key_bytes),
        format_bytes(f.static_bytes),
        format_bytes(f.row_bytes),
        f.cell_overhead,
        format_count(f.cells_per_row),
        format_count(f.static_cells)
    );
    if !e.growth.is_empty() {
        let _ = writeln!(
            out,
            "\n  {:<12}{:>12}{:>14}{:>14}",
            "growth", "partitions", "rows (max)", "size (max)"
        );
        for g in &e.growth {
            let flag = if g.exceeds.is_empty() {
                String::new()
            } else {
                let names: Vec<&str> = g.exceeds.iter().map(|x| x.name()).collect();
                paint(&format!("  over: {}", names.join(", ")), "31", color)
            };
            let _ = writeln!(
                out,
                "  {:<12}{:>12}{:>14}{:>14}{flag}",
                format!("after {}", format_duration(g.age_seconds)),
                format_count(g.sizes.partitions),
                format_count(g.sizes.rows.max),
                format_bytes(g.sizes.bytes.max)
            );
        }
    }
    if let Some(r) = &e.recommendation {
        let _ = writeln!(
            out,
            "\n  {} {}",
            paint("recommendation:", "1;33", color),
            r.summary
        );
        let _ = writeln!(
            out,
            "    then {} partitions; rows p99 {}, max {}; size p99 {}, max {}",
            format_count(r.sizes.partitions),
            format_count(r.sizes.rows.p99),
            format_count(r.sizes.rows.max),
            format_bytes(r.sizes.bytes.p99),
            format_bytes(r.sizes.bytes.max)
        );
    }
    let _ = writeln!(out, "\n  assumptions:");
    for a in &e.assumptions {
        let _ = writeln!(out, "    - {a}");
    }
}

/// The percentile table of `nodetool tablehistograms` with a bar per row: log-scaled
/// partition size, `|` marking the byte threshold.
fn histogram(out: &mut String, e: &SizeEstimate, color: bool) {
    let _ = writeln!(
        out,
        "  {:<10}{:>16}{:>12}{:>12}   partition size (log scale, | = {})",
        "Percentile",
        "Partition Size",
        "Row Count",
        "Cell Count",
        format_bytes(e.thresholds.partition_bytes)
    );
    let top = e.sizes.bytes.max.max(e.thresholds.partition_bytes).max(2.0);
    let scale = |v: f64| -> usize {
        let v = v.max(1.0);
        ((v.ln() / top.ln()) * BAR_WIDTH as f64)
            .round()
            .clamp(0.0, BAR_WIDTH as f64) as usize
    };
    let mark = scale(e.thresholds.partition_bytes);
    for ((label, bytes), ((_, rows), (_, cells))) in e
        .sizes
        .bytes
        .rows()
        .into_iter()
        .zip(e.sizes.rows.rows().into_iter().zip(e.sizes.cells.rows()))
    {
        let len = scale(bytes);
        let mut bar: String = (0..=BAR_WIDTH)
            .map(|i| {
                if i < len {
                    '#'
                } else if i == mark {
                    '|'
                } else {
                    ' '
                }
            })
            .collect();
        bar = bar.trim_end().to_string();
        let over = bytes > e.thresholds.partition_bytes || rows > e.thresholds.partition_rows;
        let bar = if over { paint(&bar, "31", color) } else { bar };
        let _ = writeln!(
            out,
            "  {label:<10}{:>16}{:>12}{:>12}   {bar}",
            format_bytes(bytes),
            format_count(rows),
            format_count(cells)
        );
    }
}
