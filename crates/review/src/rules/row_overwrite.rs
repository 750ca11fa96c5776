use cqlmodel_cql::ast::{Insert, StatementKind, UsingParam};
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::{Column, ColumnKind, Table};

use super::column_roles::{unique_like, words};
use super::key_facts::{QueryIndex, column_site};
use super::query_facts::{eq_columns, insert_columns};
use super::table_cql::TableSketch;
use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;

declare_rule! {
    /// ## What it does
    /// Finds rows that overwrite each other, two ways:
    /// - a primary key that does not identify the entity the rows describe:
    ///   `orders_by_user` keyed by `user_id` alone while every row carries an
    ///   `order_id` outside the key, so each order replaces the user's last one;
    /// - an `INSERT` of an application-supplied natural key (`email`,
    ///   `username`, `handle`, `slug`, `code`) without `IF NOT EXISTS`, into a
    ///   table the query list reads by that key (it is meant to be unique): the
    ///   second sign-up with an address silently takes the first one's row.
    ///
    /// ## Evidence
    /// The schema and the query list. The first case: the table's name names
    /// the entity (`<entities>_by_<key>`), its `<entity>_id` column is outside
    /// the primary key, no key column is a unique attribute (`accounts_by_email`
    /// is a lookup), and the query list inserts it. A table named for the
    /// latest state (`last_`, `latest_`, `current_`) keeps one row per key on
    /// purpose and is not reported. The second: the whole
    /// primary key is one natural-key column, an INSERT binds it without
    /// `IF NOT EXISTS`, and a read looks rows up by it. Both are warnings:
    /// names carry them. Without a query list the rule is silent.
    ///
    /// ## Why is this bad?
    /// In Cassandra an INSERT is an upsert: a row with the same primary key is
    /// replaced, cell by cell, without an error. Data is lost silently: the
    /// older orders, or the first owner of an address.
    ///
    /// ## Example
    /// ```cql
    /// CREATE TABLE shop.orders_by_user (user_id uuid PRIMARY KEY, order_id uuid, total decimal);
    /// CREATE TABLE links.links_by_slug (slug text PRIMARY KEY, url text, owner_id uuid);
    /// INSERT INTO links.links_by_slug (slug, url, owner_id) VALUES (?, ?, ?);
    /// ```
    ///
    /// ## Use instead
    /// Put the entity's id in the key, or claim the natural key:
    /// ```cql
    /// CREATE TABLE shop.orders_by_user (user_id uuid, order_id uuid, total decimal,
    ///     PRIMARY KEY (user_id, order_id));
    /// INSERT INTO links.links_by_slug (slug, url, owner_id) VALUES (?, ?, ?) IF NOT EXISTS;
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "INSERT" (upsert semantics; `IF NOT EXISTS`)
    pub static ROW_OVERWRITE = {
        code: "CQL025",
        name: "row-overwrite",
        severity: Warning,
        summary: "Rows that overwrite each other: a key that does not identify the entity, or an unclaimed natural key",
        check: check,
    };
}

/// Natural keys an application supplies and means to be unique, beyond the
/// `unique_like` names (`email`, `username`, `handle`, ...).
const NATURAL_KEY_WORDS: &[&str] = &["slug", "code", "sku", "isbn", "plate", "vin", "domain"];

fn check(cx: &Context<'_>, out: &mut Findings) {
    if !cx.has_queries {
        return;
    }
    let index = &cx.index;
    for table in cx
        .tables()
        .filter(|t| !t.is_view() && !t.is_counter_table() && !holds_latest(t))
    {
        let name = table.qualified_name();
        let inserts: Vec<(&str, &Insert)> = index
            .writes_to(&name)
            .iter()
            .filter_map(|(q, s)| match &s.kind {
                StatementKind::Insert(i) => Some((q.name.as_str(), i)),
                _ => None,
            })
            .collect();
        if inserts.is_empty() {
            continue;
        }
        entity_outside_key(out, table, &inserts);
        unclaimed_natural_key(out, index, table, &inserts);
    }
}

/// `last_visit_by_slug`, `current_location`: one row per key, replaced on
/// purpose.
fn holds_latest(table: &Table) -> bool {
    words(&table.name)
        .iter()
        .any(|w| matches!(w.as_str(), "last" | "latest" | "current"))
}

