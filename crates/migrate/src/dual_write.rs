//! The application's statements on a rebuilt table, rewritten for the new one:
//! every write path gets its twin for the dual-write phase, every read its
//! replacement for the switch, each checked against NEW with Cassandra's rules.

use cqlmodel_cql::ast::{
    BindMarker, ColumnRef, Ident, InsertValues, Operator, QualifiedName, Relation, RelationKind,
    Selection, Selector, SelectorKind, Statement, StatementKind, Term, TermKind,
};
use cqlmodel_schema::access::{AccessKind, analyze};
use cqlmodel_schema::{ColumnKind, Schema};
use serde::Serialize;

use crate::column_map::{ColumnMap, ColumnSource};

/// One statement of the application, as the query list names it.
#[derive(Debug, Clone)]
pub struct AppStatement {
    pub name: String,
    pub statement: Statement,
    /// `@cl` of the query list.
    pub consistency: Option<String>,
    /// `@rate`, executions per second.
    pub rate: Option<f64>,
}

/// A statement of today and its counterpart on the new table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AppRewrite {
    pub name: String,
    pub old: String,
    /// On the plan's new table; `None` when it cannot be written for it.
    pub new: Option<String>,
    pub consistency: Option<String>,
    /// How NEW serves the new statement, or Cassandra's message refusing it.
    pub served: Option<String>,
    pub notes: Vec<String>,
    /// Why no twin could be derived for this write (the change then needs a decision).
    pub underivable: Option<String>,
}

/// What rewriting one statement for the new table gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Twin {
    Written,
    /// The statement touches nothing the new table has: no twin is needed.
    NotNeeded,
    /// cqlmodel cannot write it (the notes say why).
    Underivable,
}

/// The parts of a rebuild the rewriting needs.
pub struct RewriteCx<'a> {
    pub old_keyspace: &'a str,
    pub old_name: &'a str,
    pub plan_name: &'a str,
    pub name_in_new: &'a str,
    pub columns: &'a [ColumnMap],
    pub new_schema: &'a Schema,
}

fn table_of(s: &Statement) -> Option<&QualifiedName> {
    match &s.kind {
        StatementKind::Select(x) => Some(&x.table),
        StatementKind::Insert(x) => Some(&x.table),
        StatementKind::Update(x) => Some(&x.table),
        StatementKind::Delete(x) => Some(&x.table),
        _ => None,
    }
}

fn table_of_mut(s: &mut Statement) -> Option<&mut QualifiedName> {
    match &mut s.kind {
        StatementKind::Select(x) => Some(&mut x.table),
        StatementKind::Insert(x) => Some(&mut x.table),
        StatementKind::Update(x) => Some(&mut x.table),
        StatementKind::Delete(x) => Some(&mut x.table),
        _ => None,
    }
}

