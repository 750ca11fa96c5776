//! Step 4: every mutation of the model as the ordered CQL statements that keep
//! every table in step, with the consistency mechanism of each table and what is
//! not atomic.

use cqlmodel_cql::keywords::quote_ident;
use cqlmodel_stats::{Distribution, Stats, Volume};
use serde::Serialize;

use crate::derive::{KeyPart, Role, TableColumn, TableDesign, TableKind, add_columns};
use crate::plan::trim_float;
use crate::querylist::{Body, MutationKind, MutationSpec, QuerySpec};
use crate::relational::{Entity, Model};
use crate::select::ColRef;

/// One CQL statement of a write path.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WriteStatement {
    pub table: String,
    pub cql: String,
    /// `None`: once per mutation; else the rows it is repeated for.
    pub repeat: Option<String>,
    /// What the application reads before this write (copied attributes, old key values).
    pub reads_first: Option<String>,
    /// A counter update (`count = count ± 1`).
    pub counter: bool,
    /// `INSERT … IF NOT EXISTS`: claims a value the model declares UNIQUE.
    pub lwt: bool,
    /// A fan-out limited to ordinary sources: the heaviest are pulled at read time.
    pub hybrid: bool,
    /// The condition under which the statement runs (a nullable key attribute set).
    pub only_when: Option<String>,
    /// How this table is kept in step, and why.
    pub mechanism: String,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WritePath {
    pub name: String,
    pub entity: String,
    pub kind: MutationKind,
    pub inferred: bool,
    pub rate: Option<f64>,
    pub consistency: Option<String>,
    pub statements: Vec<WriteStatement>,
    /// Rows written per mutation (mean), when statistics say.
    pub write_amplification: Option<f64>,
    pub not_atomic: String,
    /// Tables the mutation leaves alone on purpose, and views Cassandra keeps.
    pub notes: Vec<String>,
}

/// The entity's own table: keyed by its primary key, every attribute.
pub fn by_primary_key(model: &Model, e: &Entity) -> TableDesign {
    let attr = |c: &String| ColRef {
        entity: e.name.clone(),
        column: c.clone(),
    };
    let mut t = TableDesign {
        name: String::new(),
        entity: e.name.clone(),
        grain: vec![e.name.clone()],
        kind: crate::derive::TableKind::Table,
        partition_key: e
            .primary_key
            .iter()
            .map(|c| KeyPart::Attr(attr(c)))
            .collect(),
        clustering: Vec::new(),
        columns: Vec::new(),
        queries: Vec::new(),
        decisions: vec![format!(
            "`{}` by its primary key ({})",
            e.name,
            e.primary_key.join(", ")
        )],
        compaction: String::new(),
        compaction_reason: String::new(),
        ttl: None,
        classes: Vec::new(),
        ordered: 0,
    };
    let wanted: Vec<ColRef> = e.attributes.iter().map(|a| attr(&a.name)).collect();
    add_columns(model, &mut t, &wanted, &[]);
    t
}

/// The statements' default set when the query list has no mutation: insert,
/// update of the non-key attributes, delete, by primary key.
fn default_mutations(model: &Model) -> Vec<(String, MutationSpec)> {
    let mut out = Vec::new();
    for e in &model.entities {
        let non_key: Vec<String> = e
            .attributes
            .iter()
            .map(|a| a.name.clone())
            .filter(|a| !e.primary_key.contains(a))
            .collect();
        out.push((
            format!("insert_{}", e.name),
            MutationSpec {
                kind: MutationKind::Insert,
                entity: e.name.clone(),
                columns: e.attributes.iter().map(|a| a.name.clone()).collect(),
                key: Vec::new(),
            },
        ));
        if !non_key.is_empty() {
            out.push((
                format!("update_{}", e.name),
                MutationSpec {
                    kind: MutationKind::Update,
                    entity: e.name.clone(),
                    columns: non_key,
                    key: e.primary_key.clone(),
                },
            ));
        }
        out.push((
            format!("delete_{}", e.name),
            MutationSpec {
                kind: MutationKind::Delete,
                entity: e.name.clone(),
                columns: Vec::new(),
                key: e.primary_key.clone(),
            },
        ));
    }
    out
}

/// Fan-out threshold: above this many rows per source row, fan-out on write
/// gives way to pull on read for the heaviest sources.
pub const FANOUT_TAIL_LIMIT: f64 = 10_000.0;

