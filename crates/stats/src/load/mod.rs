//! Reading a statistics file (TOML) and checking it against the schema: names
//! exist, numbers are numbers and agree with each other. Every problem found is
//! reported, each at its place in the file.

mod values;

use std::collections::BTreeMap;
use std::ops::Range;

use cqlmodel_schema::{ColumnKind, Schema, Table};
use toml::de::{DeTable, DeValue};

use crate::distribution::Distribution;
use crate::error::{StatsError, StatsErrorKind};
use crate::model::{ColumnStats, QueryStats, Retention, Stats, TableStats, Thresholds, Volume};
use values::{
    Errors, Value, format_number, read_bucket, read_bytes, read_distribution, read_duration,
    read_number, read_positive, read_rate, read_string, suggest, type_name,
};

const TOP_KEYS: &[&str] = &["table", "query", "thresholds"];
const TABLE_KEYS: &[&str] = &[
    "rows",
    "rows_per_second",
    "rows_per_day",
    "retention",
    "horizon",
    "query_span",
    "column",
];
const COLUMN_KEYS: &[&str] = &[
    "distinct",
    "distribution",
    "rate",
    "avg_size",
    "p99_size",
    "max_size",
    "avg_elements",
    "max_elements",
    "element_size",
    "bucket",
];
const QUERY_KEYS: &[&str] = &["rate_per_second", "table", "span"];
const THRESHOLD_KEYS: &[&str] = &["partition_bytes", "partition_rows"];

/// Reads a statistics file and checks it against `schema`.
///
/// All problems are returned together, sorted by position.
pub fn load_stats(text: &str, schema: &Schema) -> Result<Stats, Vec<StatsError>> {
    let doc = DeTable::parse(text).map_err(|e| {
        vec![StatsError::new(
            StatsErrorKind::Toml {
                message: e.message().trim().to_string(),
            },
            e.span().unwrap_or(0..0),
        )]
    })?;
    let mut errors = Errors::default();
    let mut stats = Stats::default();
    let mut queries: Vec<(String, QueryStats, Option<Range<usize>>)> = Vec::new();
    for (key, value) in doc.get_ref().iter() {
        match key.get_ref().as_ref() {
            "table" => {
                if let Some(tables) = as_table("table", value, &mut errors) {
                    read_tables(tables, schema, &mut stats, &mut errors);
                }
            }
            "query" => {
                if let Some(qs) = as_table("query", value, &mut errors) {
                    for (name, q) in qs.iter() {
                        let field = format!("query.{}", name.get_ref());
                        if let Some(q) = as_table(&field, q, &mut errors) {
                            let (query, table_span) = read_query(&field, q, schema, &mut errors);
                            queries.push((name.get_ref().to_string(), query, table_span));
                        }
                    }
                }
            }
            "thresholds" => {
                if let Some(t) = as_table("thresholds", value, &mut errors) {
                    stats.thresholds = read_thresholds(t, &mut errors);
                }
            }
            other => unknown_key("the file", other, key.span(), TOP_KEYS, &mut errors),
        }
    }
    attach_queries(&mut stats, queries);
    if errors.0.is_empty() {
        Ok(stats)
    } else {
        let mut all = errors.0;
        all.sort_by_key(|e| (e.span.start, e.span.end));
        Err(all)
    }
}

/// Query rates and spans become the request rate and read span of their table.
fn attach_queries(stats: &mut Stats, queries: Vec<(String, QueryStats, Option<Range<usize>>)>) {
    for (name, query, _) in queries {
        if let Some(table) = &query.table {
            let entry = stats.tables.entry(table.clone()).or_default();
            if let Some(rate) = query.rate_per_second {
                entry.request_rate = Some(entry.request_rate.unwrap_or(0.0) + rate);
            }
            if let Some(span) = query.span {
                entry.query_span = Some(entry.query_span.map_or(span, |s| s.max(span)));
            }
        }
        stats.queries.insert(name, query);
    }
}

fn as_table<'a, 'i>(
    field: &str,
    value: &'a Value<'i>,
    errors: &mut Errors,
) -> Option<&'a DeTable<'i>> {
    match value.get_ref() {
        DeValue::Table(t) => Some(t),
        other => {
            errors.push(
                StatsErrorKind::WrongType {
                    field: field.to_string(),
                    expected: "a table",
                    found: type_name(other),
                },
                value.span(),
            );
            None
        }
    }
}

