//! Step 4: every mutation of the model as the ordered CQL statements that keep
//! every table in step, with the consistency mechanism of each table and what is
//! not atomic.

use cqlmodel_cql::keywords::quote_ident;
use cqlmodel_stats::{Distribution, Stats, Volume};
use serde::Serialize;

use crate::derive::{KeyPart, Role, TableDesign, add_columns};
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
        let mut amplification = None;
        for t in tables {
            let touches = t
                .columns
                .iter()
                .any(|c| part_entity(&c.part) == Some(m.entity.as_str()));
            if !touches {
                continue;
            }
            let from_entity = |p: &KeyPart| key_from(t, p, &m.entity);
            let foreign: Vec<&KeyPart> = t
                .partition_key
                .iter()
                .chain(t.clustering.iter().map(|(p, _)| p))
                .filter(|p| !from_entity(p))
                .collect();
            let static_only = t
                .columns
                .iter()
                .filter(|c| part_entity(&c.part) == Some(m.entity.as_str()))
                .all(|c| matches!(c.role, Role::Static | Role::PartitionKey));
            let supplies_key = t
                .partition_key
                .iter()
                .chain(t.clustering.iter().map(|(p, _)| p))
                .any(|p| !matches!(p, KeyPart::Salt(_)) && from_entity(p));
            // A new row of a parent has no children yet: its insert skips the
            // tables where it only decorates the children's rows.
            if m.kind == MutationKind::Insert && !supplies_key && !static_only {
                continue;
            }
            let mut repeat = None;
            if let Some(KeyPart::Attr(f)) = foreign.first().copied()
                && !static_only
            {
                let (text, amp, join) = fan_out(stats, f, t);
                repeat = Some(text);
                amplification = amp.or(amplification);
                if let Some(tail) = join.and_then(|j| tail_of(stats, f, &j))
                    && tail > FANOUT_TAIL_LIMIT
                {
                    warnings.push(format!(
                        "{name}: the largest fan-out into {} is about {} rows per write (over {}): write it for ordinary sources and let readers pull the heaviest sources' rows at read time (hybrid)",
                        t.name, trim_float(tail.round()), trim_float(FANOUT_TAIL_LIMIT)
                    ));
                }
            }
            let Some(cql) = statement_for(keyspace, t, &m, static_only) else {
                continue;
            };
            statements.push(WriteStatement {
                table: t.name.clone(),
                cql,
                repeat,
                mechanism: String::new(),
                reason: String::new(),
            });
        }
        assign_mechanisms(&mut statements, rate);
        let not_atomic = if statements.len() <= 1 {
            "one statement on one partition: atomic and isolated there".to_string()
        } else {
            format!(
                "the {} tables are not updated in one transaction: between the statements a reader can see one table changed and not the other; Cassandra has no cross-partition isolation",
                statements.len()
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
        });
    }
    out
}

fn part_entity(p: &KeyPart) -> Option<&str> {
    match p {
        KeyPart::Attr(c) | KeyPart::Bucket(c, _) => Some(c.entity.as_str()),
        KeyPart::Salt(_) => None,
    }
}

/// True when the mutated entity supplies the key part (directly or through a join equality).
fn key_from(t: &TableDesign, p: &KeyPart, entity: &str) -> bool {
    match p {
        KeyPart::Attr(c) | KeyPart::Bucket(c, _) => crate::derive::class_of(&t.classes, c)
            .iter()
            .any(|m| m.entity == entity),
        KeyPart::Salt(_) => true,
    }
}

fn statement_for(
    keyspace: &str,
    t: &TableDesign,
    m: &MutationSpec,
    static_only: bool,
) -> Option<String> {
    let table = format!("{}.{}", quote_ident(keyspace), quote_ident(&t.name));
    let keys: Vec<&crate::derive::TableColumn> = t
        .columns
        .iter()
        .filter(|c| {
            matches!(
                c.role,
                Role::PartitionKey | Role::ClusteringAsc | Role::ClusteringDesc
            )
        })
        .collect();
    let pk_only: Vec<&crate::derive::TableColumn> = t
        .columns
        .iter()
        .filter(|c| c.role == Role::PartitionKey)
        .collect();
    let where_of = |cols: &[&crate::derive::TableColumn]| {
        cols.iter()
            .map(|c| format!("{} = ?", quote_ident(&c.name)))
            .collect::<Vec<_>>()
            .join(" AND ")
    };
    let mine = |c: &crate::derive::TableColumn| match &c.part {
        KeyPart::Attr(a) => {
            a.entity == m.entity
                && (m.columns.contains(&a.column) || m.kind != MutationKind::Update)
        }
        _ => false,
    };
    match m.kind {
        MutationKind::Insert if static_only => {
            let set: Vec<String> = t
                .columns
                .iter()
                .filter(|c| c.role == Role::Static && mine(c))
                .map(|c| format!("{} = ?", quote_ident(&c.name)))
                .collect();
            (!set.is_empty()).then(|| {
                format!(
                    "UPDATE {table} SET {} WHERE {}",
                    set.join(", "),
                    where_of(&pk_only)
                )
            })
        }
        MutationKind::Insert => {
            let cols: Vec<String> = t
                .columns
                .iter()
                .filter(|c| {
                    matches!(
                        c.role,
                        Role::PartitionKey | Role::ClusteringAsc | Role::ClusteringDesc
                    ) || (c.role == Role::Regular
                        && part_entity(&c.part) == Some(m.entity.as_str()))
                })
                .map(|c| quote_ident(&c.name))
                .collect();
            Some(format!(
                "INSERT INTO {table} ({}) VALUES ({})",
                cols.join(", "),
                crate::reads::markers(cols.len() as u64)
            ))
        }
        MutationKind::Update => {
            let set: Vec<String> = t
                .columns
                .iter()
                .filter(|c| matches!(c.role, Role::Static | Role::Regular) && mine(c))
                .map(|c| format!("{} = ?", quote_ident(&c.name)))
                .collect();
            if set.is_empty() {
                return None;
            }
            let statics = t
                .columns
                .iter()
                .filter(|c| mine(c) && matches!(c.role, Role::Static | Role::Regular))
                .all(|c| c.role == Role::Static);
            let key = if statics || static_only {
                where_of(&pk_only)
            } else {
                where_of(&keys)
            };
            Some(format!("UPDATE {table} SET {} WHERE {key}", set.join(", ")))
        }
        MutationKind::Delete if static_only => {
            let cols: Vec<String> = t
                .columns
                .iter()
                .filter(|c| {
                    c.role == Role::Static && part_entity(&c.part) == Some(m.entity.as_str())
                })
                .map(|c| quote_ident(&c.name))
                .collect();
            (!cols.is_empty()).then(|| {
                format!(
                    "DELETE {} FROM {table} WHERE {}",
                    cols.join(", "),
                    where_of(&pk_only)
                )
            })
        }
        MutationKind::Delete => Some(format!("DELETE FROM {table} WHERE {}", where_of(&keys))),
    }
}

