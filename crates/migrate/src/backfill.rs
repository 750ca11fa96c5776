//! The backfill of a rebuild: copy the rows written before dual writing began,
//! each cell with its own write time and TTL, so that a copied value never
//! overwrites a newer dual-written one. The configurations are written from the
//! tools' documented options: cassandra-data-migrator (`cdm.properties`), DSBulk,
//! and a Spark Cassandra Connector job (`spark.rs`).

use std::fmt::Write as _;

use cqlmodel_schema::Table;
use cqlmodel_stats::{Stats, estimate_table};
use serde::Serialize;

use crate::column_map::{ColumnMap, ColumnSource};
use crate::cql_text::{qualified, quote};
use crate::target::Target;

/// The copy rate the hours are computed at: a conservative figure for one DSBulk
/// or CDM job against a small production cluster. Measure yours on a sample
/// (`dsbulk load --dryRun` does not write; a 1% copy does) and scale.
pub const ROWS_PER_SECOND: f64 = 20_000.0;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sizing {
    pub rows: f64,
    pub bytes: f64,
    pub rows_per_second: f64,
    pub hours: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Backfill {
    pub sizing: Option<Sizing>,
    /// The new columns the copy computes, and how.
    pub transformation: Vec<String>,
    /// cassandra-data-migrator can do the copy (it maps columns by name and cannot compute new ones).
    pub cdm_usable: bool,
    pub cdm_why: String,
    pub cdm_properties: String,
    /// DSBulk: one unload, one load per regular column (each with that column's write time).
    pub dsbulk: String,
    /// The same copy as a Spark Cassandra Connector job (Scala), always written.
    pub spark: String,
    pub caveats: Vec<String>,
    /// A counter table: counters are added once, with no write time or TTL to keep.
    pub counters: bool,
}

pub fn sizing(old: &Table, stats: Option<&Stats>) -> Option<Sizing> {
    let stats = stats?;
    let ts = stats.table(&old.qualified_name())?;
    let e = estimate_table(old, ts, &stats.thresholds);
    let rows = e.sizes.total_rows;
    Some(Sizing {
        rows,
        bytes: e.sizes.bytes.mean * e.sizes.partitions,
        rows_per_second: ROWS_PER_SECOND,
        hours: rows / ROWS_PER_SECOND / 3600.0,
    })
}

pub fn plan_backfill(
    old: &Table,
    new_keyspace: &str,
    new_table: &str,
    columns: &[ColumnMap],
    stats: Option<&Stats>,
    target: Target,
) -> Backfill {
    let transformation: Vec<String> = columns
        .iter()
        .filter_map(|m| match &m.source {
            ColumnSource::Derived { from, expr } => {
                Some(format!("{} = {expr} (from {from}; an assumption: check it is how the application computes {})", m.column, m.column))
            }
            ColumnSource::Renamed { from } => Some(format!(
                "{} = {from} (renamed, --rename): each value of {from} is copied into {} with its write time and TTL",
                m.column, m.column
            )),
            ColumnSource::Converted { from_type } => Some(format!(
                "{} converts from {from_type} to {}: a value that does not convert fails its row (DSBulk logs it in the operation's bad file)",
                m.column, m.ty
            )),
            ColumnSource::Unknown if m.key => Some(format!(
                "{}: no old column gives it; write the application's function into the load (cqlmodel cannot)",
                m.column
            )),
            _ => None,
        })
        .collect();
    let computes = columns.iter().any(|m| {
        m.key
            && matches!(
                m.source,
                ColumnSource::Derived { .. } | ColumnSource::Unknown
            )
    });
    let (cdm_usable, cdm_why) = if computes {
        (
            false,
            "the new key has a column computed from others; cassandra-data-migrator copies columns by name \
             (and renames) but computes none: use the DSBulk load below, whose INSERT computes it"
                .to_string(),
        )
    } else {
        (
            true,
            "every column of the new table exists in the old one: cassandra-data-migrator maps them by name, \
             even onto a different primary key"
                .to_string(),
        )
    };
    Backfill {
        sizing: sizing(old, stats),
        transformation,
        cdm_usable,
        cdm_why,
        cdm_properties: cdm_properties(old, new_keyspace, new_table, columns),
        dsbulk: dsbulk(old, new_keyspace, new_table, columns, target),
        spark: crate::spark::spark_job(old, new_keyspace, new_table, columns),
        caveats: caveats(old, columns, target),
        counters: old.is_counter_table(),
    }
}

fn regular_copied<'a>(old: &'a Table, columns: &'a [ColumnMap]) -> Vec<&'a str> {
    old.columns
        .iter()
        .filter(|c| !c.is_primary_key() && !c.ty.is_counter())
        .filter(|c| {
            columns
                .iter()
                .any(|m| !m.key && m.from() == Some(c.name.as_str()))
        })
        .map(|c| c.name.as_str())
        .collect()
}

fn cdm_properties(old: &Table, ks: &str, new_table: &str, columns: &[ColumnMap]) -> String {
    let regular = regular_copied(old, columns);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# cassandra-data-migrator: copy {} into {ks}.{new_table}.\n\
         # Migrate:  spark-submit --properties-file cdm.properties --class com.datastax.cdm.job.Migrate cassandra-data-migrator.jar\n\
         # Validate: the same with --class com.datastax.cdm.job.DiffData (phase 4)",
        old.qualified_name()
    );
    let _ = writeln!(
        s,
        "spark.cdm.connect.origin.host                    localhost"
    );
    let _ = writeln!(
        s,
        "spark.cdm.connect.target.host                    localhost"
    );
    let _ = writeln!(
        s,
        "spark.cdm.schema.origin.keyspaceTable            {}",
        old.qualified_name()
    );
    let _ = writeln!(
        s,
        "spark.cdm.schema.target.keyspaceTable            {ks}.{new_table}"
    );
    let _ = writeln!(
        s,
        "# The target row's write time and TTL: the largest of these columns' (CDM writes one per row)."
    );
    let _ = writeln!(
        s,
        "spark.cdm.schema.origin.column.writetime.names   {}",
        regular.join(",")
    );
    let _ = writeln!(
        s,
        "spark.cdm.schema.origin.column.ttl.names         {}",
        regular.join(",")
    );
    let renamed: Vec<String> = columns
        .iter()
        .filter_map(|m| match &m.source {
            ColumnSource::Renamed { from } => Some(format!("{from}:{}", m.column)),
            _ => None,
        })
        .collect();
    if !renamed.is_empty() {
        let _ = writeln!(
            s,
            "# Renamed columns (--rename), origin:target.\n\
             spark.cdm.schema.origin.column.names.to.target   {}",
            renamed.join(",")
        );
    }
    let _ = writeln!(
        s,
        "# Token-range slices the job works through; raise it for a large table."
    );
    let _ = writeln!(s, "spark.cdm.perfops.numParts                       5000");
    let _ = writeln!(
        s,
        "spark.cdm.perfops.ratelimit.origin               {}",
        ROWS_PER_SECOND as u64
    );
    let _ = writeln!(
        s,
        "spark.cdm.perfops.ratelimit.target               {}",
        ROWS_PER_SECOND as u64
    );
    let _ = writeln!(
        s,
        "# DiffData only: report differences, do not correct them."
    );
    let _ = writeln!(s, "spark.cdm.autocorrect.missing                    false");
    let _ = writeln!(s, "spark.cdm.autocorrect.mismatch                   false");
    s
}

