//! Facts about the query list that several rules read the same way: which table
//! a statement (or a batch's statement) writes, how fast a table is written and
//! read, which columns a WHERE clause fixes by `=`, TTLs, time-ordered columns.
//! Kept in one place so that, e.g., the write rate a view rule compares is the
//! one the compaction rule compares.

use cqlmodel_cql::ast::{
    BindMarker, InsertValues, NativeType, Operator, Relation, RelationKind, Statement,
    StatementKind, Term, TermKind, UsingParam,
};
use cqlmodel_schema::types::CqlType;
use cqlmodel_schema::{Column, Table};

use crate::context::Context;
use crate::query::Query;

pub(crate) use super::key_facts::statement_table;

/// The single statements a query runs: itself, or each statement of its batch.
pub(crate) fn single_statements(q: &Query) -> Vec<&Statement> {
    match &q.statement.kind {
        StatementKind::Batch(b) => b.statements.iter().collect(),
        _ => vec![&q.statement],
    }
}

/// Writes per second to `table` (`ks.t`) by the query list: each valid INSERT,
/// UPDATE, DELETE or batch statement on it counts its query's `@rate` once.
#[derive(Debug, Default)]
pub(crate) struct Load<'a> {
    /// Sum of the known rates.
    pub rate: f64,
    /// The queries with a rate, heaviest first, with the rate they contribute.
    pub rated: Vec<(&'a Query, f64)>,
    /// Queries on the table without a `@rate`.
    pub unrated: usize,
}

impl Load<'_> {
    /// "ingest 50,000/s, backfill 20/s"
    pub fn describe(&self) -> String {
        let rated: Vec<String> = self
            .rated
            .iter()
            .map(|(q, r)| format!("{} {}", q.name, format_rate(*r)))
            .collect();
        crate::listing::capped(&rated)
    }
}

pub(crate) fn write_load<'a>(cx: &Context<'a>, table: &str) -> Load<'a> {
    load(cx, table, Query::is_write)
}

pub(crate) fn read_load<'a>(cx: &Context<'a>, table: &str) -> Load<'a> {
    load(cx, table, Query::is_read)
}

fn load<'a>(cx: &Context<'a>, table: &str, keep: fn(&Query) -> bool) -> Load<'a> {
    let mut out = Load::default();
    for q in cx
        .queries_on_name(table)
        .filter(|q| keep(q) && q.path.error.is_none())
    {
        let hits = single_statements(q)
            .into_iter()
            .filter(|s| statement_table(q, s).as_deref() == Some(table))
            .count();
        if hits == 0 {
            continue;
        }
        match q.rate {
            Some(r) => {
                let contributed = r * hits as f64;
                out.rate += contributed;
                out.rated.push((q, contributed));
            }
            None => out.unrated += 1,
        }
    }
    out.rated.sort_by(|a, b| b.1.total_cmp(&a.1));
    out
}

/// The growth the statistics file gives a table (`rows_per_second`): every new
/// row is a write, so it is a floor on the write rate when no query has a `@rate`.
pub(crate) fn stats_growth(cx: &Context<'_>, table: &Table) -> Option<f64> {
    match cx.table_stats(table)?.volume {
        crate::stats::Volume::Growth { rows_per_second }
            if rows_per_second.is_finite() && rows_per_second > 0.0 =>
        {
            Some(rows_per_second)
        }
        _ => None,
    }
}

/// `2,000/s`, `0.5/s`.
pub(crate) fn format_rate(rate: f64) -> String {
    if rate >= 1.0 || rate == 0.0 {
        format!("{}/s", thousands(rate.round() as u64))
    } else {
        format!("{rate:.2}/s")
    }
}

/// `50000` → `50,000`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The columns a WHERE clause fixes with `=` (single-column relations only).
pub(crate) fn eq_columns(where_clause: &[Relation]) -> Vec<&str> {
    where_clause
        .iter()
        .filter_map(|r| match &r.kind {
            RelationKind::Column {
                column,
                op: Operator::Eq,
                ..
            } => Some(column.value.as_str()),
            _ => None,
        })
        .collect()
}

