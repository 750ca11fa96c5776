//! Write paths rely only on rows they can find (issue 10 §3). A statement
//! that reads first (a row's other key values by its primary key, a parent's
//! attributes a child copies) reads the entity's table by primary key; that
//! table must be in the design and kept by the entity's own write paths, or
//! the read finds nothing. Where no write path of the query list inserts the
//! entity, the design says the rows come from outside it.

use std::collections::HashMap;

use serde::Serialize;

use crate::derive::{KeyPart, TableDesign, TableKind};
use crate::querylist::MutationKind;
use crate::relational::{Entity, Model};
use crate::tables_by_entity::TablesByEntity;
use crate::writes::WritePath;

/// One entity a write path reads before it writes, and where.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReadFirst {
    /// The write path that reads first.
    pub path: String,
    /// The entity whose row it reads.
    pub entity: String,
    /// The table that serves the read (by the entity's primary key).
    pub table: Option<String>,
    /// The write paths of the entity that write that table.
    pub kept_by: Vec<String>,
    /// Whether one of them inserts the entity (else its rows come from outside
    /// the query list).
    pub inserted: bool,
}

/// Every read-first source of every write path.
pub fn read_first_sources(
    model: &Model,
    tables: &[TableDesign],
    paths: &[WritePath],
) -> Vec<ReadFirst> {
    // Indexed once: a scan of every table (and every path) per read-first
    // statement made a 10,000-table design quadratic.
    let by_name: HashMap<&str, &TableDesign> =
        tables.iter().rev().map(|t| (t.name.as_str(), t)).collect();
    let mut paths_of: HashMap<&str, Vec<&WritePath>> = HashMap::new();
    for p in paths {
        paths_of.entry(p.entity.as_str()).or_default().push(p);
    }
    let by_entity = TablesByEntity::new(tables);
    let mut table_of: HashMap<String, Option<String>> = HashMap::new();
    let mut out = Vec::new();
    for w in paths {
        // A read of bookkeeping only (a per-key width, a cold key's count:
        // tables that hold no entity's rows) reads no entity row.
        let bookkeeping = |s: &&crate::writes::WriteStatement| {
            !s.reads.is_empty()
                && s.reads.iter().all(|r| {
                    r.table
                        .as_deref()
                        .and_then(|t| by_name.get(t))
                        .is_some_and(|t| t.grain.is_empty())
                })
        };
        let reading: Vec<_> = w
            .statements
            .iter()
            .filter(|s| s.reads_first.is_some() && !bookkeeping(s))
            .collect();
        if reading.is_empty() {
            continue;
        }
        let mut entities = vec![w.entity.clone()];
        for st in &reading {
            let Some(t) = by_name.get(st.table.as_str()) else {
                continue;
            };
            for e in copied_from(t) {
                if !entities.contains(&e) {
                    entities.push(e);
                }
            }
        }
        for entity in entities {
            let Some(e) = model.entity(&entity) else {
                continue;
            };
            let table = table_of
                .entry(entity.clone())
                .or_insert_with(|| table_by_primary_key(tables, &by_entity, e))
                .clone();
            let writers: Vec<&WritePath> = paths_of
                .get(entity.as_str())
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .copied()
                .filter(|p| {
                    table
                        .as_ref()
                        .is_some_and(|t| p.statements.iter().any(|s| s.table == *t))
                })
                .collect();
            out.push(ReadFirst {
                path: w.name.clone(),
                entity,
                kept_by: writers.iter().map(|p| p.name.clone()).collect(),
                inserted: writers.iter().any(|p| p.kind == MutationKind::Insert),
                table,
            });
        }
    }
    out
}

/// The table a read by `e`'s primary key goes to: one keyed by exactly the
/// primary key first (it finds the row with no other key value), else any
/// that holds the rows by it.
fn table_by_primary_key(
    tables: &[TableDesign],
    by_entity: &TablesByEntity,
    e: &Entity,
) -> Option<String> {
    // Only a table naming the entity holds its rows by its primary key
    // (unless the entity has none).
    let candidates: Vec<&TableDesign> = if e.primary_key.is_empty() {
        tables.iter().collect()
    } else {
        by_entity
            .naming(&e.name)
            .iter()
            .filter_map(|&i| tables.get(i))
            .collect()
    };
    candidates
        .iter()
        .find(|t| by_primary_key(t, e) && key_len(t) == e.primary_key.len())
        .or_else(|| candidates.iter().find(|t| by_primary_key(t, e)))
        .map(|t| t.name.clone())
}

fn key_len(t: &TableDesign) -> usize {
    t.partition_key.len() + t.clustering.len()
}

/// The entities whose attributes a table copies into other entities' rows.
fn copied_from(t: &TableDesign) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in &t.columns {
        if let Some(e) = t.copied_from(c)
            && !out.iter().any(|x| x == e)
        {
            out.push(e.to_string());
        }
    }
    out
}

/// A plain table holding the entity's rows by its primary key, or keyed by
/// it alone (a parent's partition).
fn by_primary_key(t: &TableDesign, e: &Entity) -> bool {
    if t.kind != TableKind::Table {
        return false;
    }
    if t.rows_by_primary_key(e) {
        return true;
    }
    t.partition_key.len() == e.primary_key.len()
        && e.primary_key.iter().all(|k| {
            t.partition_key.iter().any(|p| {
                matches!(p, KeyPart::Attr(a) if crate::derive::class_of(&t.classes, a)
                    .iter()
                    .chain(std::iter::once(a))
                    .any(|x| x.entity == e.name && x == &crate::select::ColRef { entity: e.name.clone(), column: k.clone() }))
            })
        })
}

/// Adds the entity's table by primary key for every read-first source no
/// table serves; true when one was added.
pub(super) fn add_missing_lookups(
    model: &Model,
    sources: &[ReadFirst],
    tables: &mut Vec<TableDesign>,
) -> bool {
    // One batch: the tables are indexed once, not scanned per source.
    let needed: Vec<(String, String)> = sources
        .iter()
        .filter(|s| s.table.is_none())
        .map(|s| {
            let why = format!(
                "{} reads a `{}` row first, by its primary key",
                s.path, s.entity
            );
            (s.entity.clone(), why)
        })
        .collect();
    crate::lookups::ensure_lookups(model, &needed, tables)
}

/// The warnings of read-first steps that read a table no path keeps, or that
/// no table serves: never silent.
pub(super) fn read_first_warnings(sources: &[ReadFirst], inferred: bool) -> Vec<String> {
    let mut out = Vec::new();
    for s in sources {
        let warning = match &s.table {
            None => format!(
                "{}: reads a `{}` row first, and no table holds `{}` rows by its primary key: the read cannot be served",
                s.path, s.entity, s.entity
            ),
            Some(t) if s.kept_by.is_empty() => format!(
                "{}: reads a `{}` row first from `{t}`, which no write path of the query list writes: the rows must be loaded from outside it (add the mutations of `{}` to the query list)",
                s.path, s.entity, s.entity
            ),
            Some(t) if !s.inserted && !inferred => format!(
                "{}: reads a `{}` row first from `{t}`, kept by {} but inserted by no statement of the query list: the rows must be loaded from outside it (add the INSERT of `{}`)",
                s.path,
                s.entity,
                s.kept_by.join(", "),
                s.entity
            ),
            Some(_) => continue,
        };
        if !out.contains(&warning) {
            out.push(warning);
        }
    }
    out
}
