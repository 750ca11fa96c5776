use cqlmodel_cql::ast::{
    Assignment, AssignmentKind, BindMarker, ColumnRef, Condition, Conditions, Ident, Insert,
    InsertValues, NativeType, Operator, Relation, RelationKind, Select, Selection, SelectorKind,
    Span, Statement, StatementKind, TermKind, Update,
};
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::types::CqlType;
use cqlmodel_schema::{Column, Table};

use super::query_facts::{
    covers_primary_key, eq_columns, insert_columns, key_columns_among, marker, name_hints,
    single_statements, statement_table, time_clustering, uses_named_markers,
};
use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;
use crate::query::Query;

declare_rule! {
    /// ## What it does
    /// Finds writes that depend on a value the application read first, without
    /// a lightweight transaction or a counter:
    ///
    /// - check-then-insert: a SELECT of a row by its full primary key that only
    ///   checks existence (it selects key columns or `count(*)`, or its name says
    ///   `exists` / `check` / `taken` / `available` / `unique`), and an INSERT of
    ///   the same table without `IF NOT EXISTS`;
    /// - read-modify-write: a SELECT that names a numeric or collection column
    ///   (a balance, a stock level, a sequence number, a list) and an UPDATE or
    ///   INSERT that sets that column on the same key without an `IF` condition.
    ///
    /// The pairing is a heuristic: same table, and both statements restrict the
    /// same primary key columns. An INSERT annotated `@new-row` writes a row
    /// under a key just generated and is not paired (unless `@after` says so). An INSERT into a table clustered by time adds an
    /// event row and is not paired as a read-modify-write. Text and other scalar columns are left alone (an
    /// edit form that overwrites a name is last-write-wins by design). A write
    /// annotated `@after NAME`, where NAME is a read of the same table, is always
    /// paired with that read.
    ///
    /// ## Evidence
    /// The query list: a read and a write of the same table restricting the same
    /// key. A check-then-insert, a write annotated `@after READ`, a collection, or
    /// a column named like a running value (`balance`, `stock`, `count`, `seq`,
    /// `next_id`, `version`...) is a warning; any other pairing is a question
    /// (info): annotate the write `@after READ` to confirm it.
    ///
    /// ## Why is this bad?
    /// Cassandra's writes are upserts with last-write-wins: nothing makes the
    /// read and the write atomic. Two clients that read the same balance both
    /// write their result and one update is silently lost; two sign-ups that both
    /// found the user name free both insert, and the second overwrites the first
    /// account.
    ///
    /// ## Example
    /// ```cql
    /// -- @name get_balance
    /// SELECT balance FROM bank.accounts WHERE account_id = ?;
    /// -- @name set_balance
    /// UPDATE bank.accounts SET balance = ? WHERE account_id = ?;
    /// ```
    ///
    /// ## Use instead
    /// A lightweight transaction that checks the value read (retry on
    /// `[applied] = false`), `IF NOT EXISTS` for a uniqueness check, or a
    /// counter column for a running count:
    /// ```cql
    /// UPDATE bank.accounts SET balance = ? WHERE account_id = ? IF balance = ?;
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Lightweight transactions" (`IF` conditions on INSERT/UPDATE)
    /// - Apache Cassandra documentation, "Counters"
    pub static READ_BEFORE_WRITE = {
        code: "CQL019",
        name: "read-before-write",
        severity: Warning,
        summary: "A write derived from a read without LWT or a counter (lost updates)",
        check: check,
    };
}

/// Words in a read's name that mark an existence check.
const CHECK_WORDS: &[&str] = &["exist", "check", "taken", "avail", "unique", "dup"];

fn check(cx: &Context<'_>, out: &mut Findings) {
    for table in cx
        .tables()
        .filter(|t| !t.is_view() && !t.is_counter_table())
    {
        let name = table.qualified_name();
        let reads: Vec<(&Query, &Select)> = cx
            .queries_on(table)
            .filter(|q| q.path.error.is_none())
            .filter_map(|q| match &q.statement.kind {
                StatementKind::Select(s) => Some((q, s)),
                _ => None,
            })
            .collect();
        if reads.is_empty() {
            continue;
        }
        for q in cx
            .queries_on(table)
            .filter(|q| q.path.error.is_none() && q.is_write())
        {
            for stmt in single_statements(q) {
                if statement_table(q, stmt).as_deref() != Some(name.as_str()) {
                    continue;
                }
                if let Some(pair) = reads.iter().find_map(|(r, s)| pair(table, q, stmt, r, s)) {
                    report(out, table, q, stmt, &pair);
                    break;
                }
            }
        }
    }
}