fn dsbulk(old: &Table, ks: &str, new_table: &str, columns: &[ColumnMap], target: Target) -> String {
    // Cassandra 5.0 has maxwritetime() for a non-frozen collection; ScyllaDB
    // does not (its Cql.g selector takes WRITETIME and TTL only): its collections
    // are loaded at the dual-write start time.
    let scylla = target == Target::Scylla;
    if old.is_counter_table() {
        return dsbulk_counters(old, ks, new_table, columns);
    }
    let regular = regular_copied(old, columns);
    let keys: Vec<&str> = old
        .columns
        .iter()
        .filter(|c| c.is_primary_key())
        .map(|c| c.name.as_str())
        .collect();
    let mut select: Vec<String> = keys.iter().map(|k| quote(k)).collect();
    for r in &regular {
        let q = quote(r);
        select.push(q.clone());
        let multi = old.column(r).is_some_and(|c| c.ty.is_multi_cell());
        if multi && !scylla {
            select.push(format!("maxwritetime({q}) AS {r}_wt"));
        } else if !multi {
            select.push(format!("writetime({q}) AS {r}_wt"));
            select.push(format!("ttl({q}) AS {r}_ttl"));
        }
    }
    let dir = format!("unload/{}", old.qualified_name());
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# 1. Unload once (DSBulk splits a WHERE-less query by token range itself).\n\
         dsbulk unload -h localhost -url {dir} \\\n  -query \"SELECT {} FROM {}\"",
        select.join(", "),
        qualified(&old.keyspace, &old.name)
    );
    let key_maps: Vec<&ColumnMap> = columns.iter().filter(|m| m.key).collect();
    let insert = |extra: Option<&str>| -> (String, String) {
        let mut cols: Vec<String> = Vec::new();
        let mut vals: Vec<String> = Vec::new();
        for m in &key_maps {
            cols.push(quote(&m.column));
            vals.push(match &m.source {
                ColumnSource::Derived { from, expr } => {
                    expr.replace(&format!("({})", quote(from)), &format!("(:{from})"))
                }
                ColumnSource::Unknown => format!(":{}", m.column),
                _ => format!(":{}", m.column),
            });
        }
        if let Some(r) = extra
            && let Some(m) = columns.iter().find(|m| !m.key && m.from() == Some(r))
        {
            cols.push(quote(&m.column));
            vals.push(format!(":{r}"));
        }
        (cols.join(", "), vals.join(", "))
    };
    if regular.is_empty() {
        let (c, v) = insert(None);
        let _ = writeln!(
            s,
            "\n# 2. Load the keys at the time dual writing started (µs): a delete made since then wins.\n\
             dsbulk load -h localhost -url {dir} \\\n  -query \"INSERT INTO {} ({c}) VALUES ({v}) USING TIMESTAMP ${{DUAL_WRITE_START_MICROS}}\"",
            qualified(ks, new_table)
        );
        return s;
    }
    let _ = writeln!(
        s,
        "\n# 2. Load once per column, each with its own write time and remaining TTL\n\
         #    (schema.nullToUnset, on by default, writes nothing for a null cell)."
    );
    for r in &regular {
        let (c, v) = insert(Some(r));
        let multi = old.column(r).is_some_and(|c| c.ty.is_multi_cell());
        let using = if multi && scylla {
            "USING TIMESTAMP ${DUAL_WRITE_START_MICROS}".to_string()
        } else if multi {
            format!("USING TIMESTAMP :{r}_wt")
        } else {
            format!("USING TIMESTAMP :{r}_wt AND TTL :{r}_ttl")
        };
        let _ = writeln!(
            s,
            "dsbulk load -h localhost -url {dir} \\\n  -query \"INSERT INTO {} ({c}) VALUES ({v}) {using}\"",
            qualified(ks, new_table)
        );
    }
    s
}