fn entity_rows(stats: &Stats, entity: &str) -> Option<f64> {
    match stats.tables.get(&crate::plan::entity_key(entity))?.volume {
        Volume::Fixed { rows } => Some(rows),
        _ => None,
    }
}

/// "once per follows row with followee_id = the post's author_id", and the mean count.
fn fan_out(
    stats: Option<&Stats>,
    f: &ColRef,
    t: &TableDesign,
) -> (String, Option<f64>, Option<String>) {
    let partner = crate::derive::class_of(&t.classes, f)
        .into_iter()
        .find(|m| m.entity == f.entity && m != f);
    let join = t
        .classes
        .iter()
        .flatten()
        .find(|c| c.entity == f.entity && *c != f)
        .cloned()
        .or(partner);
    let text = match &join {
        Some(j) => format!(
            "once per `{}` row with this `{}`: fan-out on write",
            f.entity, j.column
        ),
        None => format!(
            "once per `{}` row related to the written row: fan-out on write",
            f.entity
        ),
    };
    let amp = stats.zip(join.as_ref()).and_then(|(s, j)| {
        let rows = entity_rows(s, &f.entity)?;
        let distinct = s
            .tables
            .get(&crate::plan::entity_key(&f.entity))?
            .column(&j.column)?
            .distinct?;
        Some(rows / distinct.max(1.0))
    });
    let join_column = join.map(|j| j.column);
    match amp {
        Some(a) => (
            format!(
                "{text} (about {} rows per write, from the statistics)",
                trim_float(a.round())
            ),
            Some(a),
            join_column,
        ),
        None => (text, None, join_column),
    }
}

/// The largest number of rows one source value fans out to (zipf head share × rows).
fn tail_of(stats: Option<&Stats>, f: &ColRef, join_column: &str) -> Option<f64> {
    let s = stats?;
    let ts = s.tables.get(&crate::plan::entity_key(&f.entity))?;
    let rows = entity_rows(s, &f.entity)?;
    let c = ts.column(join_column)?;
    let n = c.distinct?;
    Some(match c.distribution {
        Some(Distribution::Zipf { exponent }) => rows / harmonic(n, exponent),
        _ => rows / n.max(1.0),
    })
}

fn harmonic(n: f64, s: f64) -> f64 {
    let terms = n.clamp(1.0, 1e6) as u64;
    let mut h: f64 = (1..=terms).map(|k| (k as f64).powf(-s)).sum();
    if n > 1e6 && s != 1.0 {
        h += (n.powf(1.0 - s) - 1e6f64.powf(1.0 - s)) / (1.0 - s);
    } else if n > 1e6 {
        h += (n / 1e6).ln();
    }
    h.max(1.0)
}

/// Same-partition or few tables without fan-out: a logged batch; fan-out: an
/// application write per row with retry from a queue.
fn assign_mechanisms(statements: &mut [WriteStatement], rate: Option<f64>) {
    let n = statements.len();
    let any_fanout = statements.iter().any(|s| s.repeat.is_some());
    for (i, s) in statements.iter_mut().enumerate() {
        if n == 1 && s.repeat.is_none() {
            s.mechanism = "single statement".into();
            s.reason = "one partition of one table: atomic and isolated".into();
        } else if s.repeat.is_some() {
            s.mechanism = "application write with retry from a queue".into();
            s.reason = "fan-out writes one row per related row: too many partitions for a batch; failed writes go to a queue (Kafka) and a worker retries them until every row is written".into();
        } else if !any_fanout && n <= 5 {
            s.mechanism = "logged batch".into();
            s.reason = if i == 0 {
                "the write of record; the batchlog makes all the batch's statements apply eventually (all or nothing), at the cost of a batchlog write".into()
            } else {
                let mv = match rate {
                    Some(r) if r < 100.0 => format!(
                        " (at {}/s a materialized view could keep it instead, but views are off by default in Cassandra 5.0)",
                        trim_float(r)
                    ),
                    _ => String::new(),
                };
                format!("kept in step with the write of record in one LOGGED BATCH{mv}")
            };
        } else {
            s.mechanism = "application dual write with retry from a queue".into();
            s.reason = "written after the write of record; a failure is queued and retried so the table converges".into();
        }
    }
}
