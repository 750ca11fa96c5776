//! Stage after the query-driven tables: the tables the writes need so that
//! nothing written is lost and every condition has a row to check. The row of
//! record (`<entity>_by_id`, every attribute) for an entity whose writes check
//! a condition, claim their key, or write attributes no read-driven table
//! stores; a table keyed by each UNIQUE key an insert supplies (to claim it);
//! a counter table for attributes only ever incremented; and the TTL that
//! replaces a retention job.

use crate::derive::{
    KeyPart, Role, TableColumn, TableDesign, TableKind, add_columns, candidate_names, fit_name,
    singular,
};
use crate::lookups::ensure_lookups;
use crate::meaning::Meaning;
use crate::placements::stored_in;
use crate::querylist::{Body, MutationKind, MutationSpec, QuerySpec};
use crate::relational::{Entity, Model};
use crate::select::ColRef;

/// Adds and adjusts tables so that every write keeps its meaning. Returns the
/// warnings it has for the user.
pub fn keep_every_write(
    model: &Model,
    specs: &[QuerySpec],
    meaning: &Meaning,
    tables: &mut Vec<TableDesign>,
) -> Vec<String> {
    let mut warnings = Vec::new();
    let needed = records_needed(model, specs, meaning, tables);
    ensure_lookups(model, &needed, tables);
    for (entity, key) in &meaning.unique_claims {
        if let Some(e) = model.entity(entity) {
            ensure_claim_table(model, e, key, tables);
        }
    }
    for (entity, columns) in &meaning.counters {
        if let Some(e) = model.entity(entity) {
            counter_table(e, columns, tables);
        }
    }
    for q in specs {
        if let Body::Mutation(m) = &q.body
            && m.kind == MutationKind::Delete
            && m.key.is_empty()
            && !m.ranges.is_empty()
            && let Some(w) = retention(model, &q.name, m, tables)
        {
            warnings.push(w);
        }
    }
    warnings
}

fn attr(entity: &str, column: &str) -> ColRef {
    ColRef {
        entity: entity.to_string(),
        column: column.to_string(),
    }
}

/// The entities that need their row of record, with the reason.
fn records_needed(
    model: &Model,
    specs: &[QuerySpec],
    meaning: &Meaning,
    tables: &[TableDesign],
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut need = |entity: &str, why: String| {
        if !out.iter().any(|(e, _)| e == entity) {
            out.push((entity.to_string(), why));
        }
    };
    for (entity, why) in &meaning.claimed {
        need(entity, format!("its inserts claim the primary key ({why})"));
    }
    for q in specs {
        let Body::Mutation(m) = &q.body else { continue };
        if !m.conditions.is_empty() {
            need(
                &m.entity,
                format!(
                    "`{}` is a compare-and-set: its condition is checked on the row of record",
                    q.name
                ),
            );
        }
        let counters = meaning.counters_of(&m.entity);
        let lost: Vec<String> = m
            .columns
            .iter()
            .filter(|c| !counters.contains(c))
            .filter(|c| stored_in(tables, &m.entity, c).is_empty())
            .map(|c| format!("`{c}`"))
            .collect();
        // Its rows, or its attributes as static columns of a partition (a
        // parent with its children): an update there writes the static row.
        let held = tables.iter().any(|t| {
            t.grain.contains(&m.entity)
                || t.columns.iter().any(|c| {
                    c.role == Role::Static
                        && matches!(&c.part, KeyPart::Attr(a) if crate::derive::class_of(&t.classes, a).iter().chain(std::iter::once(a)).any(|x| x.entity == m.entity))
                })
        });
        let nullable_keys = nullable_keyed(model, &m.entity, tables);
        if m.kind == MutationKind::Insert && !nullable_keys.is_empty() {
            need(
                &m.entity,
                format!(
                    "every table of `{}` rows is keyed by an attribute that may be null ({}): Cassandra refuses a null key, so those tables skip such a row, and the canonical table keeps it",
                    m.entity,
                    nullable_keys.join(", ")
                ),
            );
        }
        if !lost.is_empty() {
            need(
                &m.entity,
                format!(
                    "no table a read needs stores {} that `{}` writes: the canonical table of `{}`, kept for durability (every attribute, by primary key)",
                    lost.join(", "),
                    q.name,
                    m.entity
                ),
            );
        } else if !held && m.kind != MutationKind::Delete {
            need(
                &m.entity,
                format!(
                    "no table a read needs holds `{}` rows that `{}` writes: the canonical table, kept for durability",
                    m.entity, q.name
                ),
            );
        }
    }
    out
}

