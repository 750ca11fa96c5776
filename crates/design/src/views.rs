//! Materialized views, only where they are safe to choose: a table of one
//! entity's own attributes, re-keyed from the entity's by-primary-key table,
//! whose entity is written slowly. Cassandra then keeps the table in step and
//! the application writes only the base.

use std::collections::HashMap;

use crate::derive::{KeyPart, Role, TableDesign, TableKind};
use crate::numbers::trim_float;
use crate::querylist::{Body, MutationKind, QuerySpec};
use crate::relational::Model;

/// Writes per second (every mutation of the entity together) at or under which a
/// view may keep a table. The review warns at 300/s
/// (`materialized-view-write-heavy`); the seeds' rule of thumb is "hundreds a
/// second: a view saves code, tens of thousands: never".
pub const VIEW_WRITE_RATE_LIMIT: f64 = 100.0;

/// Turns every qualifying table into a view of its entity's by-primary-key table.
pub fn choose_views(model: &Model, specs: &[QuerySpec], tables: &mut [TableDesign]) {
    let rates = write_rates(specs);
    for i in 0..tables.len() {
        let Some(t) = tables.get(i) else { continue };
        let Some(entity) = single_grain(t) else {
            continue;
        };
        let Some(rate) = rates.get(entity.as_str()).copied().flatten() else {
            continue;
        };
        if rate > VIEW_WRITE_RATE_LIMIT || !viewable(model, t, &entity) {
            continue;
        }
        let Some(base) = tables
            .iter()
            .enumerate()
            .find(|(j, b)| *j != i && is_base(model, b, t, &entity))
            .map(|(_, b)| b.name.clone())
        else {
            continue;
        };
        if let Some(q) = listed_by_fan_out(model, specs, t, &entity) {
            let why = format!(
                "stays a table, not a materialized view of `{base}`: `{q}` lists the rows it changes from it, and Cassandra keeps a view asynchronously (a row written moments before could be missing from the list and escape the change)"
            );
            if let Some(t) = tables.get_mut(i) {
                t.decisions.push(why);
            }
            continue;
        }
        if let Some(t) = tables.get_mut(i) {
            t.decisions.push(format!(
                "a materialized view of `{base}`: `{entity}` is written {}/s in all (at most {}/s for a view), so Cassandra keeps this table in step and the application writes only `{base}`; views are off by default in Cassandra 5.0 (`materialized_views_enabled: true` in cassandra.yaml), else write it as the write paths' logged batch would",
                trim_float(rate),
                trim_float(VIEW_WRITE_RATE_LIMIT)
            ));
            t.kind = TableKind::View { base };
            // Cassandra refuses default_time_to_live on a view: rows expire with the base's.
            t.ttl = None;
        }
    }
}

/// The UPDATE or DELETE of `entity` whose WHERE names many rows by columns
/// that are not its key, and that lists those rows from `t` (the write
/// paths' read-first step: crate::listing).
fn listed_by_fan_out<'q>(
    model: &Model,
    specs: &'q [QuerySpec],
    t: &TableDesign,
    entity: &str,
) -> Option<&'q str> {
    let e = model.entity(entity)?;
    specs.iter().find_map(|q| match &q.body {
        Body::Mutation(m)
            if m.entity == entity
                && matches!(m.kind, MutationKind::Update | MutationKind::Delete)
                && !m.key.is_empty()
                && !e.primary_key.iter().all(|k| m.key.contains(k))
                && crate::listing::lists_rows_by(t, e, &m.key) =>
        {
            Some(q.name.as_str())
        }
        _ => None,
    })
}

fn single_grain(t: &TableDesign) -> Option<String> {
    match (t.grain.as_slice(), &t.kind) {
        ([only], TableKind::Table) => Some(only.clone()),
        _ => None,
    }
}

/// Per mutated entity, the sum of the rates of its mutations (in list
/// order); `None` when any has no rate, and no entry without a mutation: a
/// view is chosen only on known, low write rates. Summed once for every
/// table: a scan of the list per table made a 10,000-table design quadratic.
fn write_rates(specs: &[QuerySpec]) -> HashMap<&str, Option<f64>> {
    let mut rates: HashMap<&str, Option<f64>> = HashMap::new();
    for q in specs {
        if let Body::Mutation(m) = &q.body {
            let total = rates.entry(m.entity.as_str()).or_insert(Some(0.0));
            *total = total.zip(q.rate).map(|(sum, rate)| sum + rate);
        }
    }
    rates
}

/// Cassandra's rules for a view's primary key: every base primary key column,
/// plus at most one other column; only the entity's own attributes (a view
/// cannot copy another table's), no static column, no computed bucket or salt.
/// A key that is a UNIQUE constraint stays a table: its value must be claimed
/// with a lightweight transaction, which a view cannot do.
fn viewable(model: &Model, t: &TableDesign, entity: &str) -> bool {
    let Some(e) = model.entity(entity) else {
        return false;
    };
    let own = t.columns.iter().all(|c| match &c.part {
        KeyPart::Attr(a) => a.entity == entity && c.role != Role::Static,
        _ => false,
    });
    let key: Vec<&str> = t
        .partition_key
        .iter()
        .chain(t.clustering.iter().map(|(p, _)| p))
        .filter_map(|p| match p {
            KeyPart::Attr(a) => Some(a.column.as_str()),
            _ => None,
        })
        .collect();
    let has_pk = e.primary_key.iter().all(|c| key.contains(&c.as_str()));
    let others = key
        .iter()
        .filter(|c| !e.primary_key.iter().any(|p| p == *c))
        .count();
    let unique = e.uniques.iter().any(|u| {
        u.iter().all(|c| key.contains(&c.as_str())) && !u.iter().all(|c| e.primary_key.contains(c))
    });
    own && has_pk
        && others <= 1
        && !unique
        && t.partition_key
            .iter()
            .all(|p| matches!(p, KeyPart::Attr(_)))
}

/// The entity's by-primary-key table holding every column of `view`.
fn is_base(model: &Model, b: &TableDesign, view: &TableDesign, entity: &str) -> bool {
    let Some(e) = model.entity(entity) else {
        return false;
    };
    let mut pk: Vec<&str> = b
        .partition_key
        .iter()
        .filter_map(|p| match p {
            KeyPart::Attr(a) if a.entity == entity => Some(a.column.as_str()),
            _ => None,
        })
        .collect();
    pk.sort_unstable();
    let mut want: Vec<&str> = e.primary_key.iter().map(String::as_str).collect();
    want.sort_unstable();
    b.kind == TableKind::Table
        && b.grain == view.grain
        && b.clustering.is_empty()
        && b.partition_key.len() == want.len()
        && pk == want
        && view
            .columns
            .iter()
            .all(|c| b.columns.iter().any(|x| x.part == c.part))
}
