//! What a derivation takes and gives: options, the derived table and its columns.

use crate::stats::{ColumnStats, TableStats};
use cqlmodel_cql::ast::{Order, Select, Span, Statement, StatementKind};
use cqlmodel_schema::Column;
use cqlmodel_schema::access::AccessPath;
use cqlmodel_schema::types::CqlType;

use super::columns::{TimeKind, time_kind};
use super::{TableSpec, create_table_cql};

/// Salt buckets a derived table adds when its partition key alone would be hot.
/// Eight keeps the read of every bucket under the default `scatter-gather` threshold (10).
pub const DEFAULT_SALT_BUCKETS: u32 = 8;

#[derive(Debug, Clone, Copy)]
pub struct DeriveOptions<'a> {
    /// Salt buckets to add to a low-cardinality or time-only partition key.
    pub salt_buckets: u32,
    /// The source table's statistics: column cardinalities and time buckets replace
    /// the name-and-type heuristics when given.
    pub stats: Option<&'a TableStats>,
}

impl Default for DeriveOptions<'_> {
    fn default() -> Self {
        Self {
            salt_buckets: DEFAULT_SALT_BUCKETS,
            stats: None,
        }
    }
}

impl<'a> DeriveOptions<'a> {
    /// The defaults, with the source table's statistics when there are any.
    pub fn with_stats(stats: Option<&'a TableStats>) -> Self {
        Self {
            stats,
            ..Self::default()
        }
    }

    fn column_stats(&self, column: &str) -> Option<&'a ColumnStats> {
        self.stats.and_then(|t| t.column(column))
    }

    /// Distinct values of a column from the statistics (the cardinality hook).
    pub fn distinct(&self, column: &str) -> Option<u64> {
        self.column_stats(column)
            .and_then(|c| c.distinct)
            .filter(|d| d.is_finite() && *d >= 0.0)
            .map(|d| d.round() as u64)
    }

    /// The column's time role: the statistics' `bucket` first, then [`time_kind`].
    pub fn time_kind(&self, column: &Column) -> Option<TimeKind> {
        if self
            .column_stats(&column.name)
            .is_some_and(|c| c.bucket.is_some())
        {
            return Some(TimeKind::Bucket);
        }
        time_kind(column)
    }
}

/// Why no table could be derived.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeriveError {
    #[error("the query names column `{0}`, which the table does not have")]
    UnknownColumn(String),
    #[error("a token() restriction is a deliberate scan of token ranges, not a lookup")]
    TokenRange,
    #[error("an ANN ordering is a vector search, served by a storage-attached index, not by a key")]
    VectorSearch,
    #[error(
        "no column is restricted by `=` or IN, and no time column by a range: nothing the query knows can locate a partition"
    )]
    NoPartitionKey,
    #[error("the query is not served even by the derived table: {0}")]
    NotServed(String),
}

/// A column of a derived table.
#[derive(Debug, Clone, PartialEq)]
pub struct DerivedColumn {
    pub name: String,
    pub ty: CqlType,
    pub origin: ColumnOrigin,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnOrigin {
    /// Copied from the source table.
    Source,
    /// A salt the application computes at write time (`hash(key) % N`).
    Salt,
    /// A time bucket the application computes from a time column at write time.
    TimeBucket,
}

/// The table a query needs, with the query rewritten against it.
#[derive(Debug, Clone)]
pub struct DerivedTable {
    pub keyspace: String,
    pub name: String,
    /// Key columns first (partition, clustering), then the source's other columns.
    pub columns: Vec<DerivedColumn>,
    pub partition_key: Vec<String>,
    pub clustering: Vec<(String, Order)>,
    /// The decisions worth telling the reader (buckets, filters left), each one line.
    pub notes: Vec<String>,
    /// The query against the derived table.
    pub query: Select,
    /// The access path of the rewritten query (single- or multi-partition).
    pub path: AccessPath,
}

impl DerivedTable {
    pub fn clustering_names(&self) -> Vec<&str> {
        self.clustering.iter().map(|(c, _)| c.as_str()).collect()
    }

    /// The `CREATE TABLE` statement, one column per line.
    pub fn create_cql(&self) -> String {
        create_table_cql(&TableSpec {
            keyspace: &self.keyspace,
            name: &self.name,
            columns: self
                .columns
                .iter()
                .map(|c| (c.name.clone(), c.ty.to_string(), false))
                .collect(),
            partition_key: &self.partition_key,
            clustering: &self.clustering,
            options: Vec::new(),
            explicit_order: false,
        })
    }

    /// The rewritten query, terminated by `;`.
    pub fn query_cql(&self) -> String {
        format!("{};", self.query_statement())
    }

    fn query_statement(&self) -> Statement {
        Statement {
            kind: StatementKind::Select(self.query.clone()),
            span: Span::default(),
        }
    }

    /// The derived table and the rewritten query, as a fix's replacement text.
    pub fn fix_cql(&self) -> String {
        format!("{}\n{}", self.create_cql(), self.query_cql())
    }
}