/// `orders_by_user` → `order`: the entity a table's name says its rows are.
fn entity_of(table: &Table) -> Option<String> {
    let head = table.name.split("_by_").next()?;
    let last = words(head).pop()?;
    let singular = last
        .strip_suffix("ies")
        .map(|s| format!("{s}y"))
        .or_else(|| last.strip_suffix('s').map(str::to_string))?;
    (table.name.contains("_by_") && !singular.is_empty()).then_some(singular)
}

fn entity_outside_key(out: &mut Findings, table: &Table, inserts: &[(&str, &Insert)]) {
    let Some(entity) = entity_of(table) else {
        return;
    };
    // A lookup by a unique attribute (`accounts_by_email`): one entity per key.
    if table
        .columns
        .iter()
        .any(|c| c.is_primary_key() && natural_key(c))
    {
        return;
    }
    let Some(id) = table.columns.iter().find(|c| {
        !c.is_primary_key()
            && (c.name == format!("{entity}_id") || c.name == format!("{entity}_uuid"))
    }) else {
        return;
    };
    let Some((query, _)) = inserts
        .iter()
        .find(|(_, i)| insert_columns(&i.values).contains(&id.name.as_str()))
    else {
        return;
    };
    let (file, span, anchor) = column_site(table, id);
    let mut sketch = TableSketch::of(table);
    sketch
        .clustering
        .push((id.name.clone(), cqlmodel_cql::ast::Order::Asc));
    out.push(
        out.new_finding(format!(
            "rows of `{}` overwrite each other: the table holds {entity}s but `{}` is outside the primary key ({})",
            table.qualified_name(),
            id.name,
            key_text(table)
        ))
        .severity(Severity::Warning)
        .at(file, span, anchor, "identifies the entity, not in the key")
        .table(table.qualified_name())
        .query(query.to_string())
        .note(format!(
            "`{query}` inserts a new `{}` each time; an INSERT with the same primary key replaces the row, so only the last {entity} of each key is kept",
            id.name
        ))
        .note(format!(
            "read from the table's name: `{}` holds {entity}s, and `{}` is the {entity}'s id",
            table.name, id.name
        ))
        .fix(
            format!(
                "add `{}` to the primary key as a clustering column (a new table: a primary key cannot be altered; dual-write, backfill, then switch reads)",
                id.name
            ),
            Some(sketch.cql()),
        ),
    );
}

fn key_text(table: &Table) -> String {
    table
        .columns
        .iter()
        .filter(|c| c.is_primary_key())
        .map(|c| format!("`{}`", c.name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn natural_key(column: &Column) -> bool {
    unique_like(column)
        || words(&column.name)
            .last()
            .is_some_and(|w| NATURAL_KEY_WORDS.contains(&w.as_str()))
}

fn unclaimed_natural_key(
    out: &mut Findings,
    index: &QueryIndex<'_>,
    table: &Table,
    inserts: &[(&str, &Insert)],
) {
    let mut key = table.columns.iter().filter(|c| c.is_primary_key());
    let (Some(column), None) = (key.next(), key.next()) else {
        return;
    };
    if !matches!(column.kind, ColumnKind::PartitionKey(_)) || !natural_key(column) {
        return;
    }
    let Some(lookup) =
        index
            .reads_of(&table.qualified_name())
            .iter()
            .find(|q| match &q.statement.kind {
                StatementKind::Select(s) => {
                    eq_columns(&s.where_clause).contains(&column.name.as_str())
                }
                _ => false,
            })
    else {
        return;
    };
    for (query, insert) in inserts.iter().filter(|(_, i)| !i.if_not_exists) {
        let mut claimed = (*insert).clone();
        claimed.if_not_exists = true;
        claimed
            .using
            .retain(|u| !matches!(u, UsingParam::Timestamp(_)));
        let (file, span, anchor) = column_site(table, column);
        out.push(
            out.new_finding(format!(
                "`{query}` inserts a `{}` the application supplies without IF NOT EXISTS: a second row with the same `{}` replaces the first",
                column.name, column.name
            ))
            .severity(Severity::Warning)
            .at(file, span, anchor, "the whole primary key, a natural key")
            .table(table.qualified_name())
            .query(query.to_string())
            .note(format!(
                "`{}` is read by `{}` (`{} = ?`): one row per value is meant; an INSERT is an upsert and says nothing when the value is taken",
                lookup.name, column.name, column.name
            ))
            .fix(
                "claim the key: INSERT ... IF NOT EXISTS and check `[applied]` (a lightweight transaction, on this rare path)",
                Some(format!("{};", cqlmodel_cql::ast::Statement {
                    kind: StatementKind::Insert(claimed),
                    span: Default::default(),
                })),
            ),
        );
    }
}
