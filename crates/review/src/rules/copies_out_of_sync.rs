use std::collections::{HashMap, HashSet};

use cqlmodel_cql::ast::{Statement, StatementKind};
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::Table;

use super::column_roles::words;
use super::key_facts::{Change, QueryIndex, statement_table};
use super::query_facts::{format_rate, insert_columns, time_clustering};
use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;
use crate::query::Query;

declare_rule! {
    /// ## What it does
    /// Finds denormalized copies of one entity that the query list keeps apart:
    /// - an attribute updated in one copy and not in the others
    ///   (`UPDATE users SET name = ?` while `users_by_country` also stores
    ///   `name` and nothing updates it there);
    /// - one logical write to several tables by separate statements, with no
    ///   logged batch (`INSERT INTO users` and `INSERT INTO users_by_country`
    ///   of the same user, run at the same rate).
    ///
    /// A conditional INSERT (a claim with `IF NOT EXISTS`) is not paired: the
    /// other copies follow its `[applied]`, and Cassandra refuses a conditional
    /// batch that spans tables.
    ///
    /// Materialized views are maintained by Cassandra and are not copies here;
    /// an attribute that is part of a copy's primary key is
    /// `mutable-primary-key`'s finding.
    ///
    /// ## Evidence
    /// The query list. A copy is a table named after the same entity (the
    /// first word of its name, singular: `users`, `users_by_country`) that
    /// holds the entity's whole partition key and the attribute, and is
    /// written by the list. Columns match by name and type; when the producer
    /// of the CQL says which attribute each column holds (`cqlmodel design`
    /// does), only the same attribute matches: a playlist item's `title` (the
    /// video's) is no copy of the playlist's `title`. A stale
    /// copy is a warning. Separate INSERTs of the same entity are a warning
    /// when their `@rate`s are equal (within 10%: one logical write), and info
    /// (a question) without rates; with different rates they are different
    /// writes and not reported.
    ///
    /// ## Why is this bad?
    /// Cassandra has no foreign keys and no multi-table transactions: copies
    /// agree only if every write reaches every copy. An attribute updated in
    /// one copy leaves the others wrong for ever; separate statements that fail
    /// half-way (a timeout, a crash between them) leave one copy without the
    /// row. A LOGGED batch applies all of its statements eventually, or none.
    ///
    /// ## Example
    /// ```cql
    /// -- @name rename @rate 5/s
    /// UPDATE accounts.users SET name = ? WHERE user_id = ?;
    /// -- accounts.users_by_country (country, user_id, name) is never updated
    /// ```
    ///
    /// ## Use instead
    /// Write every copy in one logged batch:
    /// ```cql
    /// BEGIN BATCH
    ///     UPDATE accounts.users SET name = ? WHERE user_id = ?;
    ///     UPDATE accounts.users_by_country SET name = ? WHERE country = ? AND user_id = ?;
    /// APPLY BATCH;
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "BATCH" (logged batches keep denormalized tables in step)
    pub static COPIES_OUT_OF_SYNC = {
        code: "CQL026",
        name: "copies-out-of-sync",
        severity: Warning,
        summary: "Denormalized copies written apart: updated in one copy only, or several tables without a logged batch",
        check: check,
    };
}

/// Rates within this ratio are one logical write.
const SAME_RATE: f64 = 1.1;

/// Tables by keyspace and entity stem: the candidates for copies of one
/// another, found without comparing every pair of tables.
type Families<'t> = HashMap<(String, String), Vec<&'t Table>>;

/// `users_by_country` → `user`, `order_by_id` → `order`: the first word of the
/// name, singular. Copies of one entity are named after it.
fn stem(table: &Table) -> String {
    let first = words(&table.name).into_iter().next().unwrap_or_default();
    match first.strip_suffix('s') {
        Some(s) if s.len() > 1 && !s.ends_with('s') => s.to_string(),
        _ => first,
    }
}

fn family<'f, 't>(families: &'f Families<'t>, table: &Table) -> &'f [&'t Table] {
    families
        .get(&(table.keyspace.clone(), stem(table)))
        .map_or(&[], Vec::as_slice)
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    if !cx.has_queries {
        return;
    }
    let index = &cx.index;
    let mut families: Families<'_> = HashMap::new();
    for t in cx.tables().filter(|t| !t.is_view()) {
        families
            .entry((t.keyspace.clone(), stem(t)))
            .or_default()
            .push(t);
    }
    stale_copies(cx, out, index, &families);
    separate_inserts(cx, out, index, &families);
}

