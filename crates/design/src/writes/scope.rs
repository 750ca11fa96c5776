//! What every statement builder of one (table, mutation) pair shares: the
//! table's qualified name, its key columns, and whether the write moves a key.

use cqlmodel_stats::{Stats, Volume};

use super::fan_out::{join_column, tail_of};
use super::planned::Planned;
use super::presence::{holds_any, is_key, unbound_key};
use super::{ReadSource, WriteStatement};
use crate::derive::{KeyPart, Role, TableColumn, TableDesign};
use crate::numbers::trim_float;
use crate::querylist::{MutationKind, MutationSpec};
use crate::relational::Model;

pub(super) struct Scope<'a> {
    pub model: &'a Model,
    pub t: &'a TableDesign,
    pub m: &'a MutationSpec,
    pub stats: Option<&'a Stats>,
    /// `keyspace.table`, quoted where needed.
    pub table: String,
    /// Partition key and clustering columns.
    pub keys: Vec<&'a TableColumn>,
    pub pk: Vec<&'a TableColumn>,
    /// An UPDATE that changes a key column of this table: the row moves.
    pub key_moves: bool,
}

impl<'a> Scope<'a> {
    pub fn new(
        model: &'a Model,
        t: &'a TableDesign,
        m: &'a MutationSpec,
        stats: Option<&'a Stats>,
        table: String,
    ) -> Self {
        let keys: Vec<&TableColumn> = t.columns.iter().filter(|c| is_key(c)).collect();
        let pk: Vec<&TableColumn> = t
            .columns
            .iter()
            .filter(|c| c.role == Role::PartitionKey)
            .collect();
        let key_moves = m.kind == MutationKind::Update
            && keys.iter().any(|c| holds_any(t, c, &m.entity, &m.columns));
        Scope {
            model,
            t,
            m,
            stats,
            table,
            keys,
            pk,
            key_moves,
        }
    }
}

/// How often a statement repeats when the table's rows also belong to another
/// entity (a row per related row): the fan-out on write, with the statistics'
/// rows per write when known. Sets the planned amplification and tail.
pub(super) fn fan_out_text(s: &Scope<'_>, p: &mut Planned) -> Option<String> {
    let Scope { t, m, stats, .. } = *s;
    let others: Vec<&String> = t.grain.iter().filter(|g| **g != m.entity).collect();
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
}

/// A table of distinct values (crate::derive's set for `count(DISTINCT x)`)
/// of this entity: one of its rows stands for many of the entity's.
pub(super) fn value_set(t: &TableDesign, entity: &str) -> bool {
    t.value_set && t.grain == [entity.to_string()]
}

/// The key columns the mutation does not bind, read first by its key.
pub(super) fn read_unbound_key(
    st: &mut WriteStatement,
    t: &TableDesign,
    m: &MutationSpec,
    keys: &[&TableColumn],
) {
    if let Some((text, columns)) = unbound_key(t, m, keys) {
        st.reads_first = Some(text);
        st.reads = vec![ReadSource::by(&m.entity, &m.key).returning(columns)];
    }
}

/// The rows of other entities that hold the given columns' values (a copied
/// attribute, a parent's key column), each read by its primary key.
pub(super) fn related_reads(
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
