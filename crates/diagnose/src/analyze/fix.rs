//! The key change that brings measured partitions under the limits, sized from
//! the measurements: a time bucket when the clustering is time-ordered and the
//! time a partition spans is known (the table's TTL, the age given with
//! `--data-age`, or the width of the bucket it already has), else a salt.
//!
//! Both aim at half the limit: what is measured today is not the most a
//! partition will hold, and half leaves room for it to double.

use cqlmodel_schema::types::{CqlType, NativeType};
use cqlmodel_schema::{ColumnKind, Schema, Table};
use cqlmodel_stats::BucketUnit;
use cqlmodel_stats::units::{format_bytes, format_count, format_duration};

use super::sketch::{KeyColumn, create_table, fresh_column, validate};

/// What was measured against the limits, worst case first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    /// Bytes of the partition to bring under the limit (p99, or max when only it is over).
    pub bytes: f64,
    /// Rows of the partition to bring under the limit (0 when unknown).
    pub rows: f64,
    pub limit_bytes: f64,
    pub limit_rows: f64,
}

impl Measured {
    /// How many times smaller partitions must get to sit at half the limits.
    pub fn factor(&self) -> u64 {
        let by_bytes = self.bytes / (self.limit_bytes / 2.0);
        let by_rows = self.rows / (self.limit_rows / 2.0);
        let f = by_bytes.max(by_rows).ceil();
        if f.is_finite() && f >= 2.0 {
            f as u64
        } else {
            2
        }
    }
}

/// The change, said in one paragraph, with its CREATE TABLE and whether
/// Cassandra accepts it.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub summary: String,
    pub cql: String,
    pub validation: Result<(), String>,
    pub notes: Vec<String>,
}

/// The first clustering column, when it orders rows by time.
pub fn time_column(table: &Table) -> Option<&cqlmodel_schema::Column> {
    table.columns.iter().find(|c| {
        matches!(c.kind, ColumnKind::Clustering(0, _))
            && matches!(
                c.ty,
                CqlType::Native(NativeType::Timestamp | NativeType::Timeuuid | NativeType::Date)
            )
    })
}

/// A partition-key column that already buckets by time, and its width.
pub fn existing_bucket(table: &Table) -> Option<(&str, BucketUnit)> {
    table.partition_key().find_map(|c| {
        let n = c.name.to_ascii_lowercase();
        let unit = ["minute", "hour", "day", "week", "month", "year"]
            .into_iter()
            .find(|u| n.contains(u))
            .and_then(BucketUnit::parse)
            .or_else(|| (c.ty == CqlType::Native(NativeType::Date)).then_some(BucketUnit::Day))?;
        Some((c.name.as_str(), unit))
    })
}

/// `PRIMARY KEY ((a, b), c, d)` as the schema has it.
pub fn key_text(table: &Table) -> String {
    let pk: Vec<&str> = table.partition_key().map(|c| c.name.as_str()).collect();
    let ck: Vec<&str> = table.clustering().map(|c| c.name.as_str()).collect();
    let mut s = format!("PRIMARY KEY (({})", pk.join(", "));
    for c in ck {
        s.push_str(", ");
        s.push_str(c);
    }
    s.push(')');
    s
}

/// The change for `table` whose partitions measure `m`.
pub fn propose(table: &Table, schema: &Schema, m: &Measured, data_age: Option<u64>) -> Change {
    let k = m.factor();
    let mut notes = Vec::new();
    let span = span_of(table, data_age, &mut notes);
    let time = time_column(table);
    if let (Some(col), Some((span, what))) = (time, span) {
        if let Some(change) = time_bucket(table, schema, m, k, &col.name, span, &what) {
            return Change { notes, ..change };
        }
        notes.push(format!(
            "no calendar bucket is narrow enough: {} / {k} is under a minute",
            format_duration(span)
        ));
    } else if time.is_some() {
        notes.push(
            "the clustering is time-ordered, but the time one partition spans is unknown (no TTL): give --data-age to size a time bucket instead of a salt".to_string(),
        );
    }
    Change {
        notes,
        ..salt(table, schema, m, k)
    }
}

