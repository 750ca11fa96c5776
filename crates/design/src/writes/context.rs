//! What every write path is planned against: the model, the tables and
//! their indexes (which tables mention an entity, tables by name, children by
//! parent). A leaf of `writes`: the path and the steps it calls (cascades,
//! statics) share it without importing each other.

use std::collections::HashMap;

use cqlmodel_stats::Stats;

use crate::derive::{KeyPart, TableDesign, TableKind};
use crate::horizon::Horizon;
use crate::meaning::Meaning;
use crate::querylist::QuerySpec;
use crate::relational::{Entity, Model};

/// What every path is planned against.
pub(super) struct Context<'a> {
    pub(super) model: &'a Model,
    pub(super) meaning: &'a Meaning,
    pub(super) tables: &'a [TableDesign],
    pub(super) keyspace: &'a str,
    pub(super) stats: Option<&'a Stats>,
    /// The design's one horizon: the age growth with no retention reaches.
    pub(super) horizon: &'a Horizon,
    /// The query list: which attributes each table's reads select.
    pub(super) specs: &'a [QuerySpec],
    /// Per entity, the indexes of the tables that hold any of its attributes
    /// (rows, statics, copies, counts): the only tables a mutation can touch.
    pub(super) mentions: HashMap<String, Vec<usize>>,
    /// The indexes of the tables of each name, in table order.
    pub(super) by_name: HashMap<&'a str, Vec<usize>>,
    /// Per referenced entity, the entities with a foreign key to it, in
    /// model order.
    pub(super) children: HashMap<&'a str, Vec<&'a Entity>>,
    /// The indexes of the plain tables partitioned by a time bucket or a
    /// salt, in table order: the only tables whose statics an update can
    /// split. Few tables are; scanning all of them for every update was a
    /// fifth of a 10,000-table design.
    pub(super) split: Vec<usize>,
}

impl<'a> Context<'a> {
    pub(super) fn new(
        model: &'a Model,
        meaning: &'a Meaning,
        tables: &'a [TableDesign],
        keyspace: &'a str,
        (stats, horizon): (Option<&'a Stats>, &'a Horizon),
        specs: &'a [QuerySpec],
    ) -> Self {
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, t) in tables.iter().enumerate() {
            by_name.entry(t.name.as_str()).or_default().push(i);
        }
        let mut children: HashMap<&str, Vec<&Entity>> = HashMap::new();
        for child in &model.entities {
            for fk in &child.foreign_keys {
                let of_parent = children.entry(fk.table.as_str()).or_default();
                if !of_parent.last().is_some_and(|c| std::ptr::eq(*c, child)) {
                    of_parent.push(child);
                }
            }
        }
        Context {
            model,
            meaning,
            tables,
            keyspace,
            stats,
            horizon,
            specs,
            mentions: mentions(tables),
            by_name,
            children,
            split: split_tables(tables),
        }
    }

    /// The plain tables partitioned by a time bucket or a salt, in table
    /// order.
    pub(super) fn split_tables(&self) -> impl Iterator<Item = &'a TableDesign> + use<'_, 'a> {
        self.split.iter().filter_map(|&i| self.tables.get(i))
    }

    /// The tables named `name`, in table order.
    pub(super) fn named(&self, name: &str) -> impl Iterator<Item = &'a TableDesign> + use<'_, 'a> {
        self.by_name
            .get(name)
            .into_iter()
            .flatten()
            .filter_map(|&i| self.tables.get(i))
    }

    /// The tables that hold any attribute of `entity`, in table order.
    pub(super) fn mentioning(
        &self,
        entity: &str,
    ) -> impl Iterator<Item = &'a TableDesign> + use<'_, 'a> {
        self.mentions
            .get(entity)
            .into_iter()
            .flatten()
            .filter_map(|&i| self.tables.get(i))
    }

    /// The table of `entity`'s row of record, the first that holds its rows
    /// keyed by its primary key alone, unsalted: such a table holds the
    /// entity's rows, so it is among the tables that mention the entity.
    pub(super) fn record_table(&self, entity: &str) -> Option<&'a TableDesign> {
        let e = self.model.entity(entity)?;
        self.mentioning(entity).find(|t| t.rows_by_primary_key(e))
    }
}

/// Which tables hold attributes of which entity (directly or through a join
/// equality), computed once for every path.
pub(super) fn mentions(tables: &[TableDesign]) -> HashMap<String, Vec<usize>> {
    let mut out: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, t) in tables.iter().enumerate() {
        let mut entities: Vec<&str> = t.grain.iter().map(String::as_str).collect();
        entities.push(&t.entity);
        for class in &t.classes {
            entities.extend(class.iter().map(|c| c.entity.as_str()));
        }
        for c in &t.columns {
            if let KeyPart::Attr(a) | KeyPart::Bucket(a, _) | KeyPart::Sum(a) = &c.part {
                entities.push(&a.entity);
            }
        }
        entities.sort_unstable();
        entities.dedup();
        for e in entities {
            out.entry(e.to_string()).or_default().push(i);
        }
    }
    out
}

/// The indexes of the plain tables with a bucket or a salt in their
/// partition key, in table order.
fn split_tables(tables: &[TableDesign]) -> Vec<usize> {
    tables
        .iter()
        .enumerate()
        .filter(|(_, t)| {
            t.kind == TableKind::Table
                && t.partition_key
                    .iter()
                    .any(|p| matches!(p, KeyPart::Bucket(..) | KeyPart::Salt(_)))
        })
        .map(|(i, _)| i)
        .collect()
}