/// The columns a WHERE clause restricts by a slice (`<`, `>=`, ...), single or multi-column.
pub(crate) fn slice_columns(where_clause: &[Relation]) -> Vec<&str> {
    let mut out = Vec::new();
    for r in where_clause {
        match &r.kind {
            RelationKind::Column { column, op, .. } if op.is_slice() => {
                out.push(column.value.as_str())
            }
            RelationKind::MultiColumn { columns, op, .. } if op.is_slice() => {
                out.extend(columns.iter().map(|c| c.value.as_str()));
            }
            _ => {}
        }
    }
    out
}

/// The primary key columns of `table` named in `columns`, in key order.
pub(crate) fn key_columns_among<'t>(table: &'t Table, columns: &[&str]) -> Vec<&'t str> {
    table
        .columns
        .iter()
        .filter(|c| c.is_primary_key() && columns.contains(&c.name.as_str()))
        .map(|c| c.name.as_str())
        .collect()
}

/// True when every primary key column of `table` is among `columns`.
pub(crate) fn covers_primary_key(table: &Table, columns: &[&str]) -> bool {
    table
        .columns
        .iter()
        .filter(|c| c.is_primary_key())
        .all(|c| columns.contains(&c.name.as_str()))
}

/// The TTL a statement sets with `USING TTL`: `Some(None)` for a bind marker,
/// `Some(Some(n))` for a literal; `None` when it sets none (or `USING TTL 0`).
pub(crate) fn using_ttl(using: &[UsingParam]) -> Option<Option<u64>> {
    using.iter().find_map(|u| match u {
        UsingParam::Ttl(t) => match &t.kind {
            TermKind::Literal(cqlmodel_cql::ast::Literal::Integer(n)) => match n.parse::<u64>() {
                Ok(0) => None,
                Ok(n) => Some(Some(n)),
                Err(_) => Some(None),
            },
            _ => Some(None),
        },
        UsingParam::Timestamp(_) => None,
    })
}

pub(crate) fn has_using_timestamp(using: &[UsingParam]) -> bool {
    using.iter().any(|u| matches!(u, UsingParam::Timestamp(_)))
}

/// The `USING` clause of a single write statement.
pub(crate) fn write_using(stmt: &Statement) -> &[UsingParam] {
    match &stmt.kind {
        StatementKind::Insert(s) => &s.using,
        StatementKind::Update(s) => &s.using,
        StatementKind::Delete(s) => &s.using,
        _ => &[],
    }
}

/// The columns an INSERT names (empty for `INSERT ... JSON`).
pub(crate) fn insert_columns(values: &InsertValues) -> Vec<&str> {
    match values {
        InsertValues::Values { columns, .. } => columns.iter().map(|c| c.value.as_str()).collect(),
        InsertValues::Json { .. } => Vec::new(),
    }
}

/// Whether a column's values grow with time, so that rows clustered by it are
/// written in time order: time types, and integers named like timestamps.
pub(crate) fn is_time_ordered(column: &Column) -> bool {
    match &column.ty {
        CqlType::Native(
            NativeType::Timestamp | NativeType::Timeuuid | NativeType::Date | NativeType::Time,
        ) => true,
        CqlType::Native(NativeType::Bigint | NativeType::Int | NativeType::Varint) => {
            has_time_name(&column.name)
        }
        _ => false,
    }
}

fn has_time_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    ["ts", "time", "timestamp", "epoch", "millis"].contains(&n.as_str())
        || ["_ts", "_at", "_time", "_millis", "_epoch"]
            .iter()
            .any(|s| n.ends_with(s))
}

/// The first time-ordered clustering column of `table`.
pub(crate) fn time_clustering(table: &Table) -> Option<&Column> {
    table.clustering().find(|c| is_time_ordered(c))
}

/// Whether a statement uses named bind markers (`:name`): a marker added to it
/// must then be named too.
pub(crate) fn uses_named_markers(stmt: &Statement) -> bool {
    let text = stmt.to_string();
    // Display prints named markers as `:name`; a `:` elsewhere is inside a string or a map literal.
    text.char_indices().any(|(i, c)| {
        c == ':'
            && text
                .get(i + 1..)
                .and_then(|rest| rest.chars().next())
                .is_some_and(|n| n.is_ascii_alphabetic() || n == '_' || n == '"')
            && !inside_quotes(&text, i)
    })
}

fn inside_quotes(text: &str, at: usize) -> bool {
    text.get(..at)
        .is_some_and(|before| before.matches('\'').count() % 2 == 1)
}