fn unknown_key(
    section: &str,
    key: &str,
    span: Range<usize>,
    expected: &'static [&'static str],
    errors: &mut Errors,
) {
    errors.push(
        StatsErrorKind::UnknownKey {
            section: section.to_string(),
            key: key.to_string(),
            expected,
        },
        span,
    );
}

/// Finds the table a name in the file means: `ks.table`, or a bare name that only
/// one keyspace has.
fn resolve_table<'s>(name: &str, schema: &'s Schema) -> Result<&'s Table, StatsErrorKind> {
    let unquote = |s: &str| s.trim().trim_matches('"').to_string();
    if let Some((ks, t)) = name.split_once('.') {
        let (ks, t) = (unquote(ks), unquote(t));
        if let Some(table) = schema
            .table(&ks, &t)
            .or_else(|| schema.table(&ks.to_lowercase(), &t.to_lowercase()))
        {
            return Ok(table);
        }
    } else {
        let bare = unquote(name);
        let found: Vec<&Table> = schema
            .tables()
            .filter(|t| t.name == bare || t.name == bare.to_lowercase())
            .collect();
        match found.as_slice() {
            [one] => return Ok(one),
            [] => {}
            many => {
                return Err(StatsErrorKind::AmbiguousTable {
                    name: name.to_string(),
                    candidates: many.iter().map(|t| t.qualified_name()).collect(),
                });
            }
        }
    }
    let names: Vec<String> = schema.tables().map(Table::qualified_name).collect();
    let bare_names: Vec<&str> = schema.tables().map(|t| t.name.as_str()).collect();
    let suggestion = if name.contains('.') {
        suggest(name, names.iter().map(String::as_str))
    } else {
        suggest(name, bare_names)
    };
    Err(StatsErrorKind::UnknownTable {
        name: name.to_string(),
        suggestion,
    })
}

fn read_tables(tables: &DeTable<'_>, schema: &Schema, stats: &mut Stats, errors: &mut Errors) {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for (name, value) in tables.iter() {
        let written = name.get_ref().to_string();
        let table = match resolve_table(&written, schema) {
            Ok(t) => t,
            Err(kind) => {
                errors.push(kind, name.span());
                continue;
            }
        };
        let qualified = table.qualified_name();
        if let Some(first) = seen.insert(qualified.clone(), written.clone()) {
            errors.push(
                StatsErrorKind::DuplicateTable {
                    name: qualified,
                    first,
                    second: written,
                },
                name.span(),
            );
            continue;
        }
        let field = format!("table.\"{written}\"");
        let Some(section) = as_table(&field, value, errors) else {
            continue;
        };
        let mut table_stats = read_table(&field, section, table, errors);
        table_stats.span = Some(name.span());
        stats.tables.insert(qualified, table_stats);
    }
}

