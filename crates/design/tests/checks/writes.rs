//! (e): every mutation writes every table holding the mutated entity's rows
//! (or the assigned attributes), each statement keyed by what the row has.

use std::collections::BTreeSet;

use cqlmodel_design::Design;
use cqlmodel_design::derive::{KeyPart, Role, TableDesign};

use super::{Defect, Problem, grain, is_counter, view_base};
use crate::strategies::Case;
use crate::strategies::queries::Kind;

/// The mutations the design must plan: the query list's, or when it has none,
/// insert, update (of the non-key attributes) and delete of every entity.
pub fn mutations(c: &Case) -> Vec<(String, Kind, String, Vec<String>)> {
    if !c.mutations.is_empty() {
        return c
            .mutations
            .iter()
            .map(|m| {
                let t = &c.model.tables[m.table];
                (m.name.clone(), m.kind, t.name.clone(), m.columns.clone())
            })
            .collect();
    }
    let mut out = Vec::new();
    for t in &c.model.tables {
        let all: Vec<String> = t.columns.iter().map(|col| col.name.clone()).collect();
        let non_key: Vec<String> = t.non_key().iter().map(|col| col.name.clone()).collect();
        out.push((
            format!("insert_{}", t.name),
            Kind::Insert,
            t.name.clone(),
            all,
        ));
        if !non_key.is_empty() {
            out.push((
                format!("update_{}", t.name),
                Kind::Update,
                t.name.clone(),
                non_key,
            ));
        }
        out.push((
            format!("delete_{}", t.name),
            Kind::Delete,
            t.name.clone(),
            Vec::new(),
        ));
    }
    out
}

/// The roles in which `t` holds attributes of `entity` (all of them, or only
/// those in `only`).
fn roles(t: &TableDesign, entity: &str, only: Option<&[String]>) -> Vec<Role> {
    t.columns
        .iter()
        .filter(|col| {
            matches!(&col.part, KeyPart::Attr(a)
                if a.entity == entity && only.is_none_or(|o| o.contains(&a.column)))
        })
        .map(|col| col.role)
        .collect()
}

/// True when a key column of `t` is an attribute of `entity`, or equal to one
/// by a join: a table keyed by none of an entity's attributes holds none of
/// its rows (only copies of its attributes).
fn keyed_by(t: &TableDesign, entity: &str) -> bool {
    t.columns
        .iter()
        .filter(|c| !matches!(c.role, Role::Static | Role::Regular))
        .any(|c| match &c.part {
            KeyPart::Attr(a) | KeyPart::Bucket(a, _) => {
                a.entity == entity
                    || t.classes
                        .iter()
                        .any(|cl| cl.contains(a) && cl.iter().any(|m| m.entity == entity))
            }
            _ => false,
        })
}

/// Why a table a mutation should write was left out, when it is a known
/// defect; `roles` are those of the mutated entity's columns there.
fn unwritten(t: &TableDesign, kind: Kind, roles: &[Role]) -> Option<Defect> {
    let all = |f: fn(&Role) -> bool| !roles.is_empty() && roles.iter().all(f);
    if is_counter(t) {
        Some(Defect::CounterNotMaintained)
    } else if kind == Kind::Update && all(|r| !matches!(r, Role::Static | Role::Regular)) {
        Some(Defect::KeyUpdateUnwritten)
    } else {
        None
    }
}

/// (e) every mutation has a write path for its entity, and it writes every
/// table whose rows are the entity's (for an UPDATE: those holding an assigned
/// attribute). With `copies`, an UPDATE also writes the other tables holding
/// an assigned attribute: docs/design.md promises the statements that keep
/// "every table holding the entity's attributes in step". (A DELETE is not held
/// to the copies: without ON DELETE CASCADE a parent with children cannot be
/// deleted, so its copies in the children's rows may be left alone.)
pub fn write_paths(c: &Case, d: &Design, copies: bool) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (name, kind, entity, columns) in mutations(c) {
        let Some(w) = d.write_paths.iter().find(|w| w.name == name) else {
            problems.push(Problem::unknown(format!(
                "mutation {name} has no write path"
            )));
            continue;
        };
        if w.entity != entity {
            problems.push(Problem::unknown(format!(
                "write path {name} is for {}, not {entity}",
                w.entity
            )));
        }
        let written: BTreeSet<&str> = w.statements.iter().map(|s| s.table.as_str()).collect();
        let bookkeeping = super::bookkeeping(d);
        for t in d
            .tables
            .iter()
            .filter(|t| !bookkeeping.contains(t.name.as_str()))
        {
            let base = view_base(t);
            if written.contains(t.name.as_str())
                || base.is_some_and(|b| written.contains(b.as_str()))
            {
                continue;
            }
            let own = grain(t).contains(&entity) && keyed_by(t, &entity);
            let must = match kind {
                Kind::Insert | Kind::Delete => own,
                Kind::Update => (own || copies) && !roles(t, &entity, Some(&columns)).is_empty(),
            };
            if must {
                let held = roles(t, &entity, (kind == Kind::Update).then_some(&columns));
                problems.push(Problem::new(
                    unwritten(t, kind, &held),
                    format!(
                        "{name} ({kind:?} of {entity}) does not write {}, which holds {entity} {held:?}",
                        t.name
                    ),
                ));
            }
        }
    }
    problems
}