enum Pattern {
    CheckThenInsert,
    ReadModifyWrite(String),
}

struct Pair<'a> {
    read: &'a Query,
    pattern: Pattern,
    key: Vec<String>,
    /// Why the two were paired, for the heuristic note.
    reason: String,
}

fn pair<'a>(
    table: &Table,
    write: &Query,
    stmt: &Statement,
    read: &'a Query,
    select: &Select,
) -> Option<Pair<'a>> {
    let explicit = write
        .annotations
        .get("after")
        .is_some_and(|a| a == read.name);
    let read_key = key_columns_among(table, &eq_columns(&select.where_clause));
    let (write_key, pattern) = match &stmt.kind {
        // `@new-row`: the producer says the key was just generated, so the
        // row is new and its values come from no read (unless `@after` says so).
        StatementKind::Insert(_) if write.annotations.get("new-row").is_some() && !explicit => {
            return None;
        }
        StatementKind::Insert(s) if !s.if_not_exists => {
            let columns = insert_columns(&s.values);
            let key = key_columns_among(table, &columns);
            let pattern = if existence_check(table, read, select) || explicit {
                Some(Pattern::CheckThenInsert)
            } else if time_clustering(table).is_some() {
                // An insert into a time series adds an event row: its values are
                // measured, not computed from the row a read returned.
                None
            } else {
                derived_column(table, select, columns.iter().copied(), explicit)
                    .map(Pattern::ReadModifyWrite)
            };
            (key, pattern)
        }
        StatementKind::Update(s) if s.conditions.is_none() => {
            let key = key_columns_among(table, &eq_columns(&s.where_clause));
            let set = set_columns(s);
            (
                key,
                derived_column(table, select, set.iter().copied(), explicit)
                    .map(Pattern::ReadModifyWrite),
            )
        }
        _ => return None,
    };
    let pattern = pattern?;
    let same_key = !read_key.is_empty()
        && read_key == write_key
        && table
            .partition_key()
            .all(|c| read_key.contains(&c.name.as_str()));
    if !same_key && !explicit {
        return None;
    }
    if matches!(pattern, Pattern::CheckThenInsert)
        && !covers_primary_key(table, &read_key)
        && !explicit
    {
        return None;
    }
    let reason = if explicit {
        format!("the write is annotated `@after {}`", read.name)
    } else {
        format!(
            "both restrict ({}) of `{}`, and {}",
            read_key.join(", "),
            table.qualified_name(),
            match &pattern {
                Pattern::CheckThenInsert => "the read only checks that the row exists".to_string(),
                Pattern::ReadModifyWrite(c) =>
                    format!("the write sets `{c}`, which the read selects"),
            }
        )
    };
    Some(Pair {
        read,
        pattern,
        key: read_key.iter().map(|s| s.to_string()).collect(),
        reason,
    })
}

/// Column-name words of a value the application computes from its previous
/// value (a balance, a stock level, a count, a sequence).
const RUNNING_WORDS: &[&str] = &[
    "balance",
    "stock",
    "quantity",
    "qty",
    "count",
    "total",
    "amount",
    "score",
    "points",
    "credits",
    "credit",
    "inventory",
    "votes",
    "likes",
    "views",
    "remaining",
    "budget",
    "seq",
    "sequence",
    "version",
    "counter",
    "sum",
    "level",
    "next",
];