/// The nullable key attributes when every table holding `entity`'s rows has
/// one (a row with it null would be stored nowhere); else nothing.
fn nullable_keyed(model: &Model, entity: &str, tables: &[TableDesign]) -> Vec<String> {
    let Some(e) = model.entity(entity) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut holders = 0;
    for t in tables.iter().filter(|t| t.grain == [entity.to_string()]) {
        holders += 1;
        let nullable: Vec<String> = t
            .partition_key
            .iter()
            .chain(t.clustering.iter().map(|(p, _)| p))
            .filter_map(|p| match p {
                KeyPart::Attr(a) | KeyPart::Bucket(a, _)
                    if a.entity == entity && e.nullable(&a.column) =>
                {
                    Some(format!("`{}`", a.column))
                }
                _ => None,
            })
            .collect();
        if nullable.is_empty() {
            return Vec::new();
        }
        found.extend(nullable);
    }
    found.sort();
    found.dedup();
    if holders == 0 { Vec::new() } else { found }
}

/// A table keyed by the UNIQUE key alone, holding the owner's primary key:
/// where an insert claims the value (`INSERT … IF NOT EXISTS`).
fn ensure_claim_table(model: &Model, e: &Entity, key: &[String], tables: &mut Vec<TableDesign>) {
    let mut want: Vec<&str> = key.iter().map(String::as_str).collect();
    want.sort_unstable();
    let keyed = |t: &TableDesign| {
        let mut cols: Vec<&str> = t
            .partition_key
            .iter()
            .chain(t.clustering.iter().map(|(p, _)| p))
            .filter_map(|p| match p {
                KeyPart::Attr(a) if a.entity == e.name => Some(a.column.as_str()),
                _ => None,
            })
            .collect();
        cols.sort_unstable();
        t.grain == [e.name.clone()] && cols == want
    };
    if tables.iter().any(keyed) {
        return;
    }
    let mut t = crate::writes::by_primary_key(model, e);
    t.purpose = crate::derive::TablePurpose::Claim;
    t.partition_key = key
        .iter()
        .map(|c| KeyPart::Attr(attr(&e.name, c)))
        .collect();
    t.columns = Vec::new();
    let wanted: Vec<ColRef> = key
        .iter()
        .chain(&e.primary_key)
        .map(|c| attr(&e.name, c))
        .collect();
    add_columns(model, &mut t, &wanted, &[]);
    t.decisions = vec![format!(
        "claims the UNIQUE ({}) of `{}`: an insert writes it first with `IF NOT EXISTS` (Cassandra has no unique constraint), a change of the value claims the new one and releases the old",
        key.join(", "),
        e.name
    )];
    t.name = free_name(&candidate_names(&t), tables);
    tables.push(t);
}

fn free_name(candidates: &[String], tables: &[TableDesign]) -> String {
    let base = candidates.first().cloned().unwrap_or_else(|| "t".into());
    if let Some(c) = candidates
        .iter()
        .find(|c| !tables.iter().any(|t| t.name == **c))
    {
        return c.clone();
    }
    let mut n = 2;
    let mut name = fit_name(&format!("{base}_{n}"));
    while tables.iter().any(|t| t.name == name) {
        n += 1;
        name = fit_name(&format!("{base}_{n}"));
    }
    name
}