/// Tables other than `source`, in its keyspace and written by the list, that
/// hold `source`'s whole partition key and `column` (outside their own key).
fn copies<'t>(
    cx: &Context<'_>,
    families: &Families<'t>,
    source: &Table,
    column: &str,
) -> Vec<&'t Table> {
    let Some(attr) = source.column(column) else {
        return Vec::new();
    };
    family(families, source)
        .iter()
        .copied()
        .filter(|t| {
            t.keyspace == source.keyspace
                && t.name != source.name
                && source.partition_key().all(|k| {
                    t.column(&k.name)
                        .is_some_and(|c| c.ty == k.ty && same_attribute(cx, source, t, &k.name))
                })
                && t.column(column).is_some_and(|c| {
                    c.ty == attr.ty && !c.is_primary_key() && same_attribute(cx, source, t, column)
                })
                && !cx.index.writes_to(&t.qualified_name()).is_empty()
        })
        .collect()
}

/// Whether `column` of `a` and of `b` can hold the same attribute: by name
/// and type (the caller's test) unless the producer of the CQL said which
/// attribute each holds (`Config::provenance`); then only the same one
/// (`playlist_items_by_playlist.title` holds a video's title, not the
/// playlist's title that `playlist_by_id.title` holds).
fn same_attribute(cx: &Context<'_>, a: &Table, b: &Table, column: &str) -> bool {
    let Some(p) = cx.config.provenance.as_ref() else {
        return true;
    };
    match (
        p.attribute(&a.qualified_name(), column),
        p.attribute(&b.qualified_name(), column),
    ) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    }
}

fn same_batch(q: &Query, table: &str) -> bool {
    matches!(q.statement.kind, StatementKind::Batch(_))
        && super::key_facts::statements_of(q)
            .iter()
            .any(|s| statement_table(q, s).as_deref() == Some(table))
}

fn stale_copies(
    cx: &Context<'_>,
    out: &mut Findings,
    index: &QueryIndex<'_>,
    families: &Families<'_>,
) {
    let mut seen: HashSet<(String, String, String)> = HashSet::new();
    for u in index.updates().iter().filter(|u| u.change == Change::Set) {
        let Some((ks, name)) = u.table.split_once('.') else {
            continue;
        };
        let Some(source) = cx.schema.table(ks, name) else {
            continue;
        };
        if source.column(&u.column).is_none_or(|c| c.is_primary_key()) {
            continue;
        }
        for copy in copies(cx, families, source, &u.column) {
            let copy_name = copy.qualified_name();
            let kept = index.updates_of(&copy_name, &u.column).next().is_some()
                || same_batch(u.query, &copy_name);
            if kept || !seen.insert((u.table.clone(), u.column.clone(), copy_name.clone())) {
                continue;
            }
            let q = u.query;
            out.push(
                out.new_finding(format!(
                    "`{}` updates `{}` in `{}` only: the copy in `{copy_name}` keeps the old value",
                    q.name, u.column, u.table
                ))
                .severity(Severity::Warning)
                .at(q.file, q.span().range(), q.span().start, "one copy updated")
                .table(copy_name.clone())
                .query(q.name.clone())
                .note(format!(
                    "`{copy_name}` holds the same entity (its columns include {}) and `{}`, and no statement of the list updates `{}` there",
                    key_list(source),
                    u.column,
                    u.column
                ))
                .help(format!(
                    "update `{}` in every copy, in one LOGGED batch with `{}` (the copy's key columns come from the entity: read them first if the update does not know them)",
                    u.column, q.name
                )),
            );
        }
    }
}

fn key_names(t: &Table) -> Vec<&str> {
    t.partition_key().map(|c| c.name.as_str()).collect()
}