/// Why a read-modify-write pairing is only a question: the write is not
/// annotated `@after` the read, and the column is a scalar whose name does not
/// say it is computed from its previous value. `None` when the evidence holds.
fn unconfirmed(table: &Table, write: &Query, pair: &Pair<'_>) -> Option<String> {
    let Pattern::ReadModifyWrite(c) = &pair.pattern else {
        return None;
    };
    if write.annotations.get("after").is_some() {
        return None;
    }
    let column = table.column(c)?;
    let running = c
        .split('_')
        .any(|w| RUNNING_WORDS.contains(&w.to_ascii_lowercase().as_str()));
    if column.ty.is_collection() || running {
        return None;
    }
    Some(format!(
        "a question, not a finding: nothing says `{}` computes `{c}` from what `{}` read (annotate the write `@after {}` to confirm; a name like balance, stock or count would say it)",
        write.name, pair.read.name, pair.read.name
    ))
}

/// A read that fetches nothing but whether the row exists.
fn existence_check(table: &Table, read: &Query, select: &Select) -> bool {
    if name_hints(&[&read.name], CHECK_WORDS) {
        return true;
    }
    let Selection::Selectors(selectors) = &select.selection else {
        return false;
    };
    !selectors.is_empty()
        && selectors.iter().all(|s| match &s.kind {
            SelectorKind::CountStar => true,
            SelectorKind::Column(c) => table.column(&c.value).is_some_and(Column::is_primary_key),
            SelectorKind::Function { name, .. } => name.name.value.eq_ignore_ascii_case("count"),
            _ => false,
        })
}

/// The first column the write sets that the read selects by name and whose
/// value is typically computed from the old one (numbers, collections).
fn derived_column<'c>(
    table: &Table,
    select: &Select,
    written: impl Iterator<Item = &'c str>,
    explicit: bool,
) -> Option<String> {
    let Selection::Selectors(selectors) = &select.selection else {
        return None;
    };
    let selected: Vec<&str> = selectors
        .iter()
        .filter_map(|s| match &s.kind {
            SelectorKind::Column(c) => Some(c.value.as_str()),
            _ => None,
        })
        .collect();
    written
        .filter(|c| selected.contains(c))
        .filter_map(|c| table.column(c))
        .find(|c| !c.is_primary_key() && (explicit || derived_type(&c.ty)))
        .map(|c| c.name.clone())
}

fn derived_type(ty: &CqlType) -> bool {
    match ty {
        CqlType::Native(n) => matches!(
            n,
            NativeType::Int
                | NativeType::Bigint
                | NativeType::Smallint
                | NativeType::Tinyint
                | NativeType::Varint
                | NativeType::Decimal
                | NativeType::Float
                | NativeType::Double
        ),
        other => other.is_collection(),
    }
}

/// Columns an UPDATE overwrites with `c = value` (not `c = c + v`, which needs no read).
fn set_columns(update: &Update) -> Vec<&str> {
    update
        .assignments
        .iter()
        .filter_map(|a| match &a.kind {
            AssignmentKind::Set {
                target: ColumnRef::Column(c),
                ..
            } => Some(c.value.as_str()),
            _ => None,
        })
        .collect()
}

fn report(out: &mut Findings, table: &Table, write: &Query, stmt: &Statement, pair: &Pair<'_>) {
    let name = table.qualified_name();
    let (message, label) = match &pair.pattern {
        Pattern::CheckThenInsert => (
            format!(
                "check-then-insert: `{}` checks that a row of `{name}` exists, then `{}` inserts it without IF NOT EXISTS",
                pair.read.name, write.name
            ),
            "inserts after a check, unconditionally",
        ),
        Pattern::ReadModifyWrite(c) => (
            format!(
                "read-modify-write: `{}` reads `{c}`, then `{}` writes it back without a condition",
                pair.read.name, write.name
            ),
            "writes a value derived from a read",
        ),
    };
    let why = match &pair.pattern {
        Pattern::CheckThenInsert => {
            "two clients that both find the row missing both insert it: the second silently overwrites the first (writes are upserts)"
        }
        Pattern::ReadModifyWrite(_) => {
            "two clients that read the same value both write their result: the last write wins and the other update is lost"
        }
    };
    let mut f = out
        .new_finding(message)
        .at(write.file, stmt.span.range(), write.span().start, label)
        .table(name)
        .query(write.name.clone())
        .note(why)
        .note(format!(
            "heuristic: paired with `{}` because {}",
            pair.read.name, pair.reason
        ));
    if let Some(question) = unconfirmed(table, write, pair) {
        f = f.severity(Severity::Info).note(question);
    }
    if let Some((description, cql)) = conditional(table, stmt, &pair.pattern) {
        f = f.fix(description, Some(cql));
    }
    if let Pattern::ReadModifyWrite(c) = &pair.pattern
        && table.column(c).is_some_and(|col| {
            matches!(
                col.ty,
                CqlType::Native(NativeType::Int | NativeType::Bigint)
            )
        })
    {
        f = f.help(format!(
            "if `{c}` is a running count, a counter column (`SET {c} = {c} + ?`, in a counter table keyed by ({})) needs no read",
            pair.key.join(", ")
        ));
    }
    out.push(f);
}