/// `<entity>_counters`: the entity's primary key and one counter column per
/// incremented attribute; the attributes leave every other table (a counter
/// cannot share a table with regular columns).
fn counter_table(e: &Entity, columns: &[String], tables: &mut Vec<TableDesign>) {
    let held: Vec<String> = tables
        .iter()
        .flat_map(|t| {
            columns
                .iter()
                .filter(|c| t.column_of(&attr(&e.name, c)).is_some())
                .map(|_| t.name.clone())
                .collect::<Vec<_>>()
        })
        .collect();
    for t in tables.iter_mut() {
        let before = t.columns.len();
        t.columns.retain(|col| {
            !(matches!(col.role, Role::Regular | Role::Static)
                && matches!(&col.part, KeyPart::Attr(a) if a.entity == e.name && columns.contains(&a.column)))
        });
        if t.columns.len() != before {
            t.decisions.push(format!(
                "{} of `{}` {} read from the counter table, not stored here: a counter cannot share a table with regular columns",
                columns.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", "),
                e.name,
                if columns.len() == 1 { "is" } else { "are" }
            ));
        }
    }
    let mut cols: Vec<TableColumn> = e
        .primary_key
        .iter()
        .filter_map(|c| {
            let a = e.attribute(c)?;
            Some(TableColumn {
                name: c.clone(),
                cql_type: a.cql_type.clone(),
                role: Role::PartitionKey,
                part: KeyPart::Attr(attr(&e.name, c)),
            })
        })
        .collect();
    for c in columns {
        cols.push(TableColumn {
            name: c.clone(),
            cql_type: "counter".into(),
            role: Role::Regular,
            part: KeyPart::Attr(attr(&e.name, c)),
        });
    }
    let name = free_name(
        &[fit_name(&format!("{}_counters", singular(&e.name)))],
        tables,
    );
    let mut t = TableDesign {
        name,
        entity: e.name.clone(),
        grain: vec![e.name.clone()],
        kind: TableKind::Counter,
        purpose: crate::derive::TablePurpose::Counters,
        partition_key: e
            .primary_key
            .iter()
            .map(|c| KeyPart::Attr(attr(&e.name, c)))
            .collect(),
        clustering: Vec::new(),
        columns: cols,
        queries: Vec::new(),
        decisions: vec![format!(
            "the counters of `{}` ({}), only ever incremented by the query list: `UPDATE … SET n = n + ?` adds without reading (reads of them read this table by primary key{})",
            e.name,
            columns.join(", "),
            if held.is_empty() {
                String::new()
            } else {
                format!("; they left {}", dedup(held).join(", "))
            }
        )],
        compaction: String::new(),
        compaction_reason: String::new(),
        ttl: None,
        classes: Vec::new(),
        ordered: 0,
        ann: Vec::new(),
        value_set: false,
    };
    t.decisions.push(
        "a counter is not idempotent: a retried increment may count twice, so retry only when the write certainly failed".into(),
    );
    tables.push(t);
}

fn dedup(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v.dedup();
    v.into_iter().map(|t| format!("`{t}`")).collect()
}

/// `DELETE … WHERE created_at < now() - interval '90 days'`: the rows expire by
/// TTL instead of being deleted (a range delete over every partition is not
/// something Cassandra runs). Returns a warning when the cutoff is unknown.
fn retention(
    model: &Model,
    query: &str,
    m: &MutationSpec,
    tables: &mut [TableDesign],
) -> Option<String> {
    let e = model.entity(&m.entity)?;
    let bound = m.ranges.iter().find(|r| {
        (r.op == "<" || r.op == "<=")
            && e.attribute(&r.column)
                .is_some_and(|a| matches!(a.cql_type.as_str(), "timestamp" | "date"))
    })?;
    let Some(ttl) = bound.cutoff_seconds else {
        return Some(format!(
            "{query}: deletes `{}` rows older than a cutoff it binds: set the tables' default_time_to_live to that age (or declare the retention in the statistics) and drop the job",
            m.entity
        ));
    };
    for t in tables
        .iter_mut()
        .filter(|t| t.grain.contains(&m.entity) && t.kind == TableKind::Table)
    {
        if t.ttl.is_none() {
            t.ttl = Some(ttl);
            t.decisions.push(format!(
                "default_time_to_live {ttl} s: `{query}` deletes rows whose `{}` is older than that; a TTL expires them without the job (it counts from the write, so rows written late live longer)",
                bound.column
            ));
        }
    }
    None
}