impl RewriteCx<'_> {
    /// True when the statement (or one statement of a batch) writes or reads the old table.
    pub fn touches(&self, s: &Statement) -> bool {
        match &s.kind {
            StatementKind::Batch(b) => b.statements.iter().any(|x| self.touches(x)),
            _ => table_of(s).is_some_and(|t| {
                t.name.value == self.old_name
                    && t.keyspace
                        .as_ref()
                        .is_none_or(|k| k.value == self.old_keyspace)
            }),
        }
    }

    /// The write for the new table (a batch keeps only its statements on the old table).
    pub fn rewrite(&self, app: &AppStatement) -> AppRewrite {
        let mut notes = Vec::new();
        let (rewritten, twin) = match &app.statement.kind {
            StatementKind::Batch(b) => {
                let mut b = b.clone();
                b.statements.retain(|x| self.touches(x));
                let mut twins = Vec::new();
                for x in &mut b.statements {
                    twins.push(self.rewrite_one(x, &mut notes));
                }
                let mut kept = twins.iter();
                b.statements.retain(|_| kept.next() == Some(&Twin::Written));
                let twin = if twins.contains(&Twin::Underivable) {
                    Twin::Underivable
                } else if b.statements.is_empty() {
                    Twin::NotNeeded
                } else {
                    Twin::Written
                };
                let s = Statement {
                    kind: StatementKind::Batch(b),
                    span: app.statement.span,
                };
                (s, twin)
            }
            _ => {
                let mut s = app.statement.clone();
                let twin = self.rewrite_one(&mut s, &mut notes);
                (s, twin)
            }
        };
        let mut rewritten = rewritten;
        if make_unconditional(&mut rewritten) {
            notes.push(UNCONDITIONAL_NOTE.into());
        }
        let is_write = !matches!(app.statement.kind, StatementKind::Select(_));
        let mut underivable = (twin == Twin::Underivable).then(|| notes.join("; "));
        let (new, served) = match twin {
            Twin::Written => {
                let served = self.served(&rewritten);
                if is_write && served.starts_with("Cassandra rejects it") {
                    underivable = Some(format!("the twin on the new table is refused: {served}"));
                }
                (
                    Some(format!("{};", self.named(&rewritten, self.plan_name))),
                    Some(served),
                )
            }
            Twin::NotNeeded | Twin::Underivable => (None, None),
        };
        AppRewrite {
            name: app.name.clone(),
            old: format!("{};", app.statement),
            new,
            consistency: app.consistency.clone(),
            served,
            notes,
            underivable,
        }
    }

    /// The statement with its old-table references renamed to `name`.
    fn named(&self, s: &Statement, name: &str) -> Statement {
        let mut s = s.clone();
        if let StatementKind::Batch(b) = &mut s.kind {
            for x in &mut b.statements {
                *x = self.named(x, name);
            }
            return s;
        }
        if let Some(t) = table_of_mut(&mut s) {
            t.keyspace = Some(Ident::new(self.old_keyspace));
            t.name = Ident::new(name);
        }
        s
    }

    /// How NEW serves the statement, in the words of `cqlmodel explain`.
    fn served(&self, s: &Statement) -> String {
        let s = self.named(s, self.name_in_new);
        let path = analyze(self.new_schema, &s, Some(self.old_keyspace));
        if let Some(e) = path.error {
            return format!("Cassandra rejects it: {}", e.message);
        }
        let kind = match path.kind {
            AccessKind::SinglePartition => "single-partition",
            AccessKind::MultiPartition => "multi-partition",
            AccessKind::RangeScan => "range-scan",
            AccessKind::Invalid => "invalid",
        };
        match path.partitions {
            Some(n) => format!("{kind}, {n} partition{}", if n == 1 { "" } else { "s" }),
            None => kind.to_string(),
        }
    }

    /// Rewrites one INSERT, UPDATE, DELETE or SELECT in place.
    fn rewrite_one(&self, s: &mut Statement, notes: &mut Vec<String>) -> Twin {
        let kept = |col: &str| self.columns.iter().any(|m| m.column == col && !m.key);
        match &mut s.kind {
            StatementKind::Insert(i) => match &mut i.values {
                InsertValues::Values { columns, values } => {
                    let (c, v) = self.insert_values(columns, values, notes);
                    *columns = c;
                    *values = v;
                    Twin::Written
                }
                InsertValues::Json { .. } => {
                    notes.push(
                        "INSERT JSON: the document must carry the new table's columns; cqlmodel does not rewrite JSON"
                            .into(),
                    );
                    Twin::Underivable
                }
            },
            StatementKind::Update(u) => {
                for a in &mut u.assignments {
                    let col = match &mut a.kind {
                        cqlmodel_cql::ast::AssignmentKind::Set { target, .. } => column_mut(target),
                        cqlmodel_cql::ast::AssignmentKind::SelfOp { column, .. }
                        | cqlmodel_cql::ast::AssignmentKind::Prepend { column, .. } => column,
                    };
                    self.rename(col, notes);
                }
                u.assignments.retain(|a| {
                    let col = match &a.kind {
                        cqlmodel_cql::ast::AssignmentKind::Set { target, .. } => target.column(),
                        cqlmodel_cql::ast::AssignmentKind::SelfOp { column, .. }
                        | cqlmodel_cql::ast::AssignmentKind::Prepend { column, .. } => column,
                    };
                    kept(&col.value)
                });
                if u.assignments.is_empty() {
                    notes.push(
                        "none of the columns it sets is in the new table: no twin is needed".into(),
                    );
                    return Twin::NotNeeded;
                }
                u.where_clause = self.key_relations(&u.where_clause, notes, true);
                Twin::Written
            }
            StatementKind::Delete(d) => {
                let named_columns = !d.columns.is_empty();
                for c in &mut d.columns {
                    self.rename(column_mut(c), notes);
                }
                d.columns.retain(|c| kept(&c.column().value));
                if named_columns && d.columns.is_empty() {
                    // An empty column list would delete the whole row of the new table.
                    notes.push(
                        "none of the columns it deletes is in the new table: no twin is needed"
                            .into(),
                    );
                    return Twin::NotNeeded;
                }
                d.where_clause = self.key_relations(&d.where_clause, notes, true);
                Twin::Written
            }
            StatementKind::Select(sel) => {
                if let Selection::Selectors(selectors) = &mut sel.selection {
                    for x in selectors {
                        self.rename_selector(x, notes);
                    }
                }
                for r in &mut sel.where_clause {
                    if let RelationKind::Column { column, .. }
                    | RelationKind::ColumnIn { column, .. }
                    | RelationKind::MapEntry { column, .. } = &mut r.kind
                    {
                        self.rename(column, notes);
                    }
                }
                sel.where_clause = self.key_relations(&sel.where_clause, notes, false);
                Twin::Written
            }
            _ => {
                notes.push(
                    "not an INSERT, UPDATE, DELETE or SELECT: cqlmodel does not rewrite it".into(),
                );
                Twin::Underivable
            }
        }
    }

    /// A regular column renamed by the rebuild (`--rename`) takes its new name.
    fn rename(&self, col: &mut Ident, notes: &mut Vec<String>) {
        let to = self
            .columns
            .iter()
            .find(|m| matches!(&m.source, ColumnSource::Renamed { from } if *from == col.value));
        if let Some(m) = to {
            notes.push(format!(
                "{} is written as {} (renamed, --rename)",
                col.value, m.column
            ));
            *col = Ident::new(m.column.clone());
        }
    }

    /// A read's selector with the renamed columns' new names, at any depth.
    fn rename_selector(&self, sel: &mut Selector, notes: &mut Vec<String>) {
        match &mut sel.kind {
            SelectorKind::Column(c)
            | SelectorKind::WriteTime(c)
            | SelectorKind::MaxWriteTime(c)
            | SelectorKind::Ttl(c) => self.rename(c, notes),
            SelectorKind::Function { args, .. } => {
                for a in args {
                    self.rename_selector(a, notes);
                }
            }
            SelectorKind::Cast { selector, .. }
            | SelectorKind::Field { selector, .. }
            | SelectorKind::Element { selector, .. }
            | SelectorKind::TypeHint { selector, .. }
            | SelectorKind::Negate(selector) => self.rename_selector(selector, notes),
            SelectorKind::Binary { left, right, .. } => {
                self.rename_selector(left, notes);
                self.rename_selector(right, notes);
            }
            SelectorKind::Tuple(items) | SelectorKind::List(items) | SelectorKind::Set(items) => {
                for a in items {
                    self.rename_selector(a, notes);
                }
            }
            SelectorKind::Map(entries) => {
                for (k, v) in entries {
                    self.rename_selector(k, notes);
                    self.rename_selector(v, notes);
                }
            }
            SelectorKind::CountStar | SelectorKind::Term(_) => {}
        }
    }

    /// The type of the new table's column `column`, as CQL text.
    fn type_of(&self, column: &str) -> Option<&str> {
        self.columns
            .iter()
            .find(|m| m.column == column)
            .map(|m| m.ty.as_str())
    }

    /// Whether `column` is a clustering column of the new table (a read need not fix it).
    fn is_new_clustering(&self, column: &str) -> bool {
        self.new_schema
            .table(self.old_keyspace, self.name_in_new)
            .and_then(|t| t.column(column))
            .is_some_and(|c| matches!(c.kind, ColumnKind::Clustering(..)))
    }

    fn insert_values(
        &self,
        columns: &[Ident],
        values: &[Term],
        notes: &mut Vec<String>,
    ) -> (Vec<Ident>, Vec<Term>) {
        let value_of = |name: &str| {
            columns
                .iter()
                .position(|c| c.value == name)
                .and_then(|i| values.get(i))
        };
        let mut out_c = Vec::new();
        let mut out_v = Vec::new();
        for m in self.columns {
            let value = match &m.source {
                ColumnSource::Same | ColumnSource::Converted { .. } => value_of(&m.column).cloned(),
                ColumnSource::Derived { from, expr } => value_of(from).map(|v| {
                    notes.push(format!(
                        "{} = {expr}: computed from the value bound to {from}",
                        m.column
                    ));
                    derived_term(expr, from, v, self.type_of(from))
                }),
                ColumnSource::Renamed { from } => value_of(from).map(|v| {
                    notes.push(format!(
                        "{}: the value bound to {from} (renamed, --rename)",
                        m.column
                    ));
                    v.clone()
                }),
                ColumnSource::Unknown if m.key => {
                    notes.push(format!(
                        "{}: the application computes it (cqlmodel cannot see how) and binds it",
                        m.column
                    ));
                    Some(marker())
                }
                ColumnSource::Unknown => None,
            };
            if let Some(v) = value {
                out_c.push(Ident::new(m.column.clone()));
                out_v.push(v);
            }
        }
        for c in columns {
            if !self.columns.iter().any(|m| m.column == c.value) {
                notes.push(format!(
                    "{}: the new table has no such column; not written",
                    c.value
                ));
            }
        }
        (out_c, out_v)
    }

    /// WHERE for the new table: relations on its key columns kept, derived key
    /// columns computed from the relation they derive from, missing ones bound.
    fn key_relations(
        &self,
        relations: &[Relation],
        notes: &mut Vec<String>,
        write: bool,
    ) -> Vec<Relation> {
        let column_of = |r: &Relation| match &r.kind {
            RelationKind::Column { column, .. }
            | RelationKind::ColumnIn { column, .. }
            | RelationKind::MapEntry { column, .. } => Some(column.value.clone()),
            _ => None,
        };
        let mut out: Vec<Relation> = relations
            .iter()
            .filter(|r| {
                column_of(r).is_none_or(|c| {
                    self.columns
                        .iter()
                        .any(|m| m.column == c && (m.key || !write))
                })
            })
            .cloned()
            .collect();
        for m in self.columns.iter().filter(|m| m.key) {
            if relations
                .iter()
                .any(|r| column_of(r).as_deref() == Some(&m.column))
            {
                continue;
            }
            // A read reads a slice of the partition: only a write needs its whole key.
            if !write && self.is_new_clustering(&m.column) {
                continue;
            }
            let eq_value = |col: &str| {
                relations.iter().find_map(|r| match &r.kind {
                    RelationKind::Column {
                        column,
                        op: Operator::Eq,
                        value,
                    } if column.value == col => Some(value.clone()),
                    _ => None,
                })
            };
            let value = match &m.source {
                ColumnSource::Derived { from, expr } => match eq_value(from) {
                    Some(v) => {
                        notes.push(format!(
                            "{} = {expr} of the value bound to {from}",
                            m.column
                        ));
                        derived_term(expr, from, &v, self.type_of(from))
                    }
                    None => {
                        notes.push(format!(
                            "{} = {expr}: {from} is not fixed by the statement, so the application \
                             binds every {} the range covers (an IN list, or one query each)",
                            m.column, m.column
                        ));
                        marker()
                    }
                },
                _ if write => {
                    notes.push(format!(
                        "needs {}: the statement does not say it, so the application reads it from the old row first (read before write)",
                        m.column
                    ));
                    marker()
                }
                _ => {
                    notes.push(format!("{}: the application binds it", m.column));
                    marker()
                }
            };
            out.push(Relation {
                kind: RelationKind::Column {
                    column: Ident::new(m.column.clone()),
                    op: Operator::Eq,
                    value,
                },
                span: Default::default(),
            });
        }
        out
    }
}