fn read_table(
    field: &str,
    section: &DeTable<'_>,
    table: &Table,
    errors: &mut Errors,
) -> TableStats {
    let mut out = TableStats::default();
    let mut rows: Option<(f64, Range<usize>)> = None;
    let mut growth: Option<(&'static str, f64, Range<usize>)> = None;
    let mut distincts: Vec<(String, f64, Range<usize>)> = Vec::new();
    for (key, value) in section.iter() {
        let name = key.get_ref().as_ref();
        let f = |k: &str| format!("{field}.{k}");
        match name {
            "rows" => {
                if let Some(v) = read_number(&f(name), value, 0.0, errors) {
                    rows = Some((v, value.span()));
                }
            }
            "rows_per_second" | "rows_per_day" => {
                let key_name = if name == "rows_per_second" {
                    "rows_per_second"
                } else {
                    "rows_per_day"
                };
                if let Some(v) = read_number(&f(name), value, 0.0, errors) {
                    let per_second = if name == "rows_per_day" {
                        v / 86_400.0
                    } else {
                        v
                    };
                    if let Some((other, _, _)) = &growth {
                        errors.push(
                            StatsErrorKind::Conflict {
                                first: (*other).to_string(),
                                second: key_name.to_string(),
                                why: "give the growth rate once",
                            },
                            key.span(),
                        );
                    } else {
                        growth = Some((key_name, per_second, key.span()));
                    }
                }
            }
            "retention" => out.retention = read_retention(&f(name), value, errors),
            "horizon" => out.horizon = read_duration(&f(name), value, errors),
            "query_span" => out.query_span = read_duration(&f(name), value, errors),
            "column" => {
                if let Some(columns) = as_table(&f(name), value, errors) {
                    read_columns(field, columns, table, &mut out, &mut distincts, errors);
                }
            }
            other => unknown_key(field, other, key.span(), TABLE_KEYS, errors),
        }
    }
    if let Some(volume) = table_volume(rows, growth, &distincts, errors) {
        out.volume = volume;
    }
    out
}

/// A column's distinct count, for the check against the table's rows.
type Distinct = (String, f64, Range<usize>);

/// The `column` section of a table: each column's statistics into `out`, and
/// its distinct count (with where it is written) into `distincts`.
fn read_columns(
    field: &str,
    columns: &DeTable<'_>,
    table: &Table,
    out: &mut TableStats,
    distincts: &mut Vec<Distinct>,
    errors: &mut Errors,
) {
    for (col_name, col_value) in columns.iter() {
        let cname = col_name.get_ref().to_string();
        let Some(column) = table
            .column(&cname)
            .or_else(|| table.column(&cname.to_lowercase()))
        else {
            errors.push(
                StatsErrorKind::UnknownColumn {
                    table: table.qualified_name(),
                    column: cname.clone(),
                    suggestion: suggest(&cname, table.columns.iter().map(|c| c.name.as_str())),
                },
                col_name.span(),
            );
            continue;
        };
        let cfield = format!("{field}.column.{cname}");
        let Some(col_section) = as_table(&cfield, col_value, errors) else {
            continue;
        };
        let is_partition_key = matches!(column.kind, ColumnKind::PartitionKey(_));
        let (stats, distinct_span) = read_column(&cfield, col_section, is_partition_key, errors);
        if let (Some(d), Some(span)) = (stats.distinct, distinct_span) {
            distincts.push((column.name.clone(), d, span));
        }
        out.columns.insert(column.name.clone(), stats);
    }
}

/// The table's volume: a fixed `rows` (no column may count more distinct
/// values) or a growth rate, never both; `None` when neither is given or both are.
fn table_volume(
    rows: Option<(f64, Range<usize>)>,
    growth: Option<(&'static str, f64, Range<usize>)>,
    distincts: &[Distinct],
    errors: &mut Errors,
) -> Option<Volume> {
    match (rows, growth) {
        (Some((_, rows_span)), Some((rate_key, _, _))) => {
            errors.push(
                StatsErrorKind::Conflict {
                    first: "rows".into(),
                    second: rate_key.into(),
                    why: "a table has either a fixed size (`rows`) or a growth rate",
                },
                rows_span,
            );
            None
        }
        (Some((rows, _)), None) => {
            for (column, distinct, span) in distincts {
                if *distinct > rows {
                    errors.push(
                        StatsErrorKind::Inconsistent {
                            message: format!(
                                "`{column}` has {} distinct values but the table has only {} rows",
                                format_number(*distinct),
                                format_number(rows)
                            ),
                        },
                        span.clone(),
                    );
                }
            }
            Some(Volume::Fixed { rows })
        }
        (None, Some((_, per_second, _))) => Some(Volume::Growth {
            rows_per_second: per_second,
        }),
        (None, None) => None,
    }
}

fn read_retention(field: &str, value: &Value<'_>, errors: &mut Errors) -> Retention {
    if let DeValue::String(s) = value.get_ref() {
        let lower = s.trim().to_ascii_lowercase();
        if matches!(lower.as_str(), "unbounded" | "none" | "forever") {
            return Retention::Unbounded;
        }
        if matches!(lower.as_str(), "ttl" | "table" | "default") {
            return Retention::TableDefault;
        }
    }
    read_duration(field, value, errors).map_or(Retention::TableDefault, Retention::Seconds)
}

/// One column's section; also returns where `distinct` was written (for the
/// distinct-versus-rows check of the table).
fn read_column(
    field: &str,
    section: &DeTable<'_>,
    is_partition_key: bool,
    errors: &mut Errors,
) -> (ColumnStats, Option<Range<usize>>) {
    let mut out = ColumnStats::default();
    let mut distinct_span = None;
    let mut spans: BTreeMap<&'static str, Range<usize>> = BTreeMap::new();
    let mut rate: Option<(f64, Range<usize>)> = None;
    for (key, value) in section.iter() {
        let name = key.get_ref().as_ref();
        let f = format!("{field}.{name}");
        let Some(&known) = COLUMN_KEYS.iter().find(|k| **k == name) else {
            unknown_key(field, name, key.span(), COLUMN_KEYS, errors);
            continue;
        };
        spans.insert(known, value.span());
        match known {
            "distinct" => {
                out.distinct = read_number(&f, value, 1.0, errors);
                distinct_span = Some(value.span());
            }
            "distribution" => out.distribution = read_distribution(&f, value, errors),
            "rate" => rate = read_rate(&f, value, errors).map(|r| (r, value.span())),
            "avg_size" => out.avg_size = read_number(&f, value, 0.0, errors),
            "p99_size" => out.p99_size = read_number(&f, value, 0.0, errors),
            "max_size" => out.max_size = read_number(&f, value, 0.0, errors),
            "avg_elements" => out.avg_elements = read_number(&f, value, 0.0, errors),
            "max_elements" => out.max_elements = read_number(&f, value, 0.0, errors),
            "element_size" => out.element_size = read_number(&f, value, 0.0, errors),
            "bucket" => {
                out.bucket = read_bucket(&f, value, errors);
                if !is_partition_key {
                    errors.push(
                        StatsErrorKind::Misplaced {
                            field: f,
                            why: "applies only to a partition-key column (the time bucket of the key)"
                                .into(),
                        },
                        key.span(),
                    );
                }
            }
            _ => {}
        }
    }
    // `rate = "1/s"` is another spelling of `distribution = "time(1/s)"`.
    if let Some((per_second, span)) = rate {
        match out.distribution {
            None | Some(Distribution::Time { .. }) => {
                out.distribution = Some(Distribution::Time { per_second });
            }
            Some(other) => errors.push(
                StatsErrorKind::Inconsistent {
                    message: format!(
                        "`{field}.rate` describes a time-based column but the distribution is `{other}`"
                    ),
                },
                span,
            ),
        }
    }
    let mut order = |small: &'static str, a: Option<f64>, large: &'static str, b: Option<f64>| {
        if let (Some(a), Some(b)) = (a, b)
            && a > b
        {
            let span = spans.get(small).cloned().unwrap_or(0..0);
            errors.push(
                StatsErrorKind::Inconsistent {
                    message: format!(
                        "`{field}.{small}` ({}) is greater than `{large}` ({})",
                        format_number(a),
                        format_number(b)
                    ),
                },
                span,
            );
        }
    };
    order("avg_size", out.avg_size, "max_size", out.max_size);
    order("p99_size", out.p99_size, "max_size", out.max_size);
    order(
        "avg_elements",
        out.avg_elements,
        "max_elements",
        out.max_elements,
    );
    (out, distinct_span)
}

fn read_query(
    field: &str,
    section: &DeTable<'_>,
    schema: &Schema,
    errors: &mut Errors,
) -> (QueryStats, Option<Range<usize>>) {
    let mut out = QueryStats::default();
    let mut table_span = None;
    for (key, value) in section.iter() {
        let name = key.get_ref().as_ref();
        let f = format!("{field}.{name}");
        match name {
            "rate_per_second" => out.rate_per_second = read_number(&f, value, 0.0, errors),
            "span" => out.span = read_duration(&f, value, errors),
            "table" => {
                if let Some(t) = read_string(&f, value, errors) {
                    match resolve_table(t, schema) {
                        Ok(table) => {
                            out.table = Some(table.qualified_name());
                            table_span = Some(value.span());
                        }
                        Err(kind) => errors.push(kind, value.span()),
                    }
                }
            }
            other => unknown_key(field, other, key.span(), QUERY_KEYS, errors),
        }
    }
    (out, table_span)
}

fn read_thresholds(section: &DeTable<'_>, errors: &mut Errors) -> Thresholds {
    let mut out = Thresholds::default();
    for (key, value) in section.iter() {
        let name = key.get_ref().as_ref();
        let f = format!("thresholds.{name}");
        match name {
            "partition_bytes" => {
                if let Some(v) = read_bytes(&f, value, errors) {
                    out.partition_bytes = v;
                }
            }
            "partition_rows" => {
                if let Some(v) = read_positive(&f, value, errors) {
                    out.partition_rows = v;
                }
            }
            other => unknown_key("thresholds", other, key.span(), THRESHOLD_KEYS, errors),
        }
    }
    out
}
