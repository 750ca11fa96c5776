//! The statements one mutation writes into one table, by how the mutated
//! entity appears there (its rows, static columns, copies, or a count).

use cqlmodel_cql::keywords::quote_ident;
use cqlmodel_stats::{Stats, Volume};

use super::clauses::{
    guard_claim, owner_condition, set_of, statement, timestamped_delete, where_of,
};
use super::fan_out::{join_column, many_rows, move_copies, tail_of};
use super::planned::Planned;
use super::presence::{
    Presence, claims_unique, holds_any, holds_entity, holds_entity_or_bucket, is_key,
    names_one_row, only_statics, pk_is_entity_key, presence, unbound_key,
};
use super::{ReadSource, Step, WriteStatement};
use crate::derive::{KeyPart, Role, TableColumn, TableDesign, TableKind};
use crate::numbers::trim_float;
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
    let keys: Vec<&TableColumn> = t.columns.iter().filter(|c| is_key(c)).collect();
    let pk: Vec<&TableColumn> = t
        .columns
        .iter()
        .filter(|c| c.role == Role::PartitionKey)
        .collect();
    let key_moves = m.kind == MutationKind::Update
        && keys.iter().any(|c| holds_any(t, c, &m.entity, &m.columns));
    let others: Vec<&String> = t.grain.iter().filter(|g| **g != m.entity).collect();
    let fan = |p: &mut Planned| -> Option<String> {
        let other = others.first()?;
        let join = join_column(t, other);
        let mean = stats.and_then(|s| crate::stats_keys::rows_per_join_value(t, s, other));
        p.amplification = mean;
        if let (Some(s), Some(j)) = (stats, &join) {
            p.tail = tail_of(s, other, j).map(|x| (t.name.clone(), x));
        }
        let mut text = match &join {
            Some(j) => format!("once per `{other}` row with this `{j}`: fan-out on write"),
            None => format!("once per related `{other}` row: fan-out on write"),
        };
        let growing = stats
            .and_then(|s| s.tables.get(&crate::stats_keys::entity_key(other)))
            .is_some_and(|s| !matches!(s.volume, Volume::Fixed { .. }));
        if growing && m.kind == MutationKind::Insert {
            let newest = t
                .partition_key
                .iter()
                .find_map(|p| match p {
                    KeyPart::Bucket(_, unit) => Some(format!("the newest `{unit}` bucket")),
                    _ => None,
                })
                .unwrap_or_else(|| "the newest page".into());
            text.push_str(&format!(
                "; a backfill of a growing history: copy only what readers page through ({newest}) and let older rows be read where they live"
            ));
        }
        if let Some(a) = mean {
            text.push_str(&format!(
                " (about {} rows per write, from the statistics)",
                trim_float(a.round())
            ));
        }
        Some(text)
    };
    let presence = presence(t, &m.entity);
    if key_moves && presence != Presence::Grain {
        move_copies(&mut p, &table, t, m, &keys, &pk);
        return p;
    }
    match (presence, t.kind == TableKind::Counter) {
        (Presence::Grain, true) => {
            let where_ = where_of(&pk);
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
                    st.reads_first = Some(
                        "read the row's old value first and bind the difference (new - old)".into(),
                    );
                    st.reads = vec![ReadSource::by(&m.entity, &m.key)];
                    p.statements.push(st);
                }
                MutationKind::Update => {}
            }
            // A sum moves by the row's own value: the statement binds it.
            let sums = t.columns.iter().any(|c| matches!(c.part, KeyPart::Sum(_)));
            for st in p.statements.iter_mut().filter(|_| sums) {
                if st.reads_first.is_none() && m.kind == MutationKind::Delete {
                    st.reads_first = Some(
                        "read the deleted row's summed values first: the sums subtract them".into(),
                    );
                    st.reads = vec![ReadSource::by(&m.entity, &m.key)];
                }
            }
        }
        (Presence::Grain, false) => {
            let repeat = fan(&mut p);
            let from_fan_out = |c: &TableColumn| match &c.part {
                KeyPart::Attr(a) | KeyPart::Bucket(a, _) => crate::derive::class_of(&t.classes, a)
                    .iter()
                    .any(|x| x.entity != m.entity && t.grain.contains(&x.entity)),
                _ => false,
            };
            // Copied attributes, and key columns that come from neither the
            // written row nor the fan-out (`users.status` keying posts).
            let read_cols: Vec<&TableColumn> = t
                .columns
                .iter()
                .filter(|c| {
                    let copied = c.role == Role::Regular && !holds_entity(t, c, &m.entity);
                    let foreign_key = is_key(c)
                        && matches!(&c.part, KeyPart::Attr(_) | KeyPart::Bucket(..))
                        && !holds_entity_or_bucket(t, c, &m.entity)
                        && !from_fan_out(c);
                    copied || foreign_key
                })
                .collect();
            let reads: Vec<String> = read_cols.iter().map(|c| c.name.clone()).collect();
            let related = related_reads(model, t, &read_cols, &m.entity);
            // An INSERT names the key, the copies, and of the row's own
            // attributes those the statement sets: binding null for the others
            // would write a tombstone per column. (A key move rewrites them all.)
            let insert = || {
                let cols: Vec<String> = t
                    .columns
                    .iter()
                    .filter(|c| {
                        // The row's own static columns (attributes a one-row
                        // partition holds once) are written like its regular
                        // ones: leaving them out would store them nowhere.
                        let own_static = c.role == Role::Static && holds_entity(t, c, &m.entity);
                        is_key(c)
                            || ((c.role == Role::Regular || own_static)
                                && (m.kind != MutationKind::Insert
                                    || !holds_entity(t, c, &m.entity)
                                    || holds_any(t, c, &m.entity, &m.columns)
                                    || model.entity(&m.entity).is_some_and(|e| {
                                        holds_any(t, c, &m.entity, &e.primary_key)
                                    })))
                    })
                    .map(|c| quote_ident(&c.name))
                    .collect();
                format!(
                    "INSERT INTO {table} ({}) VALUES ({})",
                    cols.join(", "),
                    crate::reads::markers(cols.len() as u64)
                )
            };
            let delete = || format!("DELETE FROM {table} WHERE {}", where_of(&keys));
            let unique = claims_unique(t, model, &m.entity);
            let insert = || {
                if unique {
                    format!("{} IF NOT EXISTS", insert())
                } else {
                    insert()
                }
            };
            // An insert of the row, with what it copies from related rows.
            let insert_row = |repeat: Option<String>| {
                let mut st = statement(t, insert(), repeat);
                st.lwt = unique;
                if unique {
                    st.step = Step::Claim;
                }
                if !reads.is_empty() {
                    st.reads_first = Some(format!(
                        "read {} from the related rows first (read-before-write)",
                        reads.join(", ")
                    ));
                    st.reads = related.clone();
                }
                st
            };
            match m.kind {
                MutationKind::Insert => p.statements.push(insert_row(repeat)),
                MutationKind::Delete if value_set(t, &m.entity) => {
                    p.note = Some(super::value_sets::drift_note(model, stats, t));
                }
                MutationKind::Delete => {
                    let mut st = statement(t, delete(), repeat);
                    read_unbound_key(&mut st, t, m, &keys);
                    if unique {
                        guard_claim(&mut st, Step::Release, t, model, &m.entity);
                    }
                    p.statements.push(st);
                }
                MutationKind::Update if key_moves => {
                    let mut del = if unique {
                        // The old value's claim is released only if it is
                        // still this row's: another row may have claimed it since.
                        let mut st = statement(
                            t,
                            format!("{} IF {}", delete(), owner_condition(t, model, &m.entity)),
                            repeat.clone(),
                        );
                        st.lwt = true;
                        st.step = Step::Release;
                        st
                    } else {
                        statement(t, timestamped_delete(&table, &keys), repeat.clone())
                    };
                    del.reads_first = Some(if unique {
                        "a key column changes: read the old value first; release it after the new one is claimed, and skip the move when the value is unchanged".into()
                    } else {
                        "a key column changes: read the row's old key and values first; bind the DELETE's timestamp t and the INSERT's t + 1 (at one timestamp a delete wins, so an unchanged key would lose its row), or skip the move when the key is unchanged".into()
                    });
                    del.reads = vec![ReadSource::by(&m.entity, &m.key)];
                    p.statements.push(del);
                    let mut ins = insert_row(repeat);
                    if !unique {
                        ins.cql.push_str(" USING TIMESTAMP ?");
                    }
                    ins.reads_first = Some(format!(
                        "the new row carries the old row's other values: read them first, by {}{}",
                        m.key.join(", "),
                        ins.reads_first
                            .as_deref()
                            .map(|r| format!("; {r}"))
                            .unwrap_or_default()
                    ));
                    ins.reads.insert(0, ReadSource::by(&m.entity, &m.key));
                    p.statements.push(ins);
                }
                MutationKind::Update => {
                    let set = set_of(t, m);
                    if !set.is_empty() {
                        let statics = only_statics(t, m);
                        let (key, bound) = if statics {
                            (where_of(&pk), &pk)
                        } else {
                            (where_of(&keys), &keys)
                        };
                        let mut st = statement(
                            t,
                            format!("UPDATE {table} SET {} WHERE {key}", set.join(", ")),
                            repeat,
                        );
                        read_unbound_key(&mut st, t, m, bound);
                        if unique {
                            guard_claim(&mut st, Step::Conditional, t, model, &m.entity);
                        }
                        p.statements.push(st);
                    }
                }
            }
            if m.kind != MutationKind::Insert && !names_one_row(model, m) {
                many_rows(&mut p, &table, t, m, &pk);
            }
        }
        (Presence::Static, _) => {
            let statics: Vec<&TableColumn> = t
                .columns
                .iter()
                .filter(|c| c.role == Role::Static && holds_entity(t, c, &m.entity))
                .collect();
            let own = pk_is_entity_key(model, t, &m.entity);
            if !own && m.kind == MutationKind::Insert {
                // A new parent has no child yet: no partition holds it.
                return p;
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
                            where_of(&pk)
                        )
                    })
                }
                MutationKind::Delete => {
                    let own_partition = pk_is_entity_key(model, t, &m.entity);
                    Some(if own_partition {
                        format!("DELETE FROM {table} WHERE {}", where_of(&pk))
                    } else {
                        let cols: Vec<String> =
                            statics.iter().map(|c| quote_ident(&c.name)).collect();
                        format!(
                            "DELETE {} FROM {table} WHERE {}",
                            cols.join(", "),
                            where_of(&pk)
                        )
                    })
                }
            };
            if let Some(cql) = cql {
                p.statements.push(statement(t, cql, per_salt));
            }
        }
        (Presence::Copied, _) => match m.kind {
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
        },
        (Presence::Absent, _) => {}
    }
    p
}

