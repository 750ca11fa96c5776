//! Access paths: how Cassandra serves a statement against a schema, and whether
//! it accepts it at all. The rules and messages follow Cassandra 5.0's
//! `StatementRestrictions`, `SelectStatement`, `ModificationStatement` and
//! `BatchStatement`; the research notes in `docs/research/` cite the sources.

mod batch;
mod condition;
mod error;
mod merge;
mod modification;
mod operation;
mod relation;
mod restrictions;
mod select;
mod target;
mod value;

use cqlmodel_cql::ast::{Span, Statement, StatementKind};
use serde::Serialize;

pub use error::QueryError;

use crate::model::Schema;

/// How Cassandra reads (or writes) the data a statement touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AccessKind {
    /// Exactly one partition.
    SinglePartition,
    /// Several partitions named by IN on the partition key (or by a batch).
    MultiPartition,
    /// A scan of token ranges: no partition key restriction, a token range, or an index query across partitions.
    RangeScan,
    /// Cassandra rejects the statement (see `error`).
    Invalid,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StatementType {
    Select,
    Insert,
    Update,
    Delete,
    Batch,
    /// DDL and other statements, which have no access path.
    Other,
}

/// The clustering part of a read: which clustering columns are fixed and how the
/// rows inside a partition are selected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct ClusteringSlice {
    /// Clustering columns restricted by `=` or IN, in order, forming a prefix.
    pub prefix: Vec<String>,
    /// The clustering column restricted by a range (`<`, `>=`, ...) after the prefix, if any.
    pub range: Option<String>,
    /// Number of distinct clustering prefixes read (product of IN sizes), when known.
    pub slices: Option<u64>,
    /// True when every clustering column is fixed: at most one row per partition.
    pub single_row: bool,
}

/// The access path of one statement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AccessPath {
    pub statement: StatementType,
    /// `ks.t` of the table read or written (for a batch, the first one).
    pub table: Option<String>,
    pub kind: AccessKind,
    /// Partitions touched; `None` when unknown (a bound IN list, a range scan).
    pub partitions: Option<u64>,
    /// Rows are read and then discarded by a filter (ALLOW FILTERING or an index with extra predicates).
    pub filtering: bool,
    /// Cassandra requires ALLOW FILTERING for this query.
    pub needs_allow_filtering: bool,
    /// The secondary index Cassandra would use, by name.
    pub index: Option<String>,
    /// The partition is read in reverse clustering order (ORDER BY opposite to the table's order).
    pub reversed: bool,
    pub clustering: Option<ClusteringSlice>,
    /// A literal LIMIT, when given.
    pub limit: Option<u64>,
    pub per_partition_limit: Option<u64>,
    /// Every table a batch writes (`ks.t`), in order of first appearance.
    pub tables: Vec<String>,
    /// Non-fatal observations Cassandra would log or warn about (e.g. unlogged multi-partition batches).
    pub warnings: Vec<String>,
    /// Cassandra's message when it rejects the statement.
    pub error: Option<QueryError>,
}

impl AccessPath {
    fn new(statement: StatementType) -> Self {
        Self {
            statement,
            table: None,
            kind: AccessKind::Invalid,
            partitions: None,
            filtering: false,
            needs_allow_filtering: false,
            index: None,
            reversed: false,
            clustering: None,
            limit: None,
            per_partition_limit: None,
            tables: Vec::new(),
            warnings: Vec::new(),
            error: None,
        }
    }

    fn invalid(statement: StatementType, table: Option<String>, error: QueryError) -> Self {
        Self {
            table,
            error: Some(error),
            ..Self::new(statement)
        }
    }

    pub fn is_valid(&self) -> bool {
        self.error.is_none()
    }
}

/// Analyzes one statement against the schema. `keyspace` is the session keyspace (`USE`).
pub fn analyze(schema: &Schema, statement: &Statement, keyspace: Option<&str>) -> AccessPath {
    let cx = Analyzer { schema, keyspace };
    match &statement.kind {
        StatementKind::Select(s) => select::analyze(&cx, s, statement.span),
        StatementKind::Insert(s) => modification::analyze_insert(&cx, s, statement.span),
        StatementKind::Update(s) => modification::analyze_update(&cx, s, statement.span),
        StatementKind::Delete(s) => modification::analyze_delete(&cx, s, statement.span),
        StatementKind::Batch(b) => batch::analyze(&cx, b, statement.span),
        _ => AccessPath {
            kind: AccessKind::SinglePartition,
            ..AccessPath::new(StatementType::Other)
        },
    }
}

/// The WHERE clause of a materialized view, checked as `CreateViewStatement`
/// builds it: a SELECT's restrictions, with filtering allowed and `IS NOT NULL` accepted.
pub(crate) fn check_view_restrictions(
    table: &crate::model::Table,
    where_clause: &[cqlmodel_cql::ast::Relation],
) -> Result<(), QueryError> {
    restrictions::Restrictions::new(
        table,
        where_clause,
        restrictions::Settings {
            statement: restrictions::StatementType::Select,
            allow_filtering: true,
            selects_only_static: false,
            for_view: true,
        },
    )
    .map(|_| ())
}

/// What every analysis needs.
pub(crate) struct Analyzer<'a> {
    pub schema: &'a Schema,
    pub keyspace: Option<&'a str>,
}

impl Analyzer<'_> {
    pub fn error(&self, message: impl Into<String>, span: Span) -> QueryError {
        QueryError {
            message: message.into(),
            span,
        }
    }
}
