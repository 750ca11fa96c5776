//! The statements one mutation writes into one table, by how the mutated
//! entity appears there (its rows, static columns, copies, or a count).

use cqlmodel_cql::keywords::quote_ident;
use cqlmodel_stats::Stats;

use super::ReadSource;
use super::clauses::{set_of, statement, where_of};
use super::entity_rows::entity_rows;
use super::fan_out::move_copies;
use super::planned::Planned;
use super::presence::{
    Presence, holds_entity, holds_entity_or_bucket, is_key, only_statics, pk_is_entity_key,
    presence,
};
use super::scope::{Scope, related_reads};
use crate::derive::{KeyPart, Role, TableColumn, TableDesign, TableKind};
use crate::querylist::{MutationKind, MutationSpec};
use crate::relational::Model;

pub(super) fn plan_table(
    model: &Model,
    keyspace: &str,
    t: &TableDesign,
    m: &MutationSpec,
    stats: Option<&Stats>,
) -> Planned {
    let mut p = plan_statements(model, keyspace, t, m, stats);
    // A key column cannot be null: rows whose (nullable) key attribute is
    // null have no place in this table, and a write binding null is rejected.
    let nullable: Vec<String> = t
        .columns
        .iter()
        .filter(|c| is_key(c))
        .filter_map(|c| match &c.part {
            KeyPart::Attr(a) | KeyPart::Bucket(a, _) => crate::derive::class_of(&t.classes, a)
                .into_iter()
                .find(|x| x.entity == m.entity)
                .filter(|x| {
                    model
                        .entity(&x.entity)
                        .is_some_and(|e| e.nullable(&x.column))
                })
                .map(|x| format!("`{}`", x.column)),
            _ => None,
        })
        .collect();
    if !nullable.is_empty() {
        for st in &mut p.statements {
            st.only_when = Some(format!(
                "{} is not null: a key column cannot be null (Cassandra rejects the write), and a row without it has no place in `{}`",
                nullable.join(", "),
                t.name
            ));
        }
    }
    p
}

fn plan_statements(
    model: &Model,
    keyspace: &str,
    t: &TableDesign,
    m: &MutationSpec,
    stats: Option<&Stats>,
) -> Planned {
    let mut p = Planned::default();
    if let TableKind::View { base } = &t.kind {
        if presence(t, &m.entity) != Presence::Absent {
            p.note = Some(format!(
                "`{}` is a materialized view of `{base}`: Cassandra applies this {} to it",
                t.name,
                m.kind.verb()
            ));
        }
        return p;
    }
    let table = format!("{}.{}", quote_ident(keyspace), quote_ident(&t.name));
    if super::counters::holds_counters(t) {
        p.statements = super::counters::counter_statements(&table, t, m);
        return p;
    }
    let s = Scope::new(model, t, m, stats, table);
    let presence = presence(t, &m.entity);
    if s.key_moves && presence != Presence::Grain {
        move_copies(&mut p, &s.table, t, m, &s.keys, &s.pk);
        return p;
    }
    match (presence, t.kind == TableKind::Counter) {
        (Presence::Grain, true) => count_rows(&s, &mut p),
        (Presence::Grain, false) => entity_rows(&s, &mut p),
        (Presence::Static, _) => static_columns(&s, &mut p),
        (Presence::Copied, _) => copied_attributes(&s, &mut p),
        (Presence::Absent, _) => {}
    }
    p
}

/// A count (or sum) table of the entity: the row's insert, delete or move
/// changes the count it falls under.
fn count_rows(s: &Scope<'_>, p: &mut Planned) {
    let Scope {
        model,
        t,
        m,
        ref table,
        ref pk,
        key_moves,
        ..
    } = *s;
    let where_ = where_of(pk);
    let cql = |sign: &str| {
        format!(
            "UPDATE {table} SET {} WHERE {where_}",
            super::counters::aggregate_set(t, sign)
        )
    };
    let sums = super::counters::sums_changed(t, m);
    // A key of the count that the counted row does not hold (a
    // joined parent's attribute) is read first.
    let foreign_cols: Vec<&TableColumn> = pk
        .iter()
        .copied()
        .filter(|c| !holds_entity_or_bucket(t, c, &m.entity))
        .collect();
    let foreign: Vec<String> = foreign_cols
        .iter()
        .map(|c| format!("`{}`", c.name))
        .collect();
    let related = related_reads(model, t, &foreign_cols, &m.entity);
    let mut push = |cql: String| {
        let mut st = statement(t, cql, None);
        if !foreign.is_empty() {
            st.reads_first = Some(format!(
                "read {} of the related row first: the count is keyed by it",
                foreign.join(", ")
            ));
            st.reads = related.clone();
        }
        p.statements.push(st);
    };
    match m.kind {
        MutationKind::Insert => push(cql("+")),
        MutationKind::Delete => push(cql("-")),
        MutationKind::Update if key_moves => {
            push(cql("-"));
            push(cql("+"));
        }
        MutationKind::Update if !sums.is_empty() => {
            let mut st = statement(
                t,
                format!("UPDATE {table} SET {} WHERE {where_}", sums.join(", ")),
                None,
            );
            st.reads_first =
                Some("read the row's old value first and bind the difference (new - old)".into());
            st.reads = vec![ReadSource::by(&m.entity, &m.key)];
            p.statements.push(st);
        }
        MutationKind::Update => {}
    }
    // A sum moves by the row's own value: the statement binds it.
    let sums = t.columns.iter().any(|c| matches!(c.part, KeyPart::Sum(_)));
    for st in p.statements.iter_mut().filter(|_| sums) {
        if st.reads_first.is_none() && m.kind == MutationKind::Delete {
            st.reads_first =
                Some("read the deleted row's summed values first: the sums subtract them".into());
            st.reads = vec![ReadSource::by(&m.entity, &m.key)];
        }
    }
}

