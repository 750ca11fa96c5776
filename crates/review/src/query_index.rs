//! The query list arranged once per review for the rules that read it by
//! table and column: the writes and reads of each table, and every column an
//! UPDATE sets and how.

use std::collections::HashMap;

use cqlmodel_cql::ast::{AssignOp, AssignmentKind, Statement, StatementKind};

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