pub fn write_paths(
    model: &Model,
    specs: &[QuerySpec],
    tables: &[TableDesign],
    keyspace: &str,
    stats: Option<&Stats>,
    warnings: &mut Vec<String>,
) -> Vec<WritePath> {
    let given: Vec<(String, MutationSpec, Option<f64>, Option<String>)> = specs
        .iter()
        .filter_map(|q| match &q.body {
            Body::Mutation(m) => Some((q.name.clone(), m.clone(), q.rate, q.consistency.clone())),
            _ => None,
        })
        .collect();
    let inferred = given.is_empty();
    let list: Vec<(String, MutationSpec, Option<f64>, Option<String>)> = if inferred {
        default_mutations(model)
            .into_iter()
            .map(|(n, m)| (n, m, None, None))
            .collect()
    } else {
        given
    };
    let mut out = Vec::new();
    for (name, m, rate, cl) in list {
        let mut statements = Vec::new();
        let mut notes = Vec::new();
        let mut amplification: Option<f64> = None;
        for t in tables {
            let planned = plan_table(model, keyspace, t, &m, stats);
            if let Some(note) = planned.note {
                notes.push(note);
            }
            if let Some((table, tail)) = &planned.tail
                && *tail > FANOUT_TAIL_LIMIT
            {
                warnings.push(format!(
                    "{name}: the largest fan-out into {table} is about {} rows per write (over {}): write it for ordinary sources and let readers pull the heaviest sources' rows at read time (hybrid)",
                    cqlmodel_stats::units::format_count(*tail),
                    cqlmodel_stats::units::format_count(FANOUT_TAIL_LIMIT)
                ));
            }
            if let Some(a) = planned.amplification {
                amplification = Some(amplification.unwrap_or(0.0) + a);
            }
            if planned.copies_fan_out {
                warnings.push(format!(
                    "{name}: {} copies `{}` attributes into rows of other entities; the update rewrites every copy, row by row, and the application must find those rows: copy only attributes that rarely change, read the others from their own table at query time, or accept stale copies",
                    t.name, m.entity
                ));
            }
            let mut planned_statements = planned.statements;
            if planned
                .tail
                .is_some_and(|(_, tail)| tail > FANOUT_TAIL_LIMIT)
            {
                for st in planned_statements.iter_mut().filter(|s| s.repeat.is_some()) {
                    st.hybrid = true;
                    if let Some(r) = &mut st.repeat {
                        r.push_str(&format!(
                            "; hybrid: only for sources with at most {} such rows, the heavier ones are not fanned out and readers pull their rows",
                            cqlmodel_stats::units::format_count(FANOUT_TAIL_LIMIT)
                        ));
                    }
                }
            }
            statements.extend(planned_statements);
        }
        // The write of record first (the entity's own partition), then the
        // other tables of the batch, the counters, and the queued fan-out last.
        statements.sort_by_key(|s| {
            if s.lwt && s.cql.starts_with("DELETE") {
                4
            } else if s.lwt {
                -1
            } else if s.repeat.is_some() {
                3
            } else if s.counter {
                2
            } else if tables
                .iter()
                .any(|t| t.name == s.table && pk_is_entity_key(model, t, &m.entity))
            {
                0
            } else {
                1
            }
        });
        assign_mechanisms(&mut statements);
        let batched = statements
            .iter()
            .filter(|s| s.mechanism == "logged batch")
            .count();
        let queued = statements.iter().any(|s| s.mechanism.contains("queue"));
        let not_atomic = if statements.len() <= 1 {
            "nothing: one statement on one partition is atomic and isolated".to_string()
        } else if batched == statements.len() {
            format!(
                "the {} statements apply all or none (the batchlog replays them), but not in isolation: a reader can see one table changed and not yet the other",
                statements.len()
            )
        } else {
            let mut distinct: Vec<&str> = statements.iter().map(|s| s.table.as_str()).collect();
            distinct.sort_unstable();
            distinct.dedup();
            format!(
                "the {} statements on {} tables are not one transaction: between them a reader can see one table changed and not the other{}; Cassandra has no cross-partition isolation",
                statements.len(),
                distinct.len(),
                if queued {
                    ", and a write retried from the queue lands later"
                } else {
                    ""
                }
            )
        };
        out.push(WritePath {
            name,
            entity: m.entity.clone(),
            kind: m.kind,
            inferred,
            rate,
            consistency: cl,
            statements,
            write_amplification: amplification,
            not_atomic,
            notes,
        });
    }
    out
}