/// Counters take no timestamp and no TTL: each is added to the new table once
/// (`c = c + old value`), keyed by the new table's key columns read from the old row.
fn dsbulk_counters(old: &Table, ks: &str, new_table: &str, columns: &[ColumnMap]) -> String {
    let dir = format!("unload/{}", old.qualified_name());
    let olds: Vec<String> = old.columns.iter().map(|c| quote(&c.name)).collect();
    let mut s = format!(
        "# 1. Unload the counters once (hold writes to the new table while the load runs).\n\
         dsbulk unload -h localhost -url {dir} \\\n  -query \"SELECT {} FROM {}\"\n",
        olds.join(", "),
        qualified(&old.keyspace, &old.name)
    );
    let key: Vec<String> = columns
        .iter()
        .filter(|m| m.key)
        .map(|m| {
            let value = match &m.source {
                ColumnSource::Derived { from, expr } => {
                    expr.replace(&format!("({})", quote(from)), &format!("(:{from})"))
                }
                _ => format!(":{}", m.column),
            };
            format!("{} = {value}", quote(&m.column))
        })
        .collect();
    let sets: Vec<String> = columns
        .iter()
        .filter(|m| !m.key && m.ty == "counter" && m.from().is_some())
        .map(|m| format!("{c} = {c} + :{c}", c = quote(&m.column)))
        .collect();
    s.push_str(&format!(
        "\n# 2. Add each counter once: a second run adds it again.\n\
         dsbulk load -h localhost -url {dir} \\\n  -query \"UPDATE {} SET {} WHERE {}\"\n",
        qualified(ks, new_table),
        sets.join(", "),
        key.join(" AND ")
    ));
    s
}

fn caveats(old: &Table, columns: &[ColumnMap], target: Target) -> Vec<String> {
    let mut out = vec![
        "Start the backfill only after every application instance dual-writes: rows written before \
         that moment are the backfill's, rows after are the dual write's."
            .to_string(),
        "Each copied cell keeps its write time (USING TIMESTAMP), so a newer dual-written value or \
         delete always wins over the copy; this is what makes the backfill safe to re-run."
            .to_string(),
        "The TTL read at unload is what remains: load soon after unloading, or cells outlive their \
         original expiry by the gap."
            .to_string(),
    ];
    if old.columns.iter().any(|c| c.ty.is_multi_cell()) && target == Target::Scylla {
        out.push(
            "Non-frozen collections: ScyllaDB has no maxwritetime(); they are loaded at the time dual \
             writing started, so a collection updated since then by the dual write still wins."
                .into(),
        );
    } else if old.columns.iter().any(|c| c.ty.is_multi_cell()) {
        out.push(
            "Non-frozen collections: every element has its own write time; the load uses the newest \
             (maxwritetime) for the whole collection and keeps no per-element TTL."
                .into(),
        );
    }
    let onto_new_type: Vec<&str> = columns
        .iter()
        .filter(|m| matches!(m.source, ColumnSource::Converted { .. }))
        .filter(|m| {
            old.column(&m.column)
                .is_some_and(|c| crate::type_rebuild::holds_user_type(&c.ty))
        })
        .map(|m| m.column.as_str())
        .collect();
    if !onto_new_type.is_empty() {
        out.push(format!(
            "{} move onto another user type: DSBulk and the Spark job map a value's fields by name and \
             convert each; cqlmodel has not checked that cassandra-data-migrator converts one user type \
             into another, so try it on a sample (DiffData) before the full copy.",
            onto_new_type.join(", ")
        ));
    }
    if old.is_counter_table() {
        out.push(
            "Counter table: counters have no USING TIMESTAMP and an increment is not idempotent: \
             copy each counter as `c = c + old_value` once, while writes to the new table are held, \
             or a re-run double-counts."
                .into(),
        );
    }
    out
}
