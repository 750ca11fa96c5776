//! (c): every read is served by a keyed table, and tables are well named.

use std::collections::BTreeSet;

use cqlmodel_design::Design;
use cqlmodel_design::derive::KeyPart;
use cqlmodel_design::select::ColRef;

use super::schema::NAME_LENGTH;
use super::{Defect, Problem, grain};
use crate::strategies::Case;

/// (c) every table has a partition key; every read of the list is planned, a
/// declared `@path analytics` off the OLTP path, the others on a table of the
/// design that lists them, touching at least one partition.
pub fn reads(c: &Case, d: &Design) -> Vec<Problem> {
    let mut problems = Vec::new();
    for t in &d.tables {
        if t.partition_key.is_empty() {
            problems.push(Problem::unknown(format!("{} has no partition key", t.name)));
        }
    }
    for r in &c.reads {
        let Some(q) = d.queries.iter().find(|q| q.name == r.name) else {
            problems.push(Problem::unknown(format!(
                "read {} is not in the design",
                r.name
            )));
            continue;
        };
        if r.analytics && q.off_path.is_none() {
            problems.push(Problem::unknown(format!(
                "{} is declared @path analytics but got a table",
                q.name
            )));
        }
        if q.table.is_some() != q.cql.is_some() || q.table.is_some() == q.off_path.is_some() {
            problems.push(Problem::unknown(format!(
                "{}: table {:?}, cql {:?}, off path {:?} disagree",
                q.name, q.table, q.cql, q.off_path
            )));
        }
        let Some(table) = &q.table else { continue };
        if q.partitions.is_none_or(|p| p < 1) {
            problems.push(Problem::unknown(format!(
                "{} on {table} touches {:?} partitions",
                q.name, q.partitions
            )));
        }
        match d.tables.iter().find(|t| t.name == *table) {
            None => problems.push(Problem::unknown(format!(
                "{} is served by {table}, which the design lacks",
                q.name
            ))),
            Some(t) if !t.queries.contains(&q.name) => problems.push(Problem::unknown(format!(
                "{} is served by {table}, which does not list it",
                q.name
            ))),
            Some(_) => {}
        }
        if let Some(wanted) = &r.table
            && wanted != table
        {
            problems.push(Problem::new(
                Some(Defect::TableAnnotationIgnored),
                format!(
                    "{} asks for @table {wanted} and is served by {table}",
                    q.name
                ),
            ));
        }
    }
    problems
}

/// `[a-z][a-z0-9_]*`: usable in CQL without quotes.
fn plain_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// `name_2`, `name_13`: the suffix a name collision gets.
fn collision_suffix(name: &str) -> bool {
    name.rsplit_once('_').is_some_and(|(stem, n)| {
        !stem.is_empty() && !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())
    })
}

/// (c) table names are unique plain identifiers of at most 48 characters,
/// `<entity>_by_<key>` for an entity of the model (`<entity>_count_by_<key>`
/// for a counter table) or an `@table` name, without a collision suffix.
pub fn names(c: &Case, d: &Design) -> Vec<Problem> {
    let given: Vec<&String> = c.reads.iter().filter_map(|r| r.table.as_ref()).collect();
    let mut seen = BTreeSet::new();
    let mut problems = Vec::new();
    for t in &d.tables {
        if !seen.insert(t.name.clone()) {
            problems.push(Problem::unknown(format!("two tables are named {}", t.name)));
        }
        if !plain_identifier(&t.name) {
            problems.push(Problem::unknown(format!(
                "{:?} is not a plain CQL identifier",
                t.name
            )));
        }
        if t.name.len() > NAME_LENGTH {
            problems.push(Problem::new(
                Some(Defect::LongTableName),
                format!("{} is longer than {NAME_LENGTH} characters", t.name),
            ));
        }
        if collision_suffix(&t.name) && !given.contains(&&t.name) {
            problems.push(Problem::new(
                Some(Defect::CollisionSuffix),
                format!("{} carries a collision suffix", t.name),
            ));
        }
        // The table's own entity, or the one its partition stands for (a
        // parent's row: `product_by_id` for the videos of a product).
        let conventional = c.model.tables.iter().any(|e| {
            let singular = cqlmodel_design::derive::singular(&e.name);
            [&e.name, &singular].iter().any(|e| {
                ["_by_", "_count_by_"].iter().any(|by| {
                    t.name
                        .strip_prefix(&format!("{e}{by}"))
                        .is_some_and(|rest| !rest.is_empty())
                })
            })
        });
        // A small table read whole (constant `bucket` partition): `all_<entity>`.
        let whole = t.partition_key == [cqlmodel_design::derive::KeyPart::Whole]
            && t.name.starts_with("all_");
        // The hybrid's bookkeeping is named after the table it serves.
        let bookkeeping = t
            .purpose
            .hybrid_of()
            .is_some_and(|of| t.name.starts_with(of));
        if !conventional && !whole && !bookkeeping && !given.contains(&&t.name) {
            problems.push(Problem::unknown(format!(
                "{} is neither `<entity>_by_<key>` nor an @table name",
                t.name
            )));
        }
    }
    problems
}

/// A salt spreads one partition key's rows over several partitions: a table
/// whose partition key holds the whole primary key of the entity its rows are
/// (and of no other) has one row per partition and needs none.
pub fn salts(c: &Case, d: &Design) -> Vec<Problem> {
    let mut problems = Vec::new();
    for t in &d.tables {
        let salted = t
            .partition_key
            .iter()
            .any(|p| matches!(p, KeyPart::Salt(_)));
        let [entity] = grain(t).try_into().unwrap_or_default();
        let Some(e) = c.model.tables.iter().find(|e| e.name == entity) else {
            continue;
        };
        let keyed = |column: &String| {
            t.partition_key.iter().any(|p| match p {
                KeyPart::Attr(a) => {
                    let own = ColRef {
                        entity: entity.clone(),
                        column: column.clone(),
                    };
                    *a == own
                        || t.classes
                            .iter()
                            .any(|cl| cl.contains(a) && cl.contains(&own))
                }
                _ => false,
            })
        };
        if salted && e.primary_key.iter().all(keyed) {
            problems.push(Problem::new(
                Some(Defect::SaltedUniqueKey),
                format!(
                    "{} is salted though its partition key holds the primary key of `{entity}`, one row per partition",
                    t.name
                ),
            ));
        }
    }
    problems
}
