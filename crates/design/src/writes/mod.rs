//! Step 4: every mutation of the model as the ordered CQL statements that keep
//! every table in step, with the consistency mechanism of each table and what is
//! not atomic.

mod clauses;
mod fan_out;
mod mechanisms;
mod presence;
mod statements;

use cqlmodel_stats::Stats;
use serde::Serialize;

use crate::derive::{KeyPart, TableDesign, add_columns};
use crate::querylist::{Body, MutationKind, MutationSpec, QuerySpec};
use crate::relational::{Entity, Model};
use crate::select::ColRef;
use mechanisms::assign_mechanisms;
use presence::pk_is_entity_key;
use statements::plan_table;

/// The statements that a path orders by their role rather than their table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Step {
    #[default]
    Plain,
    /// `INSERT … IF NOT EXISTS` claiming a UNIQUE value: first.
    Claim,
    /// A conditional write on a claimed partition: first, with the claims.
    Conditional,
    /// A conditional delete releasing a claimed value: after everything else.
    Release,
    /// A many-row delete's partition deletes: last, the other tables' jobs read
    /// their keys from those partitions.
    Sweep,
}

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
    /// Its place among the path's statements, beyond what its kind says.
    #[serde(skip)]
    pub step: Step,
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
            format!("insert_{}", crate::safe_names::annotation_word(&e.name)),
            MutationSpec {
                kind: MutationKind::Insert,
                entity: e.name.clone(),
                columns: e.attributes.iter().map(|a| a.name.clone()).collect(),
                key: Vec::new(),
            },
        ));
        if !non_key.is_empty() {
            out.push((
                format!("update_{}", crate::safe_names::annotation_word(&e.name)),
                MutationSpec {
                    kind: MutationKind::Update,
                    entity: e.name.clone(),
                    columns: non_key,
                    key: e.primary_key.clone(),
                },
            ));
        }
        out.push((
            format!("delete_{}", crate::safe_names::annotation_word(&e.name)),
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
        statements.sort_by_key(|s| match s.step {
            Step::Sweep => 5,
            Step::Release => 4,
            Step::Claim | Step::Conditional => -1,
            Step::Plain if s.repeat.is_some() => 3,
            Step::Plain if s.counter => 2,
            Step::Plain
                if tables
                    .iter()
                    .any(|t| t.name == s.table && pk_is_entity_key(model, t, &m.entity)) =>
            {
                0
            }
            Step::Plain => 1,
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
        // A key PostgreSQL fills (a sequence, a default) has no counterpart:
        // Cassandra has no sequences, the application makes the value.
        if m.kind == MutationKind::Insert
            && let Some(e) = model.entity(&m.entity)
        {
            let generated: Vec<&String> = e
                .primary_key
                .iter()
                .filter(|c| !m.columns.contains(c))
                .collect();
            if !generated.is_empty() {
                notes.push(format!(
                    "the statement leaves {} to PostgreSQL (a sequence or a default); Cassandra has none: the application generates it (an id service for an integer key, e.g. Snowflake-style, or a uuid key) and binds it in every statement",
                    generated
                        .iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
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
