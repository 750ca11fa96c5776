//! Lookup tables by primary key: where a write path must read a row before it
//! writes (the old key of a row that moves, the attributes a child copies from
//! its parent) or a salted key lost its one-partition path, some table must
//! serve a read of the entity by its primary key.

use crate::derive::{
    KeyPart, Role, TableDesign, TableKind, add_columns, candidate_names, class_of,
};
use crate::querylist::{Body, MutationKind, QuerySpec};
use crate::relational::{Entity, Model, OnDelete};
use crate::select::ColRef;
use crate::tables_by_entity::TablesByEntity;

fn attr(e: &Entity, column: &str) -> ColRef {
    ColRef {
        entity: e.name.clone(),
        column: column.to_string(),
    }
}

/// Keyed by the entity's primary key alone.
fn keyed_by_id(e: &Entity, t: &TableDesign) -> bool {
    t.partition_key.len() == e.primary_key.len()
        && e.primary_key.iter().all(|c| {
            t.column_of(&attr(e, c))
                .is_some_and(|col| col.role == Role::PartitionKey)
        })
}

/// Makes sure a table serves a read of `entity` by its primary key with every
/// attribute: an existing one (rows, or a parent's static part of a partition),
/// else one keyed by the primary key alone takes the missing attributes, else
/// `<entity>_by_id` is added. Returns the index of the table changed or added.
pub fn ensure_lookup(
    model: &Model,
    entity: &str,
    tables: &mut Vec<TableDesign>,
    why: &str,
) -> Option<usize> {
    let mut index = TablesByEntity::new(tables);
    ensure_indexed(model, entity, tables, why, &mut index)
}

/// [`ensure_lookup`] for each `(entity, why)` in order, with the tables
/// indexed once: one scan of every table per entity made a design of
/// thousands of tables quadratic. True when a table was changed or added.
pub fn ensure_lookups(
    model: &Model,
    needed: &[(String, String)],
    tables: &mut Vec<TableDesign>,
) -> bool {
    let mut index = TablesByEntity::new(tables);
    let mut changed = false;
    for (entity, why) in needed {
        changed |= ensure_indexed(model, entity, tables, why, &mut index).is_some();
    }
    changed
}

/// [`ensure_lookup`] over the tables `index` says can hold `entity` (every
/// table when the entity has no primary key: only then can a table serve
/// it without naming it), keeping `index` up to date.
fn ensure_indexed(
    model: &Model,
    entity: &str,
    tables: &mut Vec<TableDesign>,
    why: &str,
    index: &mut TablesByEntity,
) -> Option<usize> {
    let e = model.entity(entity)?;
    let candidates: Vec<usize> = if e.primary_key.is_empty() {
        (0..tables.len()).collect()
    } else {
        index.naming(entity).to_vec()
    };
    let serves = |t: &TableDesign| {
        (keyed_by_id(e, t) || t.rows_by_primary_key(e))
            && e.attributes
                .iter()
                .all(|a| t.column_of(&attr(e, &a.name)).is_some())
    };
    if candidates
        .iter()
        .any(|&i| tables.get(i).is_some_and(serves))
    {
        return None;
    }
    let own = [entity.to_string()];
    if let Some(i) = candidates.iter().copied().find(|&i| {
        tables.get(i).is_some_and(|t| {
            t.grain == own
                && t.kind == TableKind::Table
                && (keyed_by_id(e, t) || t.rows_by_primary_key(e))
        })
    }) {
        let t = tables.get_mut(i)?;
        let wanted: Vec<ColRef> = e.attributes.iter().map(|a| attr(e, &a.name)).collect();
        // Keyed by the primary key alone a partition is one row (static or
        // not is the same); with clustering the attributes are the row's.
        let by_partition: &[ColRef] = if t.clustering.is_empty() {
            &wanted
        } else {
            &[]
        };
        add_columns(model, t, &wanted, by_partition);
        t.decisions.push(format!(
            "holds every `{entity}` attribute ({why}): keyed by the primary key alone, it serves the read in one partition"
        ));
        index.add(i, t);
        return Some(i);
    }
    let mut t = crate::writes::by_primary_key(model, e);
    t.purpose = crate::derive::TablePurpose::Record;
    let candidates = candidate_names(&t);
    let base = candidates
        .first()
        .cloned()
        .unwrap_or_else(|| entity.to_string());
    let mut name = candidates
        .iter()
        .find(|c| !index.has_name(c))
        .cloned()
        .unwrap_or_else(|| base.clone());
    let mut n = 2;
    while index.has_name(&name) {
        name = crate::derive::fit_name(&format!("{base}_{n}"));
        n += 1;
    }
    t.name = name;
    t.decisions.push(format!(
        "added because {why}: this table serves a read of `{entity}` by its primary key in one partition"
    ));
    tables.push(t);
    let i = tables.len() - 1;
    index.add(i, tables.get(i)?);
    Some(i)
}

