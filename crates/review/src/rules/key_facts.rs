//! Facts the key- and size-rules read off the query list and the schema: which
//! table a statement writes, the columns an UPDATE sets and how, TTLs, and where
//! a finding about a column points.

use std::collections::HashMap;
use std::ops::Range;

use cqlmodel_cql::ast::{AssignOp, AssignmentKind, Statement, StatementKind, UsingParam};
use cqlmodel_schema::{Column, Table};

use crate::query::Query;

/// The single statements a query runs: itself, or each statement of its batch.
pub fn statements_of(q: &Query) -> Vec<&Statement> {
    match &q.statement.kind {
        StatementKind::Batch(b) => b.statements.iter().collect(),
        _ => vec![&q.statement],
    }
}

/// `ks.t` of a single statement of `q`; an unqualified name resolves against the
/// tables the access path found (which applied the session keyspace).
pub fn statement_table(q: &Query, stmt: &Statement) -> Option<String> {
    let name = match &stmt.kind {
        StatementKind::Select(s) => &s.table,
        StatementKind::Insert(s) => &s.table,
        StatementKind::Update(s) => &s.table,
        StatementKind::Delete(s) => &s.table,
        _ => return q.path.table.clone(),
    };
    if let Some(ks) = &name.keyspace {
        return Some(format!("{}.{}", ks.value, name.name.value));
    }
    let suffix = format!(".{}", name.name.value);
    q.path
        .table
        .iter()
        .chain(q.path.tables.iter())
        .find(|t| t.ends_with(&suffix))
        .cloned()
}

/// How an UPDATE changes a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// `c = v`, `c[k] = v`, `c.f = v`.
    Set,
    /// `c = c + v` (append, add, counter increment).
    Add,
    /// `c = c - v`.
    Remove,
    /// `c = v + c` (list prepend).
    Prepend,
}

/// One column an UPDATE of the query list sets.
#[derive(Debug, Clone)]
pub struct ColumnUpdate<'a> {
    pub query: &'a Query,
    /// `ks.t` the UPDATE writes.
    pub table: String,
    pub column: String,
    pub change: Change,
}

/// Every column set by an UPDATE (also inside batches) of the query list. Statements
/// Cassandra rejects are skipped: they change nothing.
fn column_updates(queries: &[Query]) -> Vec<ColumnUpdate<'_>> {
    let mut out = Vec::new();
    for q in queries.iter().filter(|q| q.path.error.is_none()) {
        for stmt in statements_of(q) {
            let StatementKind::Update(update) = &stmt.kind else {
                continue;
            };
            let Some(table) = statement_table(q, stmt) else {
                continue;
            };
            for a in &update.assignments {
                let (column, change) = match &a.kind {
                    AssignmentKind::Set { target, .. } => (target.column(), Change::Set),
                    AssignmentKind::SelfOp { column, op, .. } => (
                        column,
                        match op {
                            AssignOp::Add => Change::Add,
                            AssignOp::Sub => Change::Remove,
                        },
                    ),
                    AssignmentKind::Prepend { column, .. } => (column, Change::Prepend),
                };
                out.push(ColumnUpdate {
                    query: q,
                    table: table.clone(),
                    column: column.value.clone(),
                    change,
                });
            }
        }
    }
    out
}

/// True when a write statement sets a TTL (`USING TTL n`, n > 0, or a bind marker).
pub fn sets_ttl(stmt: &Statement) -> bool {
    let using: &[UsingParam] = match &stmt.kind {
        StatementKind::Insert(s) => &s.using,
        StatementKind::Update(s) => &s.using,
        _ => return false,
    };
    using.iter().any(|u| match u {
        UsingParam::Ttl(t) => t.to_string().trim() != "0",
        UsingParam::Timestamp(_) => false,
    })
}

/// The query list arranged for the key rules: the writes and reads of each table
/// and every column an UPDATE sets, built once per rule run so that a large
/// schema with a long query list is not rescanned table by table.
pub struct QueryIndex<'a> {
    writes: HashMap<String, Vec<(&'a Query, &'a Statement)>>,
    reads: HashMap<String, Vec<&'a Query>>,
    updates: Vec<ColumnUpdate<'a>>,
    /// Positions in `updates` by (table, column).
    updates_by_column: HashMap<(String, String), Vec<usize>>,
}

impl<'a> QueryIndex<'a> {
    /// Statements Cassandra rejects are left out: they read and write nothing.
    pub fn new(queries: &'a [Query]) -> Self {
        let mut writes: HashMap<String, Vec<(&'a Query, &'a Statement)>> = HashMap::new();
        let mut reads: HashMap<String, Vec<&'a Query>> = HashMap::new();
        for q in queries.iter().filter(|q| q.path.error.is_none()) {
            if q.is_read() {
                if let Some(t) = &q.path.table {
                    reads.entry(t.clone()).or_default().push(q);
                }
                continue;
            }
            for stmt in statements_of(q) {
                if matches!(
                    stmt.kind,
                    StatementKind::Insert(_) | StatementKind::Update(_)
                ) && let Some(t) = statement_table(q, stmt)
                {
                    writes.entry(t).or_default().push((q, stmt));
                }
            }
        }
        let updates = column_updates(queries);
        let mut updates_by_column: HashMap<(String, String), Vec<usize>> = HashMap::new();
        for (i, u) in updates.iter().enumerate() {
            updates_by_column
                .entry((u.table.clone(), u.column.clone()))
                .or_default()
                .push(i);
        }
        QueryIndex {
            writes,
            reads,
            updates,
            updates_by_column,
        }
    }