/// The columns a write statement binds: an INSERT's columns, the WHERE
/// columns of an UPDATE or DELETE.
fn bound_columns(cql: &str) -> Vec<String> {
    use cqlmodel_cql::ast::{InsertValues, RelationKind, StatementKind};
    let parsed = cqlmodel_cql::parse(cql);
    let Some(statement) = parsed.statements.first() else {
        return Vec::new();
    };
    let relations = match &statement.kind {
        StatementKind::Insert(i) => {
            return match &i.values {
                InsertValues::Values { columns, .. } => {
                    columns.iter().map(|c| c.value.clone()).collect()
                }
                _ => Vec::new(),
            };
        }
        StatementKind::Update(u) => &u.where_clause,
        StatementKind::Delete(d) => &d.where_clause,
        _ => return Vec::new(),
    };
    relations
        .iter()
        .filter_map(|r| match &r.kind {
            RelationKind::Column { column, .. } | RelationKind::ColumnIn { column, .. } => {
                Some(column.value.clone())
            }
            _ => None,
        })
        .collect()
}

/// True when the design says what the application reads before the statement
/// (`reads_first`, where the design has it).
fn reads_first(s: &cqlmodel_design::writes::WriteStatement) -> bool {
    serde_json::to_value(s)
        .ok()
        .and_then(|v| v.get("reads_first").cloned())
        .is_some_and(|r| !r.is_null())
}

/// (e) a statement written once per mutation (not repeated per related row)
/// and with no read before it addresses its row by values the mutated row
/// has: every key column it binds is an attribute of the mutated entity, or
/// equal to one by a join, or a time bucket of one.
pub fn write_keys(c: &Case, d: &Design) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (name, kind, entity, _) in mutations(c) {
        let Some(w) = d.write_paths.iter().find(|w| w.name == name) else {
            continue;
        };
        for s in w
            .statements
            .iter()
            .filter(|s| s.repeat.is_none() && !reads_first(s))
        {
            // The hybrid's bookkeeping is keyed as the bucketed table is (its
            // statements bind the same key), by columns of its own.
            if super::bookkeeping(d).contains(s.table.as_str()) {
                continue;
            }
            let Some(t) = d.tables.iter().find(|t| t.name == s.table) else {
                problems.push(Problem::unknown(format!(
                    "{name} writes {}, which the design lacks",
                    s.table
                )));
                continue;
            };
            // A cascade's partition delete binds the child's reference, which
            // is the deleted row's own key (the foreign key says so).
            let references_row = |a: &cqlmodel_design::select::ColRef| {
                d.model.entity(&a.entity).is_some_and(|child| {
                    child.foreign_keys.iter().any(|fk| {
                        fk.table == entity
                            && fk.on_delete.is_some()
                            && fk.columns.contains(&a.column)
                    })
                })
            };
            let from_row = |a: &cqlmodel_design::select::ColRef| {
                a.entity == entity
                    || (kind == Kind::Delete && references_row(a))
                    || t.classes
                        .iter()
                        .any(|cl| cl.contains(a) && cl.iter().any(|m| m.entity == entity))
            };
            let bound = bound_columns(&s.cql);
            let foreign: Vec<&str> = t
                .columns
                .iter()
                .filter(|col| bound.contains(&col.name))
                .filter(|col| col.role != Role::Static && col.role != Role::Regular)
                .filter(|col| match &col.part {
                    KeyPart::Attr(a) | KeyPart::Bucket(a, _) => !from_row(a),
                    _ => false,
                })
                .map(|col| col.name.as_str())
                .collect();
            if !foreign.is_empty() {
                problems.push(Problem::new(Some(Defect::WriteKeyNotFromRow), format!(
                        "{name} ({kind:?} of {entity}) writes `{}` once, keyed by {foreign:?}, which a {entity} row does not have",
                        s.cql
                    ),
                ));
            }
        }
    }
    problems
}
