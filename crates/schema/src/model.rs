//! The schema as Cassandra holds it after executing the DDL: keyspaces, types,
//! tables, views and indexes, with every name resolved.

use std::collections::BTreeMap;
use std::sync::Arc;

use cqlmodel_cql::ast::{Order, Span, Term};

use crate::types::{CqlType, UdtDef};

/// Where a schema object was defined: the file (an index chosen by the caller) and the span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Origin {
    pub file: usize,
    pub span: Span,
}

#[derive(Debug, Clone, Default)]
pub struct Schema {
    pub keyspaces: BTreeMap<String, Keyspace>,
}

#[derive(Debug, Clone)]
pub struct Keyspace {
    pub name: String,
    pub replication: Replication,
    pub durable_writes: bool,
    pub types: BTreeMap<String, Arc<UdtDef>>,
    pub tables: BTreeMap<String, Table>,
    pub origin: Origin,
}

/// The keyspace's replication strategy.
#[derive(Debug, Clone, PartialEq)]
pub enum Replication {
    Simple {
        replication_factor: u32,
    },
    NetworkTopology {
        /// Datacenter name → replication factor.
        datacenters: BTreeMap<String, u32>,
    },
    /// `LocalStrategy`, `EverywhereStrategy` or a custom class: kept by name.
    Other {
        class: String,
        options: BTreeMap<String, String>,
    },
}

impl Replication {
    /// The smallest replication factor of any datacenter (SimpleStrategy: its factor).
    pub fn min_replication_factor(&self) -> Option<u32> {
        match self {
            Replication::Simple { replication_factor } => Some(*replication_factor),
            Replication::NetworkTopology { datacenters } => datacenters.values().copied().min(),
            Replication::Other { .. } => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnKind {
    /// Position within the partition key.
    PartitionKey(usize),
    /// Position within the clustering columns, and its clustering order.
    Clustering(usize, Order),
    Static,
    Regular,
}

#[derive(Debug, Clone)]
pub struct Column {
    pub name: String,
    pub ty: CqlType,
    pub kind: ColumnKind,
    pub masked: bool,
    pub origin: Origin,
}

impl Column {
    pub fn is_primary_key(&self) -> bool {
        matches!(
            self.kind,
            ColumnKind::PartitionKey(_) | ColumnKind::Clustering(..)
        )
    }
    pub fn is_static(&self) -> bool {
        matches!(self.kind, ColumnKind::Static)
    }
}

/// How an index is implemented; it decides which operators it can serve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexImpl {
    /// The legacy secondary index (`CREATE INDEX` without `USING`, or `USING 'legacy_local_table'`).
    Legacy,
    /// Storage-attached index (`USING 'sai'` or `'StorageAttachedIndex'`).
    Sai,
    /// `SASIIndex`.
    Sasi,
    /// Any other custom class.
    Custom(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexTarget {
    Values,
    Keys,
    Entries,
    Full,
}

#[derive(Debug, Clone)]
pub struct Index {
    pub name: String,
    pub column: String,
    pub target: IndexTarget,
    pub implementation: IndexImpl,
    pub options: BTreeMap<String, String>,
    pub origin: Origin,
}

/// A materialized view's link to its base table.
#[derive(Debug, Clone)]
pub struct ViewInfo {
    pub base_table: String,
    pub include_all_columns: bool,
}

/// Table options of the `WITH` clause, the ones cqlmodel reasons about decoded,
/// the rest kept as written.
#[derive(Debug, Clone, Default)]
pub struct TableOptions {
    pub default_time_to_live: Option<u64>,
    pub gc_grace_seconds: Option<u64>,
    /// The compaction class's short name (`SizeTieredCompactionStrategy`, ...), with its options.
    pub compaction: Option<Compaction>,
    pub comment: Option<String>,
    pub compact_storage: bool,
    /// Every property as written, in order.
    pub raw: Vec<(String, Term)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Compaction {
    pub class: String,
    pub options: BTreeMap<String, String>,
}

impl Compaction {
    /// The class name without its package: `TimeWindowCompactionStrategy`.
    pub fn short_class(&self) -> &str {
        self.class.rsplit('.').next().unwrap_or(&self.class)
    }
}

#[derive(Debug, Clone)]
pub struct Table {
    pub keyspace: String,
    pub name: String,
    /// Columns in the order Cassandra lists them: partition key, clustering, then the rest
    /// in declaration order.
    pub columns: Vec<Column>,
    pub options: TableOptions,
    pub indexes: Vec<Index>,
    pub view: Option<ViewInfo>,
    /// Views defined on this table (`ks.view` names).
    pub views: Vec<String>,
    pub origin: Origin,
}

impl Table {
    pub fn qualified_name(&self) -> String {
        format!("{}.{}", self.keyspace, self.name)
    }

    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
    }

    pub fn partition_key(&self) -> impl Iterator<Item = &Column> {
        self.columns
            .iter()
            .filter(|c| matches!(c.kind, ColumnKind::PartitionKey(_)))
    }

    pub fn clustering(&self) -> impl Iterator<Item = &Column> {
        self.columns
            .iter()
            .filter(|c| matches!(c.kind, ColumnKind::Clustering(..)))
    }

    pub fn partition_key_len(&self) -> usize {
        self.partition_key().count()
    }

    pub fn clustering_len(&self) -> usize {
        self.clustering().count()
    }

    pub fn has_static_columns(&self) -> bool {
        self.columns.iter().any(Column::is_static)
    }

    pub fn is_counter_table(&self) -> bool {
        self.columns.iter().any(|c| c.ty.is_counter())
    }

    pub fn is_view(&self) -> bool {
        self.view.is_some()
    }
}

impl Schema {
    pub fn keyspace(&self, name: &str) -> Option<&Keyspace> {
        self.keyspaces.get(name)
    }

    pub fn table(&self, keyspace: &str, name: &str) -> Option<&Table> {
        self.keyspaces.get(keyspace)?.tables.get(name)
    }

    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.keyspaces.values().flat_map(|k| k.tables.values())
    }
}