/// `INSERT INTO t (k, c) VALUES (?, ?)` as `UPDATE t SET c = :c WHERE k = :k IF c = :expected_c`:
/// anonymous markers become named after their column, since the bind order changes.
fn insert_as_update(table: &Table, insert: &Insert, column: &str) -> Option<Update> {
    let InsertValues::Values { columns, values } = &insert.values else {
        return None;
    };
    let mut assignments = Vec::new();
    let mut where_clause = Vec::new();
    for (c, v) in columns.iter().zip(values) {
        let value = match v.kind {
            TermKind::BindMarker(BindMarker::Anonymous) => marker(true, &c.value),
            _ => v.clone(),
        };
        if table.column(&c.value).is_some_and(Column::is_primary_key) {
            where_clause.push(Relation {
                kind: RelationKind::Column {
                    column: c.clone(),
                    op: Operator::Eq,
                    value,
                },
                span: Span::default(),
            });
        } else {
            assignments.push(Assignment {
                kind: AssignmentKind::Set {
                    target: ColumnRef::Column(c.clone()),
                    value,
                },
                span: Span::default(),
            });
        }
    }
    if assignments.is_empty() {
        return None;
    }
    Some(Update {
        table: insert.table.clone(),
        using: insert.using.clone(),
        assignments,
        where_clause,
        conditions: Some(Conditions::If(vec![Condition {
            target: ColumnRef::Column(Ident::new(column)),
            op: Operator::Eq,
            value: marker(true, &format!("expected_{column}")),
            span: Span::default(),
        }])),
    })
}

/// The write made conditional: `IF NOT EXISTS`, or `IF col = <the value read>`.
fn conditional(table: &Table, stmt: &Statement, pattern: &Pattern) -> Option<(String, String)> {
    let named = uses_named_markers(stmt);
    let rewritten = match (&stmt.kind, pattern) {
        (StatementKind::Insert(s), Pattern::CheckThenInsert) => StatementKind::Insert(Insert {
            if_not_exists: true,
            ..s.clone()
        }),
        (StatementKind::Insert(s), Pattern::ReadModifyWrite(c)) => {
            StatementKind::Update(insert_as_update(table, s, c)?)
        }
        (StatementKind::Update(s), Pattern::ReadModifyWrite(c)) => StatementKind::Update(Update {
            conditions: Some(Conditions::If(vec![Condition {
                target: ColumnRef::Column(Ident::new(c.clone())),
                op: Operator::Eq,
                value: marker(named, &format!("expected_{c}")),
                span: Span::default(),
            }])),
            ..s.clone()
        }),
        _ => return None,
    };
    let description = match pattern {
        Pattern::CheckThenInsert => format!(
            "let Cassandra do the check: insert with IF NOT EXISTS and read `[applied]` (a lightweight transaction on `{}`)",
            table.qualified_name()
        ),
        Pattern::ReadModifyWrite(c) if matches!(stmt.kind, StatementKind::Insert(_)) => format!(
            "update only if `{c}` still holds the value read (a lightweight transaction; create the row once with INSERT ... IF NOT EXISTS); on `[applied] = false`, read again and retry"
        ),
        Pattern::ReadModifyWrite(c) => {
            format!(
                "write only if `{c}` still holds the value read (a lightweight transaction); on `[applied] = false`, read again and retry"
            )
        }
    };
    let stmt = Statement {
        kind: rewritten,
        span: Span::default(),
    };
    Some((description, format!("{stmt};")))
}
