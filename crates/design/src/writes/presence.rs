//! How the mutated entity appears in a table, and which of the table's keys
//! the mutation binds.

use crate::derive::{KeyPart, Role, TableColumn, TableDesign};
use crate::querylist::MutationSpec;
use crate::relational::Model;

/// How the mutated entity appears in a table.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Presence {
    /// Its rows are the table's rows (alone, or with other entities' rows).
    Grain,
    /// Its attributes are static columns: one copy per partition.
    Static,
    /// Its attributes are copied into the rows of other entities.
    Copied,
    Absent,
}

pub(super) fn presence(t: &TableDesign, entity: &str) -> Presence {
    if t.grain.iter().any(|g| g == entity) {
        return Presence::Grain;
    }
    let cols: Vec<&TableColumn> = t
        .columns
        .iter()
        .filter(|c| holds_entity(t, c, entity) && matches!(c.role, Role::Static | Role::Regular))
        .collect();
    if cols.is_empty() {
        Presence::Absent
    } else if cols.iter().all(|c| c.role == Role::Static) {
        Presence::Static
    } else {
        Presence::Copied
    }
}

/// True when the column holds an attribute of `entity` (directly or through a join equality).
pub(super) fn holds_entity(t: &TableDesign, c: &TableColumn, entity: &str) -> bool {
    match &c.part {
        KeyPart::Attr(a) => crate::derive::class_of(&t.classes, a)
            .iter()
            .any(|m| m.entity == entity),
        _ => false,
    }
}

/// True when the column holds one of the given attributes of `entity`.
pub(super) fn holds_any(
    t: &TableDesign,
    c: &TableColumn,
    entity: &str,
    columns: &[String],
) -> bool {
    let source = match &c.part {
        KeyPart::Attr(a) | KeyPart::Bucket(a, _) => a,
        _ => return false,
    };
    crate::derive::class_of(&t.classes, source)
        .iter()
        .any(|m| m.entity == entity && columns.contains(&m.column))
}

pub(super) fn is_key(c: &TableColumn) -> bool {
    matches!(
        c.role,
        Role::PartitionKey | Role::ClusteringAsc | Role::ClusteringDesc
    )
}

/// The key columns an UPDATE or DELETE needs that its WHERE does not bind
/// (`created_at` of a row the mutation names by `(follower_id, followee_id)`):
/// the application reads them first, by the mutation's key. Returns the text
/// and the entity's columns that read must return.
pub(super) fn unbound_key(
    t: &TableDesign,
    m: &MutationSpec,
    keys: &[&TableColumn],
) -> Option<(String, Vec<String>)> {
    let mut own: Vec<String> = Vec::new();
    let missing: Vec<String> = keys
        .iter()
        .filter(|c| match &c.part {
            KeyPart::Attr(a) | KeyPart::Bucket(a, _) => {
                let class = crate::derive::class_of(&t.classes, a);
                let bound = class
                    .iter()
                    .any(|x| x.entity == m.entity && m.key.contains(&x.column));
                // A fan-out supplies the other grain entity's columns row by row.
                let from_fan_out = class
                    .iter()
                    .any(|x| x.entity != m.entity && t.grain.contains(&x.entity));
                let unbound = !bound && !from_fan_out;
                if unbound
                    && let Some(x) = class.iter().chain([a]).find(|x| x.entity == m.entity)
                    && !own.contains(&x.column)
                {
                    own.push(x.column.clone());
                }
                unbound
            }
            _ => false,
        })
        .map(|c| format!("`{}`", c.name))
        .collect();
    (!missing.is_empty() && !m.key.is_empty()).then(|| {
        let text = format!(
            "the mutation binds {} only: read {} first, by {}",
            m.key.join(", "),
            missing.join(", "),
            m.key.join(", ")
        );
        (text, own)
    })
}

/// The attributes of `entity` the table holds (in its key or as values):
/// what a read of the old row must return to delete and rewrite it.
pub(super) fn own_attributes(t: &TableDesign, entity: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in &t.columns {
        let (KeyPart::Attr(a) | KeyPart::Bucket(a, _)) = &c.part else {
            continue;
        };
        let class = crate::derive::class_of(&t.classes, a);
        if let Some(x) = class.iter().chain([a]).find(|x| x.entity == entity)
            && !out.contains(&x.column)
        {
            out.push(x.column.clone());
        }
    }
    out
}

/// True when the column holds an attribute of `entity`, or a bucket of one.
pub(super) fn holds_entity_or_bucket(t: &TableDesign, c: &TableColumn, entity: &str) -> bool {
    match &c.part {
        KeyPart::Attr(a) | KeyPart::Bucket(a, _) => crate::derive::class_of(&t.classes, a)
            .iter()
            .any(|m| m.entity == entity),
        _ => false,
    }
}

/// True when every non-key column the mutation assigns is static: Cassandra
/// then wants the partition key alone in the WHERE.
pub(super) fn only_statics(t: &TableDesign, m: &MutationSpec) -> bool {
    t.columns
        .iter()
        .filter(|c| {
            matches!(c.role, Role::Static | Role::Regular) && holds_any(t, c, &m.entity, &m.columns)
        })
        .all(|c| c.role == Role::Static)
}

/// True when the partition key is exactly the primary key of `entity`: its
/// partition is that row (with its children, if any).
pub(super) fn pk_is_entity_key(model: &Model, t: &TableDesign, entity: &str) -> bool {
    let Some(e) = model.entity(entity) else {
        return false;
    };
    let mut held: Vec<&str> = Vec::new();
    for p in &t.partition_key {
        let KeyPart::Attr(a) = p else { return false };
        let class = crate::derive::class_of(&t.classes, a);
        let Some(own) = class.iter().find(|m| m.entity == entity) else {
            return false;
        };
        held.push(
            e.primary_key
                .iter()
                .find(|c| **c == own.column)
                .map_or("", |c| c.as_str()),
        );
    }
    held.sort_unstable();
    let mut want: Vec<&str> = e.primary_key.iter().map(String::as_str).collect();
    want.sort_unstable();
    !want.is_empty() && held == want
}

/// True when the mutation's WHERE binds a key (primary or UNIQUE) of its entity.
pub(super) fn names_one_row(model: &Model, m: &MutationSpec) -> bool {
    model
        .entity(&m.entity)
        .is_some_and(|e| e.keys().any(|k| k.iter().all(|c| m.key.contains(c))))
}

/// True when the table's partition key is a UNIQUE constraint of `entity`
/// (not its primary key): a new row must claim the value, or two rows could
/// silently overwrite each other (Cassandra has no unique constraint).
pub(super) fn claims_unique(t: &TableDesign, model: &Model, entity: &str) -> bool {
    let Some(e) = model.entity(entity) else {
        return false;
    };
    let mut cols: Vec<&str> = t
        .partition_key
        .iter()
        .chain(t.clustering.iter().map(|(p, _)| p))
        .filter_map(|p| match p {
            KeyPart::Attr(a) if a.entity == entity => Some(a.column.as_str()),
            _ => None,
        })
        .collect();
    cols.sort_unstable();
    let same = |k: &Vec<String>| {
        let mut k: Vec<&str> = k.iter().map(String::as_str).collect();
        k.sort_unstable();
        k == cols
    };
    t.grain == [entity.to_string()] && !same(&e.primary_key) && e.uniques.iter().any(same)
}