/// The time one partition covers today, and how that is known.
fn span_of(table: &Table, data_age: Option<u64>, notes: &mut Vec<String>) -> Option<(u64, String)> {
    if let Some((col, unit)) = existing_bucket(table) {
        notes.push(format!(
            "the partition key already buckets by `{col}` (read as one {}): the bucket must get narrower",
            unit.name()
        ));
        return Some((unit.seconds(), format!("one `{col}` bucket")));
    }
    let ttl = table.options.default_time_to_live.filter(|t| *t > 0);
    match (ttl, data_age) {
        (Some(t), Some(a)) if a < t => {
            Some((a, format!("{} of data (--data-age)", format_duration(a))))
        }
        (Some(t), _) => Some((
            t,
            format!("{} of data (default_time_to_live)", format_duration(t)),
        )),
        (None, Some(a)) => Some((a, format!("{} of data (--data-age)", format_duration(a)))),
        (None, None) => None,
    }
}

#[allow(clippy::too_many_arguments)]
fn time_bucket(
    table: &Table,
    schema: &Schema,
    m: &Measured,
    k: u64,
    time_col: &str,
    span: u64,
    what: &str,
) -> Option<Change> {
    let width = span / k;
    let unit = BucketUnit::COARSEST_FIRST
        .into_iter()
        .find(|u| u.seconds() <= width)?;
    let shrink = unit.seconds() as f64 / span as f64;
    let name = fresh_column(table, unit.name());
    let added = KeyColumn {
        name: name.clone(),
        ty: "timestamp".to_string(),
        comment: format!(
            "start of the {} of `{time_col}`, set by the application",
            unit.name()
        ),
    };
    let new_name = format!("{}_by_{}", table.name, unit.name());
    let cql = create_table(table, &new_name, &added);
    let validation = validate(&cql, schema);
    Some(Change {
        summary: format!(
            "add a `{}` bucket to the partition key (`{name}`, the start of the {} of `{time_col}`): a partition holds {} instead of {what}, so {} becomes ≈{}{}; a read of one {} reads 1 partition, a range of N {}s reads N+1",
            unit.name(),
            unit.name(),
            format_duration(unit.seconds()),
            format_bytes(m.bytes),
            format_bytes(m.bytes * shrink),
            rows_after(m, shrink),
            unit.name(),
            unit.name(),
        ),
        cql,
        validation,
        notes: Vec::new(),
    })
}

fn salt(table: &Table, schema: &Schema, m: &Measured, k: u64) -> Change {
    let name = fresh_column(table, "bucket");
    let hashed: Vec<&str> = table.clustering().map(|c| c.name.as_str()).collect();
    let source = if hashed.is_empty() {
        "a column the writer knows".to_string()
    } else {
        format!("({})", hashed.join(", "))
    };
    let added = KeyColumn {
        name: name.clone(),
        ty: "int".to_string(),
        comment: format!("hash of {source} % {k}, set by the application"),
    };
    let new_name = format!("{}_salted", table.name);
    let cql = create_table(table, &new_name, &added);
    let validation = validate(&cql, schema);
    Change {
        summary: format!(
            "add a salt `{name}` = hash of {source} % {k} to the partition key: {} becomes ≈{}{}; reading one key reads all {k} partitions (IN or {k} parallel queries)",
            format_bytes(m.bytes),
            format_bytes(m.bytes / k as f64),
            rows_after(m, 1.0 / k as f64),
        ),
        cql,
        validation,
        notes: Vec::new(),
    }
}

fn rows_after(m: &Measured, shrink: f64) -> String {
    if m.rows > 0.0 {
        format!(
            " and {} rows ≈{}",
            format_count(m.rows),
            format_count(m.rows * shrink)
        )
    } else {
        String::new()
    }
}