/// A bind marker for a value a fix adds: `:name` when the statement names its markers, else `?`.
pub(crate) fn marker(named: bool, name: &str) -> Term {
    let kind = if named {
        BindMarker::Named(cqlmodel_cql::ast::Ident::new(name))
    } else {
        BindMarker::Anonymous
    };
    Term {
        kind: TermKind::BindMarker(kind),
        span: Default::default(),
    }
}

/// Where a finding about a schema object points: the object's name in its CREATE
/// statement (re-parsed from the source), else the statement's first line.
pub(crate) fn name_site(
    cx: &Context<'_>,
    origin: cqlmodel_schema::Origin,
) -> std::ops::Range<usize> {
    let whole = origin.span.range();
    let Some(text) = cx
        .sources
        .get(origin.file)
        .and_then(|f| f.text.get(whole.clone()))
    else {
        return whole;
    };
    let name_span = cqlmodel_cql::parse_statement(text)
        .ok()
        .and_then(|stmt| match stmt.kind {
            StatementKind::CreateTable(t) => Some(t.name.span),
            StatementKind::CreateMaterializedView(v) => Some(v.name.span),
            StatementKind::CreateKeyspace(k) => Some(k.name.span),
            _ => None,
        });
    match name_span {
        Some(s) if !s.is_empty() => whole.start + s.start as usize..whole.start + s.end as usize,
        _ => whole.start..whole.start + text.find('\n').unwrap_or(text.len()),
    }
}

/// The first line of a statement (a batch's `BEGIN ... BATCH`, say), as a byte range.
pub(crate) fn first_line(
    cx: &Context<'_>,
    file: usize,
    span: cqlmodel_cql::ast::Span,
) -> std::ops::Range<usize> {
    let whole = span.range();
    let text = cx
        .sources
        .get(file)
        .and_then(|f| f.text.get(whole.clone()))
        .unwrap_or_default();
    let end = text.find('\n').map_or(text.len(), |i| {
        text.get(..i).map_or(i, |l| l.trim_end().len())
    });
    whole.start..whole.start + end
}

/// The span of property `name`'s value in the table's CREATE statement, when the
/// value was written there (an ALTER elsewhere may have set it).
pub(crate) fn option_span(table: &Table, name: &str) -> Option<std::ops::Range<usize>> {
    let (_, term) = table.options.raw.iter().rev().find(|(n, _)| n == name)?;
    let span = term.span;
    let origin = table.origin.span;
    (!span.is_empty() && span.start >= origin.start && span.end <= origin.end).then(|| span.range())
}

/// Whether the query's name or the table's name contains one of `words`.
pub(crate) fn name_hints(names: &[&str], words: &[&str]) -> bool {
    names.iter().any(|n| {
        let n = n.to_ascii_lowercase();
        words.iter().any(|w| n.contains(w))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(50_000), "50,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(format_rate(0.5), "0.50/s");
        assert_eq!(format_rate(2000.0), "2,000/s");
    }

    #[test]
    fn time_names() {
        assert!(has_time_name("ts"));
        assert!(has_time_name("created_at"));
        assert!(has_time_name("event_time"));
        assert!(!has_time_name("status"));
        assert!(!has_time_name("tsunami"));
    }

    #[test]
    fn named_markers_are_found_outside_strings() {
        let named =
            cqlmodel_cql::parse_statement("UPDATE ks.t SET v = :v WHERE k = :k").expect("parses");
        let anonymous =
            cqlmodel_cql::parse_statement("UPDATE ks.t SET v = 'a:b' WHERE k = ?").expect("parses");
        assert!(uses_named_markers(&named));
        assert!(!uses_named_markers(&anonymous));
    }

    #[test]
    fn using_ttl_reads_literals_and_markers() {
        let stmt = |s: &str| cqlmodel_cql::parse_statement(s).expect("parses");
        let ttl = |s: &str| using_ttl(write_using(&stmt(s)));
        assert_eq!(
            ttl("INSERT INTO t (k) VALUES (1) USING TTL 60"),
            Some(Some(60))
        );
        assert_eq!(ttl("INSERT INTO t (k) VALUES (1) USING TTL ?"), Some(None));
        assert_eq!(ttl("INSERT INTO t (k) VALUES (1) USING TTL 0"), None);
        assert_eq!(ttl("INSERT INTO t (k) VALUES (1)"), None);
    }
}