/// The lookups the write paths read from: an entity whose UPDATE or DELETE
/// names it by primary key while one of its tables is keyed by other
/// attributes (the old values are read first), and a parent whose attributes
/// its children's tables copy (read when a child is written).
pub fn lookups_for_writes(model: &Model, specs: &[QuerySpec], tables: &mut Vec<TableDesign>) {
    let mutations: Vec<(MutationKind, String, Vec<String>)> = specs
        .iter()
        .filter_map(|q| match &q.body {
            Body::Mutation(m) => Some((m.kind, m.entity.clone(), m.key.clone())),
            _ => None,
        })
        .collect();
    let inferred = mutations.is_empty();
    let mut needed: Vec<(String, String)> = Vec::new();
    // The first reason per entity; a set, not a scan of `needed` per table.
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut need = |entity: &str, why: String| {
        if seen.insert(entity.to_string()) {
            needed.push((entity.to_string(), why));
        }
    };
    for (kind, entity, key) in &mutations {
        // An insert has every key; a mutation without equalities (a
        // retention job) names no row to look up.
        if *kind == MutationKind::Insert || key.is_empty() {
            continue;
        }
        let unbound = tables.iter().any(|t| {
            t.grain.contains(entity)
                && t.partition_key
                    .iter()
                    .chain(t.clustering.iter().map(|(p, _)| p))
                    .any(|p| match p {
                        crate::derive::KeyPart::Attr(a) | crate::derive::KeyPart::Bucket(a, _) => {
                            let class = class_of(&t.classes, a);
                            !class
                                .iter()
                                .any(|x| x.entity == *entity && key.contains(&x.column))
                                && !class
                                    .iter()
                                    .any(|x| x.entity != *entity && t.grain.contains(&x.entity))
                        }
                        _ => false,
                    })
        });
        if unbound {
            need(
                entity,
                "its updates and deletes read a row's other key values first, by primary key"
                    .to_string(),
            );
        }
    }
    if !mutations.is_empty() || inferred {
        for t in tables.iter() {
            // Key columns too: a child's partition keyed by its parent's
            // attribute reads it first just the same.
            for c in t.columns.iter().filter(|c| c.role != Role::Static) {
                if let Some(parent) = t.copied_from(c) {
                    need(
                        parent,
                        format!(
                            "`{}` copies its attributes, read when a row of `{}` is written",
                            t.name, t.entity
                        ),
                    );
                }
            }
        }
    }
    ensure_lookups(model, &needed, tables);
}

/// Tables that list a child's keys by its reference to the parent, added where
/// a parent's delete cascades (`ON DELETE CASCADE` / `SET NULL`) to child rows
/// in tables keyed otherwise and no designed table finds them by the
/// reference: without one, the cascade would delete rows no table can find.
/// The child's insert and delete paths keep the lookup like any table of it.
/// Runs once every table of the entities exists (after the canonical tables
/// that keep every write), since those are the ones a cascade must reach.
pub fn cascade_lookups(
    model: &Model,
    specs: &[QuerySpec],
    stats: Option<&cqlmodel_stats::Stats>,
    tables: &mut Vec<TableDesign>,
) {
    let mutations: Vec<(MutationKind, String, Vec<String>)> = specs
        .iter()
        .filter_map(|q| match &q.body {
            Body::Mutation(m) => Some((m.kind, m.entity.clone(), m.key.clone())),
            _ => None,
        })
        .collect();
    let inserted = |e: &str| {
        mutations.is_empty()
            || mutations
                .iter()
                .any(|(k, x, _)| *k == MutationKind::Insert && x == e)
    };
    for (kind, root, key) in &mutations {
        if *kind != MutationKind::Delete || key.is_empty() {
            continue;
        }
        let mut parents = vec![(root.clone(), 0usize)];
        let mut visited = vec![root.clone()];
        while let Some((parent, depth)) = parents.pop() {
            for child in &model.entities {
                for fk in child.foreign_keys.iter().filter(|f| f.table == parent) {
                    let Some(action) = fk.on_delete else { continue };
                    if visited.contains(&child.name) || depth >= CASCADE_DEPTH {
                        continue;
                    }
                    // Rows that expire by TTL are left to expire by the
                    // cascade; rows no insert writes would never be listed.
                    if !expires(stats, &child.name) && inserted(&child.name) {
                        children_lookup(model, &parent, child, &fk.columns, action, tables);
                    }
                    if action == OnDelete::Cascade {
                        visited.push(child.name.clone());
                        parents.push((child.name.clone(), depth + 1));
                    }
                }
            }
        }
    }
}