    /// The INSERT and UPDATE statements that write `table` (`ks.t`), with their query.
    pub fn writes_to(&self, table: &str) -> &[(&'a Query, &'a Statement)] {
        self.writes.get(table).map_or(&[], Vec::as_slice)
    }

    /// The SELECTs on `table`, in list order.
    pub fn reads_of(&self, table: &str) -> &[&'a Query] {
        self.reads.get(table).map_or(&[], Vec::as_slice)
    }

    /// Every column an UPDATE of the list sets.
    pub fn updates(&self) -> &[ColumnUpdate<'a>] {
        &self.updates
    }

    /// The UPDATEs that set `column` of `table`.
    pub fn updates_of<'s>(
        &'s self,
        table: &'s str,
        column: &'s str,
    ) -> impl Iterator<Item = &'s ColumnUpdate<'a>> + 's {
        self.updates_by_column
            .get(&(table.to_string(), column.to_string()))
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .filter_map(|i| self.updates.get(*i))
    }
}

/// Where a finding about `column` points: its definition in the CREATE statement,
/// or the statement itself when the definition has no position.
pub fn column_site(table: &Table, column: &Column) -> (usize, Range<usize>, u32) {
    let span = if column.origin.span.is_empty() || column.origin.file != table.origin.file {
        table.origin.span
    } else {
        column.origin.span
    };
    (table.origin.file, span.range(), table.origin.span.start)
}

/// `a, b` or `(a, b)`: the partition key as a PRIMARY KEY clause writes it.
pub fn partition_key_text(table: &Table) -> String {
    let names: Vec<&str> = table.partition_key().map(|c| c.name.as_str()).collect();
    match names.as_slice() {
        [one] => (*one).to_string(),
        many => format!("({})", many.join(", ")),
    }
}

/// A byte limit as configured: `1 MiB`, `100 MiB`, else decimal units (`1.5 MB`).
pub fn bytes_text(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        crate::stats::format_bytes(bytes as f64)
    }
}

/// A duration a person reads: `40 minutes`, `28 hours`, `12 days`, `3.2 years`.
pub fn about(seconds: f64) -> String {
    const MINUTE: f64 = 60.0;
    const HOUR: f64 = 3600.0;
    const DAY: f64 = 86_400.0;
    const YEAR: f64 = 365.0 * DAY;
    if !seconds.is_finite() {
        return "never".into();
    }
    if seconds >= 1000.0 * YEAR {
        return "more than 1,000 years".into();
    }
    let (value, unit) = if seconds < 2.0 * HOUR {
        ((seconds / MINUTE).round().max(1.0), "minute")
    } else if seconds < 2.0 * DAY {
        ((seconds / HOUR).round(), "hour")
    } else if seconds < YEAR {
        ((seconds / DAY).round(), "day")
    } else if seconds < 100.0 * YEAR {
        ((seconds / YEAR * 10.0).round() / 10.0, "year")
    } else {
        ((seconds / YEAR).round(), "year")
    };
    let plural = if value == 1.0 { "" } else { "s" };
    format!("{value} {unit}{plural}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_people_read() {
        assert_eq!(about(60.0), "1 minute");
        assert_eq!(about(100_000.0 / 1.0), "28 hours");
        assert_eq!(about(12.0 * 86_400.0), "12 days");
        assert_eq!(about(3.2 * 365.0 * 86_400.0), "3.2 years");
        assert_eq!(about(f64::INFINITY), "never");
        assert_eq!(about(250.4 * 365.0 * 86_400.0), "250 years");
        assert_eq!(about(2739.7 * 365.0 * 86_400.0), "more than 1,000 years");
    }

    #[test]
    fn ttl_literals_and_markers() {
        let stmt = |s: &str| cqlmodel_cql::parse_statement(s).expect("parses");
        assert!(sets_ttl(&stmt("INSERT INTO t (k) VALUES (1) USING TTL 60")));
        assert!(sets_ttl(&stmt("INSERT INTO t (k) VALUES (1) USING TTL ?")));
        assert!(!sets_ttl(&stmt("INSERT INTO t (k) VALUES (1) USING TTL 0")));
        assert!(!sets_ttl(&stmt(
            "INSERT INTO t (k) VALUES (1) USING TIMESTAMP 5"
        )));
        assert!(!sets_ttl(&stmt("INSERT INTO t (k) VALUES (1)")));
    }
}