/// The entity's partition holds its static columns: written once per
/// partition (or per salt bucket), not per row.
fn static_columns(s: &Scope<'_>, p: &mut Planned) {
    let Scope {
        model,
        t,
        m,
        ref table,
        ref pk,
        ..
    } = *s;
    let statics: Vec<&TableColumn> = t
        .columns
        .iter()
        .filter(|c| c.role == Role::Static && holds_entity(t, c, &m.entity))
        .collect();
    let own = pk_is_entity_key(model, t, &m.entity);
    if !own && m.kind == MutationKind::Insert {
        // A new parent has no child yet: no partition holds it.
        return;
    }
    let per_salt = if own {
        t.partition_key.iter().find_map(|p| match p {
            KeyPart::Salt(n) => Some(format!("once per salt bucket ({n})")),
            _ => None,
        })
    } else {
        p.copies_fan_out = m.kind == MutationKind::Update;
        Some(format!(
            "once per `{}` partition holding this `{}` row (its keys read first): fan-out on write",
            t.name, m.entity
        ))
    };
    let cql = match m.kind {
        // An INSERT of the partition key and static columns alone
        // creates the partition's static row, before any child row.
        MutationKind::Insert => {
            let cols: Vec<String> = pk
                .iter()
                .chain(statics.iter())
                .map(|c| quote_ident(&c.name))
                .collect();
            Some(format!(
                "INSERT INTO {table} ({}) VALUES ({})",
                cols.join(", "),
                crate::reads::markers(cols.len() as u64)
            ))
        }
        MutationKind::Update => {
            let set = set_of(t, m);
            (!set.is_empty()).then(|| {
                format!(
                    "UPDATE {table} SET {} WHERE {}",
                    set.join(", "),
                    where_of(pk)
                )
            })
        }
        MutationKind::Delete => {
            let own_partition = pk_is_entity_key(model, t, &m.entity);
            Some(if own_partition {
                format!("DELETE FROM {table} WHERE {}", where_of(pk))
            } else {
                let cols: Vec<String> = statics.iter().map(|c| quote_ident(&c.name)).collect();
                format!(
                    "DELETE {} FROM {table} WHERE {}",
                    cols.join(", "),
                    where_of(pk)
                )
            })
        }
    };
    if let Some(cql) = cql {
        p.statements.push(statement(t, cql, per_salt));
    }
}

/// Rows of other entities that copied this row's attributes.
fn copied_attributes(s: &Scope<'_>, p: &mut Planned) {
    let Scope {
        t,
        m,
        ref table,
        ref keys,
        ref pk,
        ..
    } = *s;
    match m.kind {
        MutationKind::Update => {
            let set = set_of(t, m);
            if !set.is_empty() {
                p.copies_fan_out = true;
                let key = if only_statics(t, m) { &pk } else { &keys };
                p.statements.push(statement(
                    t,
                    format!(
                        "UPDATE {table} SET {} WHERE {}",
                        set.join(", "),
                        where_of(key)
                    ),
                    Some(format!(
                        "once per `{}` row that copied this `{}` row: fan-out on write",
                        t.name, m.entity
                    )),
                ));
            }
        }
        MutationKind::Insert => {}
        MutationKind::Delete => {
            p.note = Some(format!(
                "`{}` keeps its copies of the deleted `{}` row's attributes in rows of other entities; delete or rewrite those rows where the model's foreign key requires it",
                t.name, m.entity
            ));
        }
    }
}