fn key_list(t: &Table) -> String {
    t.partition_key()
        .map(|c| format!("`{}`", c.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The query's statement when it is an unconditional INSERT. A conditional one
/// (a claim, `IF NOT EXISTS`) gates the other copies: they follow `[applied]`,
/// and Cassandra refuses a conditional batch across tables anyway.
fn insert_of(q: &Query) -> Option<&Statement> {
    match &q.statement.kind {
        StatementKind::Insert(i) if !i.if_not_exists => Some(&q.statement),
        _ => None,
    }
}

fn inserted(stmt: &Statement) -> Vec<&str> {
    match &stmt.kind {
        StatementKind::Insert(i) => insert_columns(&i.values),
        _ => Vec::new(),
    }
}

fn separate_inserts(
    cx: &Context<'_>,
    out: &mut Findings,
    index: &QueryIndex<'_>,
    families: &Families<'_>,
) {
    let mut seen: HashSet<(String, String)> = HashSet::new();
    // Rows of a time series are events, not copies of an entity.
    let is_entity = |t: &&Table| !t.is_view() && time_clustering(t).is_none();
    for source in cx.tables().filter(is_entity) {
        let source_name = source.qualified_name();
        for (sq, s_stmt) in index.writes_to(&source_name) {
            if insert_of(sq).is_none() {
                continue;
            }
            let s_cols = inserted(s_stmt);
            if !source
                .partition_key()
                .all(|k| s_cols.contains(&k.name.as_str()))
            {
                continue;
            }
            for copy in family(families, source).iter().filter(|t| {
                is_entity(t)
                    && t.name != source.name
                    && source.partition_key().all(|k| {
                        t.column(&k.name).is_some() && same_attribute(cx, source, t, &k.name)
                    })
                    && key_names(t) != key_names(source)
            }) {
                let copy_name = copy.qualified_name();
                for (cq, c_stmt) in index.writes_to(&copy_name) {
                    if cq.name == sq.name || insert_of(cq).is_none() {
                        continue;
                    }
                    let pair = if sq.name < cq.name {
                        (sq.name.clone(), cq.name.clone())
                    } else {
                        (cq.name.clone(), sq.name.clone())
                    };
                    if seen.contains(&pair) {
                        continue;
                    }
                    let c_cols = inserted(c_stmt);
                    let shared: Vec<&str> = s_cols
                        .iter()
                        .copied()
                        .filter(|c| {
                            c_cols.contains(c)
                                && source.column(c).is_some_and(|col| !col.is_primary_key())
                                && same_attribute(cx, source, copy, c)
                        })
                        .collect();
                    if shared.is_empty() {
                        continue;
                    }
                    let severity = match (sq.rate, cq.rate) {
                        (Some(a), Some(b)) if a.max(b) <= a.min(b) * SAME_RATE => Severity::Warning,
                        (Some(_), Some(_)) => continue,
                        _ => Severity::Info,
                    };
                    seen.insert(pair);
                    // Reported at the later statement of the list, whichever
                    // table is found first.
                    if sq.ordinal < cq.ordinal {
                        report_separate(out, sq, cq, &source_name, &copy_name, &shared, severity);
                    } else {
                        report_separate(out, cq, sq, &copy_name, &source_name, &shared, severity);
                    }
                }
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn report_separate(
    out: &mut Findings,
    first: &Query,
    second: &Query,
    source: &str,
    copy: &str,
    shared: &[&str],
    severity: Severity,
) {
    let evidence = match (first.rate, second.rate) {
        (Some(a), Some(b)) => format!(
            "both run at the same rate ({} and {}): one logical write",
            format_rate(a),
            format_rate(b)
        ),
        _ => "a question: are they one logical write? `@rate` on both decides it (equal rates: a warning)".to_string(),
    };
    let batch = format!(
        "BEGIN BATCH\n    {};\n    {};\nAPPLY BATCH;",
        without_span(&first.statement),
        without_span(&second.statement)
    );
    out.push(
        out.new_finding(format!(
            "`{}` and `{}` write the same entity to `{source}` and `{copy}` as separate statements, without a logged batch",
            first.name, second.name
        ))
        .severity(severity)
        .at(second.file, second.span().range(), second.span().start, "a second copy, written apart")
        .table(copy.to_string())
        .query(second.name.clone())
        .note(format!(
            "both insert the entity's key and {}; a failure between them leaves one copy without the row",
            shared
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .note(evidence)
        .fix(
            "write both copies in one LOGGED batch (applied eventually in full, or not at all)",
            Some(batch),
        ),
    );
}

fn without_span(s: &Statement) -> Statement {
    Statement {
        span: Default::default(),
        ..s.clone()
    }
}