/// The note on a twin whose condition was removed.
pub const UNCONDITIONAL_NOTE: &str = "the twin drops the condition (IF …): whether the new table holds the row \
     depends on how far the backfill got, so the old table's condition decides; write the twin only when the \
     old statement applied";

/// Removes a write's lightweight-transaction condition; true when it had one.
/// During dual writing the new table is incomplete until the backfill ends, so a
/// condition evaluated on it (IF EXISTS on a row not yet copied) would drop writes.
pub fn make_unconditional(s: &mut Statement) -> bool {
    match &mut s.kind {
        StatementKind::Insert(i) => std::mem::replace(&mut i.if_not_exists, false),
        StatementKind::Update(u) => u.conditions.take().is_some(),
        StatementKind::Delete(d) => d.conditions.take().is_some(),
        StatementKind::Batch(b) => b
            .statements
            .iter_mut()
            .fold(false, |had, x| make_unconditional(x) | had),
        _ => false,
    }
}

fn column_mut(r: &mut ColumnRef) -> &mut Ident {
    match r {
        ColumnRef::Column(c) | ColumnRef::Element(c, _) | ColumnRef::Field(c, _) => c,
    }
}

fn marker() -> Term {
    Term {
        kind: TermKind::BindMarker(BindMarker::Anonymous),
        span: Default::default(),
    }
}

/// `todate(ts)` applied to the value bound to `ts`: `todate((timestamp)?)`,
/// `todate('2026-12-01 10:00')`. A bind marker carries `ts`'s type as a hint:
/// Cassandra refuses a bare `todate(?)` ("Ambiguous call to function todate":
/// it takes a timestamp or a timeuuid).
fn derived_term(expr: &str, from: &str, value: &Term, from_type: Option<&str>) -> Term {
    let quoted = crate::cql_text::quote(from);
    let value = match (&value.kind, from_type) {
        (TermKind::BindMarker(_), Some(ty)) => format!("({ty}){value}"),
        _ => value.to_string(),
    };
    let text = expr.replace(&format!("({quoted})"), &format!("({value})"));
    cqlmodel_cql::parse_term(&text).unwrap_or_else(|_| marker())
}