/// True when the statistics give the entity a retention: its tables get a TTL.
fn expires(stats: Option<&cqlmodel_stats::Stats>, entity: &str) -> bool {
    stats
        .and_then(|s| s.tables.get(&crate::stats_keys::entity_key(entity)))
        .is_some_and(|t| matches!(t.retention, cqlmodel_stats::Retention::Seconds(_)))
}

/// Adds the lookup of `child` by `fk` when a table holds its rows under
/// another key (one delete per child row) and none finds them by `fk`.
fn children_lookup(
    model: &Model,
    parent: &str,
    child: &Entity,
    fk: &[String],
    action: OnDelete,
    tables: &mut Vec<TableDesign>,
) {
    let by_reference = |t: &TableDesign| {
        t.partition_key.len() == fk.len()
            && t.partition_key.iter().all(|p| {
                matches!(p, KeyPart::Attr(a) if a.entity == child.name && fk.contains(&a.column))
            })
    };
    let holds = |t: &TableDesign| {
        t.grain.contains(&child.name) && !matches!(t.kind, TableKind::View { .. })
    };
    let per_row = tables.iter().any(|t| holds(t) && !by_reference(t));
    let found = tables
        .iter()
        .any(|t| holds(t) && t.grain.len() == 1 && t.kind == TableKind::Table && by_reference(t));
    if !per_row || found {
        return;
    }
    let (verb, word) = match action {
        OnDelete::Cascade => ("deletes", "CASCADE"),
        OnDelete::SetNull => ("detaches", "SET NULL"),
    };
    let why = format!(
        "deleting a `{parent}` {verb} its `{}` rows (ON DELETE {word}), and no other table finds them by `{}`",
        child.name,
        fk.join(", ")
    );
    add_children_lookup(model, child, fk, &why, tables);
}

/// As deep as the cascade's write path plans (crate::writes::cascade).
const CASCADE_DEPTH: usize = 3;

/// `<child>_by_<reference>`: one partition per parent, one row per child,
/// keys only.
pub(crate) fn add_children_lookup(
    model: &Model,
    child: &Entity,
    fk: &[String],
    why: &str,
    tables: &mut Vec<TableDesign>,
) {
    let mut t = crate::writes::by_primary_key(model, child);
    t.purpose = crate::derive::TablePurpose::Lookup;
    t.partition_key = fk.iter().map(|c| KeyPart::Attr(attr(child, c))).collect();
    t.clustering = child
        .primary_key
        .iter()
        .filter(|c| !fk.contains(c))
        .map(|c| (KeyPart::Attr(attr(child, c)), false))
        .collect();
    t.columns.clear();
    add_columns(model, &mut t, &[], &[]);
    t.decisions = vec![format!(
        "added because {why}: one partition per `{}` lists its `{}` keys ({}), so the delete path reads them in one partition; `{}`'s own writes keep it",
        fk.join(", "),
        child.name,
        child.primary_key.join(", "),
        child.name
    )];
    // The first free name of the candidates (a read's table may hold the
    // plain `<child>_by_<key>` with another shape), a counter only when every
    // candidate is taken.
    let candidates = candidate_names(&t);
    let base = candidates
        .first()
        .cloned()
        .unwrap_or_else(|| format!("{}_by_{}", child.name, fk.join("_")));
    let mut name = candidates
        .iter()
        .find(|c| !tables.iter().any(|x| &x.name == *c))
        .cloned()
        .unwrap_or_else(|| base.clone());
    let mut n = 2;
    while tables.iter().any(|x| x.name == name) {
        name = crate::derive::fit_name(&format!("{base}_{n}"));
        n += 1;
    }
    t.name = name;
    tables.push(t);
}