/// A table of distinct values (crate::derive's set for `count(DISTINCT x)`)
/// of this entity: one of its rows stands for many of the entity's.
fn value_set(t: &TableDesign, entity: &str) -> bool {
    t.value_set && t.grain == [entity.to_string()]
}

/// The key columns the mutation does not bind, read first by its key.
fn read_unbound_key(
    st: &mut WriteStatement,
    t: &TableDesign,
    m: &MutationSpec,
    keys: &[&TableColumn],
) {
    st.reads_first = unbound_key(t, m, keys);
    if st.reads_first.is_some() {
        st.reads = vec![ReadSource::by(&m.entity, &m.key)];
    }
}

/// The rows of other entities that hold the given columns' values (a copied
/// attribute, a parent's key column), each read by its primary key.
fn related_reads(
    model: &Model,
    t: &TableDesign,
    cols: &[&TableColumn],
    entity: &str,
) -> Vec<ReadSource> {
    let mut out: Vec<ReadSource> = Vec::new();
    for c in cols {
        let (KeyPart::Attr(a) | KeyPart::Bucket(a, _)) = &c.part else {
            continue;
        };
        let class = crate::derive::class_of(&t.classes, a);
        let Some(source) = class
            .iter()
            .chain(std::iter::once(a))
            .find(|x| x.entity != entity)
        else {
            continue;
        };
        let Some(e) = model.entity(&source.entity) else {
            continue;
        };
        if !out.iter().any(|r| r.entity == e.name) {
            out.push(ReadSource::by(&e.name, &e.primary_key));
        }
    }
    out
}
