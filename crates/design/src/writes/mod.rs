//! Step 4: every mutation of the model as the ordered CQL statements that keep
//! every table in step, with the consistency mechanism of each table and what is
//! not atomic.

mod cascade;
mod cascade_buckets;
mod clauses;
mod conditions;
mod context;
mod counters;
mod defaults;
mod entity_rows;
mod fan_out;
mod generated;
mod kept;
mod mechanisms;
mod new_rows;
mod partial;
mod path;
mod planned;
mod presence;
mod ranges;
mod read_tables;
mod scope;
mod statements;
mod static_alternative;
mod value_sets;

use cqlmodel_stats::Stats;
use serde::Serialize;

use crate::derive::{KeyPart, TableDesign, add_columns};
use crate::meaning::Meaning;
use crate::querylist::{Body, MutationKind, MutationSpec, QuerySpec};
use crate::relational::{Entity, Model};
use crate::select::ColRef;

/// The statements that a path orders by their role rather than their table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Step {
    #[default]
    Plain,
    /// A lightweight transaction checking the condition PostgreSQL checked
    /// (`IF version = ?`): first of all, the rest runs only when it applied.
    CompareAndSet,
    /// `INSERT … IF NOT EXISTS` claiming a UNIQUE value: first.
    Claim,
    /// A conditional write on a claimed partition: first, with the claims.
    Conditional,
    /// A conditional delete releasing a claimed value: after everything else.
    Release,
    /// An increment of a counter column (`n = n + ?`).
    Increment,
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
    /// The same reads as data: whose rows, from which designed table, by
    /// which key. Empty when `reads_first` is a remark, not a read (a counter's
    /// bound step, a range tombstone). Consumers match tables here, never in
    /// the text. design.json: `{"entity", "table" (or null), "key"}` each.
    pub reads: Vec<ReadSource>,
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
    /// An INSERT under a key the write has just made (`new_rows`): it
    /// replaces no row and derives nothing from a read; queries.cql marks it
    /// `@new-row`.
    #[serde(skip)]
    pub new_row: bool,
    /// How this table is kept in step, and why.
    pub mechanism: String,
    pub reason: String,
}

/// One read a statement makes before it writes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReadSource {
    /// The entity whose row(s) the application reads.
    pub entity: String,
    /// The designed table the read goes to; `None` when no designed table
    /// serves it (the statement's `reads_first` says what to do then).
    pub table: Option<String>,
    /// The columns of `entity` the read binds: the key the write has.
    pub key: Vec<String>,
    /// The columns of `entity` the read must return (the keys of the tables
    /// the following statements change); empty when the text says what.
    /// The table is chosen to hold them, or a second read by primary key
    /// (its own `ReadSource`) returns the rest.
    #[serde(skip)]
    pub columns: Vec<String>,
}

impl ReadSource {
    /// A read of `entity`'s rows by `key`, its table found later (the
    /// path resolves it against the design's tables).
    pub(crate) fn by(entity: &str, key: &[String]) -> Self {
        ReadSource {
            entity: entity.to_string(),
            table: None,
            key: key.to_vec(),
            columns: Vec::new(),
        }
    }

    /// The same read, which must return `columns` of `entity`.
    pub(crate) fn returning(mut self, columns: Vec<String>) -> Self {
        self.columns = columns;
        self
    }

    /// A read of `entity`'s rows from the named table by `key`.
    pub(crate) fn from_table(entity: &str, table: &str, key: &[String]) -> Self {
        ReadSource {
            table: Some(table.to_string()),
            ..ReadSource::by(entity, key)
        }
    }
}

impl WriteStatement {
    /// The designed tables this statement reads before it writes.
    pub fn tables_read(&self) -> impl Iterator<Item = &str> {
        self.reads.iter().filter_map(|r| r.table.as_deref())
    }
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
        purpose: crate::derive::TablePurpose::Data,
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
        ann: Vec::new(),
        value_set: false,
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
                ..MutationSpec::default()
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
                    ..MutationSpec::default()
                },
            ));
        }
        out.push((
            format!("delete_{}", crate::safe_names::annotation_word(&e.name)),
            MutationSpec {
                kind: MutationKind::Delete,
                entity: e.name.clone(),
                key: e.primary_key.clone(),
                ..MutationSpec::default()
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
    meaning: &Meaning,
    tables: &[TableDesign],
    keyspace: &str,
    sizing: (Option<&Stats>, &crate::horizon::Horizon),
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
    let ctx = context::Context::new(model, meaning, tables, keyspace, sizing, specs);
    list.into_iter()
        .map(|(name, m, rate, cl)| path::plan_path(&ctx, name, m, (rate, cl), inferred, warnings))
        .collect()
}