/// What one mutation writes into one table.
#[derive(Default)]
struct Planned {
    statements: Vec<WriteStatement>,
    /// Rows written into this table per mutation (mean), for a fan-out.
    amplification: Option<f64>,
    /// (table, largest fan-out) when statistics give it.
    tail: Option<(String, f64)>,
    /// An update that rewrites copies of a parent's attributes in child rows.
    copies_fan_out: bool,
    note: Option<String>,
}

/// How the mutated entity appears in a table.
#[derive(Debug, PartialEq, Eq)]
enum Presence {
    /// Its rows are the table's rows (alone, or with other entities' rows).
    Grain,
    /// Its attributes are static columns: one copy per partition.
    Static,
    /// Its attributes are copied into the rows of other entities.
    Copied,
    Absent,
}

fn presence(t: &TableDesign, entity: &str) -> Presence {
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
fn holds_entity(t: &TableDesign, c: &TableColumn, entity: &str) -> bool {
    match &c.part {
        KeyPart::Attr(a) => crate::derive::class_of(&t.classes, a)
            .iter()
            .any(|m| m.entity == entity),
        _ => false,
    }
}

/// True when the column holds one of the given attributes of `entity`.
fn holds_any(t: &TableDesign, c: &TableColumn, entity: &str, columns: &[String]) -> bool {
    let source = match &c.part {
        KeyPart::Attr(a) | KeyPart::Bucket(a, _) => a,
        _ => return false,
    };
    crate::derive::class_of(&t.classes, source)
        .iter()
        .any(|m| m.entity == entity && columns.contains(&m.column))
}

fn is_key(c: &TableColumn) -> bool {
    matches!(
        c.role,
        Role::PartitionKey | Role::ClusteringAsc | Role::ClusteringDesc
    )
}

fn plan_table(
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
        let mean = stats.and_then(|s| crate::plan::rows_per_join_value(t, s, other));
        p.amplification = mean;
        if let (Some(s), Some(j)) = (stats, &join) {
            p.tail = tail_of(s, other, j).map(|x| (t.name.clone(), x));
        }
        let mut text = match &join {
            Some(j) => format!("once per `{other}` row with this `{j}`: fan-out on write"),
            None => format!("once per related `{other}` row: fan-out on write"),
        };
        let growing = stats
            .and_then(|s| s.tables.get(&crate::plan::entity_key(other)))
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
            let cql =
                |sign: &str| format!("UPDATE {table} SET count = count {sign} 1 WHERE {where_}");
            // A key of the count that the counted row does not hold (a
            // joined parent's attribute) is read first.
            let foreign: Vec<String> = pk
                .iter()
                .filter(|c| !holds_entity_or_bucket(t, c, &m.entity))
                .map(|c| format!("`{}`", c.name))
                .collect();
            let mut push = |cql: String| {
                let mut st = statement(t, cql, None);
                if !foreign.is_empty() {
                    st.reads_first = Some(format!(
                        "read {} of the related row first: the count is keyed by it",
                        foreign.join(", ")
                    ));
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
                MutationKind::Update => {}
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
            let reads: Vec<String> = t
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
                .map(|c| c.name.clone())
                .collect();
            // An INSERT names the key, the copies, and of the row's own
            // attributes those the statement sets: binding null for the others
            // would write a tombstone per column. (A key move rewrites them all.)
            let insert = || {
                let cols: Vec<String> = t
                    .columns
                    .iter()
                    .filter(|c| {
                        is_key(c)
                            || (c.role == Role::Regular
                                && (m.kind != MutationKind::Insert
                                    || !holds_entity(t, c, &m.entity)
                                    || holds_any(t, c, &m.entity, &m.columns)))
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
                if !reads.is_empty() {
                    st.reads_first = Some(format!(
                        "read {} from the related rows first (read-before-write)",
                        reads.join(", ")
                    ));
                }
                st
            };
            match m.kind {
                MutationKind::Insert => p.statements.push(insert_row(repeat)),
                MutationKind::Delete => {
                    let mut st = statement(t, delete(), repeat);
                    st.reads_first = unbound_key(t, m, &keys);
                    if unique {
                        guard_claim(&mut st, t, model, &m.entity);
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
                        st
                    } else {
                        statement(t, timestamped_delete(&table, &keys), repeat.clone())
                    };
                    del.reads_first = Some(if unique {
                        "a key column changes: read the old value first; release it after the new one is claimed, and skip the move when the value is unchanged".into()
                    } else {
                        "a key column changes: read the row's old key and values first; bind the DELETE's timestamp t and the INSERT's t + 1 (at one timestamp a delete wins, so an unchanged key would lose its row), or skip the move when the key is unchanged".into()
                    });
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
                        st.reads_first = unbound_key(t, m, bound);
                        if unique {
                            guard_claim(&mut st, t, model, &m.entity);
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

/// The key columns an UPDATE or DELETE needs that its WHERE does not bind
/// (`created_at` of a row the mutation names by `(follower_id, followee_id)`):
/// the application reads them first, by the mutation's key.
fn unbound_key(t: &TableDesign, m: &MutationSpec, keys: &[&TableColumn]) -> Option<String> {
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
                !bound && !from_fan_out
            }
            _ => false,
        })
        .map(|c| format!("`{}`", c.name))
        .collect();
    (!missing.is_empty() && !m.key.is_empty()).then(|| {
        format!(
            "the mutation binds {} only: read {} first, by {}",
            m.key.join(", "),
            missing.join(", "),
            m.key.join(", ")
        )
    })
}

/// True when the column holds an attribute of `entity`, or a bucket of one.
fn holds_entity_or_bucket(t: &TableDesign, c: &TableColumn, entity: &str) -> bool {
    match &c.part {
        KeyPart::Attr(a) | KeyPart::Bucket(a, _) => crate::derive::class_of(&t.classes, a)
            .iter()
            .any(|m| m.entity == entity),
        _ => false,
    }
}

/// True when every non-key column the mutation assigns is static: Cassandra
/// then wants the partition key alone in the WHERE.
fn only_statics(t: &TableDesign, m: &MutationSpec) -> bool {
    t.columns
        .iter()
        .filter(|c| {
            matches!(c.role, Role::Static | Role::Regular) && holds_any(t, c, &m.entity, &m.columns)
        })
        .all(|c| c.role == Role::Static)
}

/// An update of an attribute that is a key column of a table holding other
/// entities' rows (`users.status` keying `posts_by_status`): every row holding
/// the entity moves, old key deleted, new key inserted; a counter moves its
/// count from the old key to the new one.
fn move_copies(
    p: &mut Planned,
    table: &str,
    t: &TableDesign,
    m: &MutationSpec,
    keys: &[&TableColumn],
    pk: &[&TableColumn],
) {
    let each = format!(
        "once per `{}` row holding this `{}` row (their keys and values read first): fan-out on write",
        t.name, m.entity
    );
    if t.kind == TableKind::Counter {
        let where_ = where_of(pk);
        for sign in ["-", "+"] {
            let mut st = statement(
                t,
                format!("UPDATE {table} SET count = count {sign} ? WHERE {where_}"),
                None,
            );
            st.reads_first = Some(format!(
                "the key moves: count the `{}` rows of this `{}` row first, subtract them from the old key and add them to the new one",
                t.grain.join(" × "),
                m.entity
            ));
            p.statements.push(st);
        }
        return;
    }
    let cols: Vec<String> = t
        .columns
        .iter()
        .filter(|c| is_key(c) || c.role == Role::Regular)
        .map(|c| quote_ident(&c.name))
        .collect();
    let mut del = statement(t, timestamped_delete(table, keys), Some(each.clone()));
    del.reads_first = Some(
        "a key column changes: read every row holding the old value first, delete it (timestamp t) and insert it under the new key (t + 1)".into(),
    );
    p.statements.push(del);
    p.statements.push(statement(
        t,
        format!(
            "INSERT INTO {table} ({}) VALUES ({}) USING TIMESTAMP ?",
            cols.join(", "),
            crate::reads::markers(cols.len() as u64)
        ),
        Some(each),
    ));
    p.copies_fan_out = true;
}

fn statement(t: &TableDesign, cql: String, repeat: Option<String>) -> WriteStatement {
    WriteStatement {
        table: t.name.clone(),
        cql,
        repeat,
        reads_first: None,
        counter: t.kind == TableKind::Counter,
        lwt: false,
        hybrid: false,
        only_when: None,
        mechanism: String::new(),
        reason: String::new(),
    }
}

fn where_of(cols: &[&TableColumn]) -> String {
    cols.iter()
        .map(|c| format!("{} = ?", quote_ident(&c.name)))
        .collect::<Vec<_>>()
        .join(" AND ")
}

/// `col = ?` for every non-key column holding an attribute the mutation sets.
fn set_of(t: &TableDesign, m: &MutationSpec) -> Vec<String> {
    t.columns
        .iter()
        .filter(|c| matches!(c.role, Role::Static | Role::Regular))
        .filter(|c| holds_any(t, c, &m.entity, &m.columns))
        .map(|c| format!("{} = ?", quote_ident(&c.name)))
        .collect()
}

/// True when the partition key is exactly the primary key of `entity`: its
/// partition is that row (with its children, if any).
fn pk_is_entity_key(model: &Model, t: &TableDesign, entity: &str) -> bool {
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

/// A partition claimed with a lightweight transaction is written only with
/// conditions (`… IF user_id = ?`): LWT and plain writes on one partition do not
/// order safely (Paxos ballots against client timestamps).
fn guard_claim(st: &mut WriteStatement, t: &TableDesign, model: &Model, entity: &str) {
    let condition = owner_condition(t, model, entity);
    if !condition.is_empty() {
        st.cql = format!("{} IF {condition}", st.cql);
        st.lwt = true;
    }
}

/// True when the mutation's WHERE binds a key (primary or UNIQUE) of its entity.
fn names_one_row(model: &Model, m: &MutationSpec) -> bool {
    model
        .entity(&m.entity)
        .is_some_and(|e| e.keys().any(|k| k.iter().all(|c| m.key.contains(c))))
}

/// An UPDATE or DELETE whose WHERE names many rows (`DELETE FROM activities
/// WHERE user_id = $1`): a whole partition per bucket or salt when the WHERE
/// binds the table's partition key, else once per matching row, their keys
/// read first, by a worker.
fn many_rows(p: &mut Planned, table: &str, t: &TableDesign, m: &MutationSpec, pk: &[&TableColumn]) {
    let bound = |c: &TableColumn| match &c.part {
        KeyPart::Attr(a) => crate::derive::class_of(&t.classes, a)
            .iter()
            .any(|x| x.entity == m.entity && m.key.contains(&x.column)),
        _ => true,
    };
    let per_partition = pk.iter().all(|c| bound(c));
    let spread = t.partition_key.iter().find_map(|p| match p {
        KeyPart::Bucket(_, unit) => Some(format!(
            "once per `{unit}` bucket that can hold rows (within the retention)"
        )),
        KeyPart::Salt(n) => Some(format!("once per salt bucket ({n})")),
        _ => None,
    });
    if m.kind == MutationKind::Delete && per_partition {
        let mut st = statement(
            t,
            format!("DELETE FROM {table} WHERE {}", where_of(pk)),
            spread,
        );
        st.reads_first = Some(format!(
            "the statement deletes every row with this {}: one partition tombstone per partition instead of a tombstone per row",
            m.key.join(", ")
        ));
        p.statements = vec![st];
        return;
    }
    for st in &mut p.statements {
        st.repeat = Some(format!(
            "once per `{}` row the statement's WHERE ({}) matches: a worker reads their keys first and writes each, from a queue",
            m.entity,
            m.key.join(", ")
        ));
    }
}

/// `DELETE FROM t USING TIMESTAMP ? WHERE …`: the first half of a key move.
fn timestamped_delete(table: &str, keys: &[&TableColumn]) -> String {
    format!(
        "DELETE FROM {table} USING TIMESTAMP ? WHERE {}",
        where_of(keys)
    )
}

/// `customer_id = ?`: the entity's primary key columns held in the table, the
/// condition that the claimed value is still this row's.
fn owner_condition(t: &TableDesign, model: &Model, entity: &str) -> String {
    let Some(e) = model.entity(entity) else {
        return "EXISTS".into();
    };
    let condition = e
        .primary_key
        .iter()
        .filter_map(|c| {
            t.column_of(&ColRef {
                entity: entity.to_string(),
                column: c.clone(),
            })
        })
        // A key column cannot carry a condition (the row's key then names the
        // owner already), and a static one would turn the statement into a
        // static-only write: the row then only has to exist.
        .filter(|c| c.role == Role::Regular)
        .map(|c| format!("{} = ?", quote_ident(&c.name)))
        .collect::<Vec<_>>()
        .join(" AND ");
    if condition.is_empty() {
        "EXISTS".into()
    } else {
        condition
    }
}

/// True when the table's partition key is a UNIQUE constraint of `entity`
/// (not its primary key): a new row must claim the value, or two rows could
/// silently overwrite each other (Cassandra has no unique constraint).
fn claims_unique(t: &TableDesign, model: &Model, entity: &str) -> bool {
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

/// The attribute of `entity` joined to another entity of the table.
fn join_column(t: &TableDesign, entity: &str) -> Option<String> {
    t.classes.iter().find_map(|class| {
        let mine = class.iter().find(|c| c.entity == entity)?;
        class
            .iter()
            .any(|c| c.entity != entity)
            .then(|| mine.column.clone())
    })
}

fn entity_rows(stats: &Stats, entity: &str) -> Option<f64> {
    match stats.tables.get(&crate::plan::entity_key(entity))?.volume {
        Volume::Fixed { rows } => Some(rows),
        _ => None,
    }
}

/// The largest number of rows one source value fans out to (zipf head share × rows).
fn tail_of(stats: &Stats, entity: &str, join_column: &str) -> Option<f64> {
    let ts = stats.tables.get(&crate::plan::entity_key(entity))?;
    let rows = entity_rows(stats, entity)?;
    let c = ts.column(join_column)?;
    let n = c.distinct?;
    Some(match c.distribution {
        Some(Distribution::Zipf { exponent }) => {
            rows / cqlmodel_stats::distribution::harmonic(n.max(1.0), exponent).max(1.0)
        }
        _ => rows / n.max(1.0),
    })
}

/// The mechanism that keeps each table in step, and why: counters on their
/// own (a batch cannot mix them with other writes, and a retried increment may
/// count twice); fan-out rows written by the application from a queue; a few
/// plain statements in one logged batch; more than five as dual writes.
fn assign_mechanisms(statements: &mut [WriteStatement]) {
    let plain = statements
        .iter()
        .filter(|s| s.repeat.is_none() && !s.counter && !s.lwt)
        .count();
    let mut first = true;
    for s in statements.iter_mut() {
        if s.lwt && s.cql.starts_with("DELETE") {
            s.mechanism = "lightweight transaction, last".into();
            s.reason = "releases the old value only if it is still this row's (LOCAL_SERIAL); a claimed partition is written only with conditions: LWT and plain writes on one partition do not order safely".into();
        } else if s.lwt {
            s.mechanism = "lightweight transaction, first".into();
            s.reason = "claims the UNIQUE value (Paxos, LOCAL_SERIAL): when it is not applied the value is taken and nothing else is written (release the claims this mutation already made, DELETE … IF <id> = ?); a conditional statement cannot share a batch with other partitions; a retry that finds the value claimed by this same row has succeeded".into();
        } else if s.counter {
            s.mechanism = "counter update".into();
            s.reason = "outside any batch (a batch cannot mix counter and non-counter writes); not idempotent: retry only when the write certainly failed, or a timeout may count twice; and count only new rows: a repeated INSERT is an upsert in Cassandra (the relational primary key rejected it), so guard the increment (INSERT … IF NOT EXISTS on the write of record, or a read)".into();
        } else if s.repeat.is_some() {
            s.mechanism = "application write with retry from a queue".into();
            s.reason = "one row per related row: too many partitions for a batch; the write of record enqueues the work (Kafka, or a table polled by a worker) and a worker writes every row, retrying until all are written, with USING TIMESTAMP of the source mutation so that a retry cannot resurrect a row a later delete removed".into();
        } else if plain == 1 {
            s.mechanism = "single statement".into();
            s.reason = "one partition of one table: atomic and isolated".into();
        } else if plain <= 5 {
            s.mechanism = "logged batch".into();
            s.reason = if first {
                "the write of record; the batchlog makes every statement of the batch apply eventually (all or nothing), at the cost of a batchlog write".into()
            } else {
                "kept in step with the write of record in the same LOGGED BATCH".into()
            };
            first = false;
        } else {
            s.mechanism = "application dual write with retry from a queue".into();
            s.reason = "more than five partitions: too many for a logged batch; written after the write of record, a failure is queued and retried so the table converges".into();
        }
    }
}
