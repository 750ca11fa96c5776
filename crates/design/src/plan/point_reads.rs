//! Point reads by the full key (issue 10 §4): a read that binds every key
//! column of its table by equality finds one row. When sizing salts that
//! table, the read would run once per salt bucket; it goes to an unsalted
//! table keyed by what it binds (the entity's own table) instead.

use cqlmodel_stats::Stats;

use super::derived::derived_stats;
use crate::derive::{KeyPart, TableDesign, TableKind, class_of};
use crate::querylist::{Body, QuerySpec};
use crate::relational::Model;
use crate::select::{ColRef, SelectSpec};

/// Moves every point read served by a salted table to an unsalted table
/// that answers it from one partition, adding the entity's own table when
/// none does. Each move is a decision on both tables.
pub(super) fn route_point_reads(
    model: &Model,
    keyspace: &str,
    specs: &[QuerySpec],
    stats: Option<&Stats>,
    tables: &mut Vec<TableDesign>,
    table_stats: &mut Stats,
) {
    // The salted tables, found once: few tables are, and scanning every
    // table for every read was quadratic (a twentieth of a 10,000-table
    // design, and growing with it).
    let mut salted_tables = salted_indexes(tables);
    for q in specs {
        let Body::Select(spec) = &q.body else {
            continue;
        };
        if !spec.aggregates.is_empty() || !spec.group_by.is_empty() || q.table.is_some() {
            continue;
        }
        let Some(from) = salted_tables
            .iter()
            .copied()
            .find(|&i| tables.get(i).is_some_and(|t| t.queries.contains(&q.name)))
        else {
            continue;
        };
        let Some(salted_table) = tables.get(from) else {
            continue;
        };
        if !binds_every_key(salted_table, spec) {
            continue;
        }
        let salt = salt_of(salted_table);
        let mut to = tables.iter().position(|t| serves_point(t, spec));
        if to.is_none()
            && let [entity] = salted_table.grain.as_slice()
        {
            let entity = entity.clone();
            let why = format!("the point read {} must not fan out over a salt", q.name);
            if let Some(i) = crate::lookups::ensure_lookup(model, &entity, tables, &why)
                && let (Some(t), Some(stats)) = (tables.get(i), stats)
            {
                table_stats.tables.insert(
                    format!("{keyspace}.{}", t.name),
                    derived_stats(model, t, stats),
                );
            }
            to = tables.iter().position(|t| serves_point(t, spec));
            // The lookup may have added or changed a table.
            salted_tables = salted_indexes(tables);
        }
        move_query(tables, &q.name, from, to, salt);
    }
}

/// The indexes of the salted tables, in table order.
fn salted_indexes(tables: &[TableDesign]) -> Vec<usize> {
    tables
        .iter()
        .enumerate()
        .filter(|(_, t)| salted(t))
        .map(|(i, _)| i)
        .collect()
}

fn move_query(tables: &mut [TableDesign], query: &str, from: usize, to: Option<usize>, salt: u32) {
    let Some(to) = to else {
        if let Some(t) = tables.get_mut(from) {
            t.decisions.push(format!(
                "{query} binds every key column but no unsalted table holds what it reads: it runs once per salt bucket ({salt}); add a table keyed by its equalities"
            ));
        }
        return;
    };
    let to_name = tables.get(to).map(|t| t.name.clone()).unwrap_or_default();
    if let Some(t) = tables.get_mut(from) {
        t.queries.retain(|n| n != query);
        t.decisions.push(format!(
            "{query} reads one row by its full key: served by `{to_name}` (one partition), not by this table's {salt} salt buckets"
        ));
    }
    if let Some(t) = tables.get_mut(to) {
        t.queries.push(query.to_string());
        t.decisions.push(format!(
            "serves the point read {query}: it binds every key column here, one partition, where the salted table it merged into would read {salt}"
        ));
    }
}

fn salted(t: &TableDesign) -> bool {
    salt_of(t) > 0
}

fn salt_of(t: &TableDesign) -> u32 {
    t.partition_key
        .iter()
        .find_map(|p| match p {
            KeyPart::Salt(n) => Some(*n),
            _ => None,
        })
        .unwrap_or(0)
}

/// The attribute (or one equal to it, in the table or the read) is bound by `=`.
fn bound(t: &TableDesign, spec: &SelectSpec, c: &ColRef) -> bool {
    let mut same = class_of(&t.classes, c);
    for (a, b) in &spec.joins {
        if same.contains(a) && !same.contains(b) {
            same.push(b.clone());
        } else if same.contains(b) && !same.contains(a) {
            same.push(a.clone());
        }
    }
    spec.equalities
        .iter()
        .any(|(e, n)| *n == 1 && same.contains(e))
}

/// Every partition-key and clustering attribute is bound by one value.
fn binds_every_key(t: &TableDesign, spec: &SelectSpec) -> bool {
    t.partition_key
        .iter()
        .chain(t.clustering.iter().map(|(p, _)| p))
        .all(|p| match p {
            KeyPart::Attr(a) => bound(t, spec, a),
            KeyPart::Salt(_) => true,
            _ => false,
        })
}

/// An unsalted, unbucketed table whose key the read binds whole and that
/// holds every attribute it reads.
fn serves_point(t: &TableDesign, spec: &SelectSpec) -> bool {
    t.kind == TableKind::Table
        && !t.partition_key.is_empty()
        && t.partition_key
            .iter()
            .chain(t.clustering.iter().map(|(p, _)| p))
            .all(|p| matches!(p, KeyPart::Attr(a) if bound(t, spec, a)))
        && spec.projection.iter().all(|c| t.column_of(c).is_some())
}
