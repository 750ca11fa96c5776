//! Deriving the table that serves a query, the way a modeler would: the columns the
//! query restricts by `=` locate the partition, its ranges and its ORDER BY sort the
//! rows inside it, and the source table's key keeps the rows unique.
//!
//! The derivation is checked, not trusted: the rewritten query is analyzed against
//! the derived table with Cassandra's own restriction rules, and only a table that
//! serves it from one partition (or a bounded list of them) is returned.
//!
//! ```
//! use cqlmodel_review::derive_key::{DeriveOptions, derive_table};
//! use cqlmodel_schema::build_schema;
//!
//! let ddl = cqlmodel_cql::parse(
//!     "CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
//!      CREATE TABLE iot.temp_by_device (device_id text, day date, ts timestamp, temp double,
//!          PRIMARY KEY ((device_id, day), ts)) WITH CLUSTERING ORDER BY (ts DESC);",
//! );
//! let schema = build_schema(0, &ddl.statements).schema;
//! let table = schema.table("iot", "temp_by_device").unwrap();
//! let query = cqlmodel_cql::parse_statement("SELECT * FROM iot.temp_by_device WHERE day = ?").unwrap();
//! let cqlmodel_cql::ast::StatementKind::Select(select) = &query.kind else { unreachable!() };
//!
//! let derived = derive_table(&schema, table, select, &DeriveOptions::default()).unwrap();
//! assert_eq!(derived.name, "temp_by_day");
//! // `day` alone would be one hot partition per day: a salt bucket spreads it.
//! assert_eq!(derived.partition_key, ["day", "bucket"]);
//! assert_eq!(derived.clustering_names(), ["device_id", "ts"]);
//! assert!(derived.query_cql().contains("bucket IN (0, 1, 2, 3, 4, 5, 6, 7)"));
//! ```

use std::collections::BTreeMap;

use cqlmodel_cql::ast::{
    BindMarker, Ident, InValues, Literal, Operator, Order, QualifiedName, Relation, RelationKind,
    Select, Selection, SelectorKind, Span, Statement, StatementKind, Term, TermKind,
};
use cqlmodel_schema::access::{AccessKind, AccessPath, analyze};
use cqlmodel_schema::types::{CqlType, NativeType};
use cqlmodel_schema::{Column, ColumnKind, Keyspace, Origin, Schema, Table, TableOptions};
use cqlmodel_stats::{ColumnStats, TableStats};

mod columns;
mod predicates;
mod print;
#[cfg(test)]
mod tests;

pub use columns::{
    LOW_CARDINALITY_MAX_DISTINCT, TimeKind, key_eligible, low_cardinality_reason, time_kind,
};
use predicates::slice_column;
pub use predicates::{Predicates, predicates};
pub use print::{TableSpec, create_table_cql, table_create_cql};

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

/// The table a statement reads or writes (`AccessPath::table` is `ks.t`).
pub fn path_table<'a>(schema: &'a Schema, path: &AccessPath) -> Option<&'a Table> {
    let (ks, name) = path.table.as_deref()?.split_once('.')?;
    schema.table(ks, name)
}

/// True when the read is served from one partition or a listed set of them.
pub fn is_served(path: &AccessPath) -> bool {
    path.error.is_none()
        && matches!(
            path.kind,
            AccessKind::SinglePartition | AccessKind::MultiPartition
        )
}

/// The existing table of the same keyspace that serves `select` (with the table
/// name swapped), if one does: the query targets the wrong table.
pub fn serving_table<'a>(
    schema: &'a Schema,
    source: &Table,
    select: &Select,
) -> Option<(&'a Table, Select)> {
    serving_table_among(schema, source, select, None)
}

/// Tables by keyspace and the sorted names of their partition-key columns: the
/// candidates a query can be served by are found by the columns it fixes,
/// without walking every table of the keyspace.
#[derive(Debug, Default)]
pub struct PartitionKeyIndex {
    by_key: std::collections::HashMap<(String, Vec<String>), Vec<String>>,
}

impl PartitionKeyIndex {
    pub fn new(schema: &Schema) -> Self {
        let mut by_key: std::collections::HashMap<(String, Vec<String>), Vec<String>> =
            std::collections::HashMap::new();
        for t in schema.tables() {
            let mut key: Vec<String> = t.partition_key().map(|c| c.name.clone()).collect();
            key.sort();
            by_key
                .entry((t.keyspace.clone(), key))
                .or_default()
                .push(t.name.clone());
        }
        Self { by_key }
    }

    /// Names of the tables of `keyspace` whose partition key is made only of
    /// `columns` (every subset of them: a query fixes a handful of columns).
    fn candidates(&self, keyspace: &str, columns: &[&str]) -> Vec<String> {
        let mut names: Vec<&str> = columns.to_vec();
        names.sort_unstable();
        names.dedup();
        if names.len() > 12 {
            // 4,096 subsets at most; beyond, every table is a candidate.
            return Vec::new();
        }
        let mut out = Vec::new();
        for mask in 1u32..(1 << names.len()) {
            let subset: Vec<String> = names
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, n)| (*n).to_string())
                .collect();
            if let Some(tables) = self.by_key.get(&(keyspace.to_string(), subset)) {
                out.extend(tables.iter().cloned());
            }
        }
        out.sort();
        out
    }
}

/// [`serving_table`], looking only at the tables `index` offers when given.
pub fn serving_table_among<'a>(
    schema: &'a Schema,
    source: &Table,
    select: &Select,
    index: Option<&PartitionKeyIndex>,
) -> Option<(&'a Table, Select)> {
    let keyspace = schema.keyspace(&source.keyspace)?;
    let needed = referenced_columns(source, select);
    let p = predicates(source, select).ok()?;
    let equal: Vec<&str> = p
        .equal
        .iter()
        .filter_map(|i| source.columns.get(*i))
        .map(|c| c.name.as_str())
        .collect();
    if equal.is_empty() {
        // No table's partition key can be fixed by a query that fixes nothing.
        return None;
    }
    let indexed: Option<Vec<&'a Table>> = index.filter(|_| equal.len() <= 12).map(|ix| {
        ix.candidates(&source.keyspace, &equal)
            .iter()
            .filter_map(|n| keyspace.tables.get(n))
            .collect()
    });
    let all: Box<dyn Iterator<Item = &'a Table>> = match indexed {
        Some(list) => Box::new(list.into_iter()),
        None => Box::new(keyspace.tables.values()),
    };
    // Only a table whose whole partition key the query fixes can serve it: checked
    // first, it keeps the search cheap on schemas with many similar tables.
    all.filter(|t| t.name != source.name)
        .filter(|t| t.partition_key().all(|c| equal.contains(&c.name.as_str())))
        .filter(|t| needed.iter().all(|c| t.column(c).is_some()))
        .find_map(|t| {
            let mut rewritten = select.clone();
            rewritten.table = retarget(&select.table, &t.name);
            rewritten.allow_filtering = false;
            let path = analyze_select(schema, &rewritten, &source.keyspace);
            (is_served(&path) && !path.filtering).then_some((t, rewritten))
        })
}

/// Every column the query names (for `*`, every column of the source table).
fn referenced_columns(source: &Table, select: &Select) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    match &select.selection {
        Selection::Wildcard(_) => out.extend(source.columns.iter().map(|c| c.name.clone())),
        Selection::Selectors(selectors) => {
            let mut stack: Vec<&SelectorKind> = selectors.iter().map(|s| &s.kind).collect();
            while let Some(kind) = stack.pop() {
                match kind {
                    SelectorKind::Column(c)
                    | SelectorKind::WriteTime(c)
                    | SelectorKind::MaxWriteTime(c)
                    | SelectorKind::Ttl(c) => out.push(c.value.clone()),
                    SelectorKind::Function { args, .. } => {
                        stack.extend(args.iter().map(|a| &a.kind))
                    }
                    SelectorKind::Cast { selector, .. }
                    | SelectorKind::Field { selector, .. }
                    | SelectorKind::Element { selector, .. }
                    | SelectorKind::Negate(selector) => stack.push(&selector.kind),
                    SelectorKind::Binary { left, right, .. } => {
                        stack.push(&left.kind);
                        stack.push(&right.kind);
                    }
                    SelectorKind::CountStar | SelectorKind::Term(_) => {}
                }
            }
        }
    }
    if let Ok(p) = predicates(source, select) {
        let names = p
            .equal
            .iter()
            .chain(&p.range)
            .chain(&p.filter)
            .chain(p.order_by.iter().map(|(c, _)| c))
            .filter_map(|i| source.columns.get(*i))
            .map(|c| c.name.clone());
        out.extend(names);
    }
    out.sort();
    out.dedup();
    out
}

fn retarget(name: &QualifiedName, table: &str) -> QualifiedName {
    QualifiedName {
        keyspace: name.keyspace.clone(),
        name: Ident::new(table),
        span: Span::default(),
    }
}

fn analyze_select(schema: &Schema, select: &Select, keyspace: &str) -> AccessPath {
    let statement = Statement {
        kind: StatementKind::Select(select.clone()),
        span: Span::default(),
    };
    analyze(schema, &statement, Some(keyspace))
}

/// Derives the table that serves `select` (a read of `source`), named
/// `<entity>_by_<partition key>`, and the query rewritten against it.
pub fn derive_table(
    schema: &Schema,
    source: &Table,
    select: &Select,
    options: &DeriveOptions<'_>,
) -> Result<DerivedTable, DeriveError> {
    let p = predicates(source, select)?;
    if p.token {
        return Err(DeriveError::TokenRange);
    }
    if p.ann {
        return Err(DeriveError::VectorSearch);
    }
    let col = |i: usize| source.columns.get(i);
    let time_kind = |c: &Column| options.time_kind(c);
    let mut notes = Vec::new();
    let mut filters: Vec<usize> = p.filter.clone();

    // Equalities locate the partition, except instants: a partition per timestamp
    // would hold one row, so they sort rows instead when anything else can partition.
    let mut equal = Vec::new();
    for &i in &p.equal {
        match col(i) {
            Some(c) if key_eligible(c) => equal.push(i),
            Some(_) => filters.push(i),
            None => {}
        }
    }
    let (instants, others): (Vec<usize>, Vec<usize>) = equal
        .iter()
        .partition(|i| col(**i).and_then(&time_kind) == Some(TimeKind::Instant));
    let (partition, clustering_equal) = if others.is_empty() {
        (instants, Vec::new())
    } else {
        (others, instants)
    };

    let taken = |name: &str| source.column(name).is_some();
    let mut synthetic: Vec<DerivedColumn> = Vec::new();
    let mut partition_names: Vec<String> = partition
        .iter()
        .filter_map(|i| col(*i))
        .map(|c| c.name.clone())
        .collect();

    if partition.is_empty() {
        // Only a time range: partition by the period it falls in.
        let Some((time_col, kind)) = p
            .range
            .iter()
            .filter_map(|i| col(*i))
            .find_map(|c| time_kind(c).map(|k| (c, k)))
        else {
            return Err(DeriveError::NoPartitionKey);
        };
        let (base, ty, period) = match kind {
            TimeKind::Instant => ("day", CqlType::native(NativeType::Date), "day"),
            TimeKind::Bucket => (
                "month",
                CqlType::native(NativeType::Text),
                "month ('2024-08')",
            ),
        };
        let name = free_name(base, &taken);
        notes.push(format!(
            "no column is restricted by `=`: `{name}` is the {period} of `{}`, computed at write time; \
             a range over several periods reads one partition per period",
            time_col.name
        ));
        partition_names.push(name.clone());
        synthetic.push(DerivedColumn {
            name,
            ty,
            origin: ColumnOrigin::TimeBucket,
        });
    }

    // A partition key made only of a time bucket or a low-cardinality value puts all
    // concurrent writes in one partition: salt it.
    // `None` as soon as one column spreads the data well enough.
    let weak: Option<Vec<String>> = partition
        .iter()
        .filter_map(|i| col(*i))
        .map(|c| match time_kind(c) {
            Some(_) => Some(format!("heuristic: `{}` is a time value", c.name)),
            None => low_cardinality_reason(c, options.distinct(&c.name)),
        })
        .collect();
    let weak = weak.unwrap_or_default();
    let needs_salt = partition.is_empty() || !weak.is_empty();
    if needs_salt && options.salt_buckets > 1 {
        let name = free_name("bucket", &taken);
        let spread_by = source
            .partition_key()
            .chain(source.clustering())
            .find(|c| !partition_names.contains(&c.name) && time_kind(c).is_none())
            .map_or_else(|| "the row's key".to_string(), |c| format!("`{}`", c.name));
        let why = if weak.is_empty() {
            format!("`{}` alone", partition_names.join("`, `"))
        } else {
            weak.join(", ")
        };
        let n = options.salt_buckets;
        notes.push(format!(
            "{why}; as the whole partition key it puts every write of a period (or of a value) in one partition, \
             a hot partition: `{name}` = hash({spread_by}) % {n} spreads it over {n} partitions, and the query reads all {n}"
        ));
        partition_names.push(name.clone());
        synthetic.push(DerivedColumn {
            name,
            ty: CqlType::native(NativeType::Int),
            origin: ColumnOrigin::Salt,
        });
    }

    // Rows inside the partition: instants fixed by `=`, then the ORDER BY (in the
    // query's direction), then the ranges, then the source key for uniqueness.
    let mut clustering: Vec<(usize, Order)> = Vec::new();
    let placed = |clustering: &[(usize, Order)], i: usize| {
        partition.contains(&i) || clustering.iter().any(|(c, _)| *c == i)
    };
    let declared = |i: usize| match col(i).map(|c| c.kind) {
        Some(ColumnKind::Clustering(_, order)) => order,
        _ => Order::Asc,
    };
    for &i in &clustering_equal {
        clustering.push((i, declared(i)));
    }
    for &(i, order) in &p.order_by {
        if !placed(&clustering, i) && col(i).is_some_and(key_eligible) {
            clustering.push((i, order));
        }
    }
    // One range can be a slice of the clustering; any other stays a filter inside
    // the partition (a measured value such as `temp` must not become a key column).
    let slice = slice_column(&p, &|i| col(i));
    for &i in &p.range {
        if Some(i) == slice {
            if !placed(&clustering, i) {
                clustering.push((i, declared(i)));
            }
        } else if !placed(&clustering, i) && !filters.contains(&i) {
            filters.push(i);
        }
    }
    for (i, c) in source.columns.iter().enumerate() {
        if c.is_primary_key() && !placed(&clustering, i) {
            clustering.push((i, declared(i)));
        }
    }

    let name = derived_name(schema, source, &partition_names, &synthetic);
    let mut key_columns: Vec<DerivedColumn> = Vec::new();
    for n in &partition_names {
        if let Some(s) = synthetic.iter().find(|s| &s.name == n) {
            key_columns.push(s.clone());
        } else if let Some(c) = source.column(n) {
            key_columns.push(source_column(c));
        }
    }
    key_columns.extend(
        clustering
            .iter()
            .filter_map(|(i, _)| col(*i))
            .map(source_column),
    );
    let mut columns = key_columns;
    for c in &source.columns {
        if !columns.iter().any(|k| k.name == c.name) {
            columns.push(source_column(c));
        }
    }
    let clustering: Vec<(String, Order)> = clustering
        .iter()
        .filter_map(|(i, o)| col(*i).map(|c| (c.name.clone(), *o)))
        .collect();

    let mut query = select.clone();
    query.table = retarget(&select.table, &name);
    query.allow_filtering = false;
    insert_synthetic_relations(&mut query, &synthetic, options.salt_buckets);

    let grows = !partition_names.iter().any(|n| {
        source.column(n).and_then(&time_kind).is_some()
            || synthetic
                .iter()
                .any(|s| &s.name == n && s.origin == ColumnOrigin::TimeBucket)
    }) && clustering
        .first()
        .and_then(|(c, _)| source.column(c))
        .and_then(&time_kind)
        == Some(TimeKind::Instant);
    if grows {
        notes.push(
            "heuristic: no time bucket in the partition key, so rows accumulate in it for ever; \
             if it can pass 100 MB or 100,000 rows, add a bucket (a day, a month) to the key and to the query"
                .into(),
        );
    }

    let check_schema = scratch_schema(
        schema,
        source,
        &name,
        &columns,
        &partition_names,
        &clustering,
    );
    let mut path = analyze_select(&check_schema, &query, &source.keyspace);
    if path.error.is_some() && path.needs_allow_filtering {
        query.allow_filtering = true;
        path = analyze_select(&check_schema, &query, &source.keyspace);
        let filtered: Vec<String> = filters
            .iter()
            .filter_map(|i| col(*i))
            .map(|c| format!("`{}`", c.name))
            .collect();
        let what = if filtered.is_empty() {
            "a restriction".to_string()
        } else {
            filtered.join(", ")
        };
        notes.push(format!(
            "{what} cannot be part of the key: ALLOW FILTERING stays, confined to the partition the key locates"
        ));
    }
    if let Some(e) = &path.error {
        return Err(DeriveError::NotServed(e.message.clone()));
    }
    if !is_served(&path) {
        return Err(DeriveError::NotServed("it is still a range scan".into()));
    }
    Ok(DerivedTable {
        keyspace: source.keyspace.clone(),
        name,
        columns,
        partition_key: partition_names,
        clustering,
        notes,
        query,
        path,
    })
}

/// The query completed with the time buckets of the partition key it leaves out
/// (`day = ?` computed from the instant it reads), when that is all it misses and
/// the source table then serves it: the cheapest fix, no new table.
pub fn complete_time_buckets(
    schema: &Schema,
    source: &Table,
    select: &Select,
) -> Option<(Select, Vec<String>)> {
    let p = predicates(source, select).ok()?;
    if p.token || p.ann {
        return None;
    }
    let restricted = |c: &Column| {
        source
            .columns
            .iter()
            .position(|x| x.name == c.name)
            .is_some_and(|i| p.equal.contains(&i))
    };
    let missing: Vec<&Column> = source.partition_key().filter(|c| !restricted(c)).collect();
    let restricts_some_key = source.partition_key().any(restricted);
    if missing.is_empty()
        || !restricts_some_key
        || missing
            .iter()
            .any(|c| time_kind(c) != Some(TimeKind::Bucket))
    {
        return None;
    }
    let mut query = select.clone();
    query.allow_filtering = false;
    let buckets: Vec<DerivedColumn> = missing
        .iter()
        .map(|c| DerivedColumn {
            name: c.name.clone(),
            ty: c.ty.clone(),
            origin: ColumnOrigin::TimeBucket,
        })
        .collect();
    insert_synthetic_relations(&mut query, &buckets, 0);
    let path = analyze_select(schema, &query, &source.keyspace);
    (is_served(&path) && !path.filtering)
        .then(|| (query, missing.iter().map(|c| c.name.clone()).collect()))
}

fn source_column(c: &Column) -> DerivedColumn {
    DerivedColumn {
        name: c.name.clone(),
        ty: c.ty.clone(),
        origin: ColumnOrigin::Source,
    }
}

fn free_name(base: &str, taken: &impl Fn(&str) -> bool) -> String {
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}_{n}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| base.to_string())
}

/// `<entity>_by_<partition key>`: the entity is the source name before `_by_`; a
/// key column `x_id` reads `x`, or `id` when the entity is named after `x`
/// (`order_id` of `orders` → `orders_by_id`); the salt is not named.
fn derived_name(
    schema: &Schema,
    source: &Table,
    partition: &[String],
    synthetic: &[DerivedColumn],
) -> String {
    let entity = source.name.split("_by_").next().unwrap_or(&source.name);
    let parts: Vec<String> = partition
        .iter()
        .filter(|n| {
            !synthetic
                .iter()
                .any(|s| &s.name == *n && s.origin == ColumnOrigin::Salt)
        })
        .map(|n| match n.strip_suffix("_id") {
            Some(stem) if !stem.is_empty() && entity.starts_with(stem) => "id".to_string(),
            Some(stem) if !stem.is_empty() => stem.to_string(),
            _ => n.clone(),
        })
        .collect();
    let base = format!("{entity}_by_{}", parts.join("_and_"));
    let exists = |n: &str| schema.table(&source.keyspace, n).is_some();
    free_name(&base, &exists)
}

/// Adds `day = ?` for a time bucket and `bucket IN (0, ..., N-1)` for a salt, after
/// the query's last equality (where a reader looks for the partition key).
fn insert_synthetic_relations(query: &mut Select, synthetic: &[DerivedColumn], buckets: u32) {
    let at = query
        .where_clause
        .iter()
        .rposition(|r| {
            matches!(
                &r.kind,
                RelationKind::Column {
                    op: Operator::Eq,
                    ..
                } | RelationKind::ColumnIn { negated: false, .. }
            )
        })
        .map_or(0, |i| i + 1);
    let term = |kind: TermKind| Term {
        kind,
        span: Span::default(),
    };
    let mut added = Vec::new();
    for s in synthetic {
        let kind = match s.origin {
            ColumnOrigin::Source => continue,
            ColumnOrigin::TimeBucket => RelationKind::Column {
                column: Ident::new(s.name.clone()),
                op: Operator::Eq,
                value: term(TermKind::BindMarker(BindMarker::Anonymous)),
            },
            ColumnOrigin::Salt => RelationKind::ColumnIn {
                column: Ident::new(s.name.clone()),
                negated: false,
                values: InValues::List(
                    (0..buckets)
                        .map(|b| term(TermKind::Literal(Literal::Integer(b.to_string()))))
                        .collect(),
                ),
            },
        };
        added.push(Relation {
            kind,
            span: Span::default(),
        });
    }
    let tail = query
        .where_clause
        .split_off(at.min(query.where_clause.len()));
    query.where_clause.extend(added);
    query.where_clause.extend(tail);
}

/// A schema holding only the derived table, in a copy of the source keyspace's
/// settings and types, for checking the rewritten query.
fn scratch_schema(
    schema: &Schema,
    source: &Table,
    name: &str,
    columns: &[DerivedColumn],
    partition_key: &[String],
    clustering: &[(String, Order)],
) -> Schema {
    let kind_of = |column: &str| {
        if let Some(i) = partition_key.iter().position(|c| c == column) {
            return ColumnKind::PartitionKey(i);
        }
        if let Some(i) = clustering.iter().position(|(c, _)| c == column) {
            let order = clustering.get(i).map_or(Order::Asc, |(_, o)| *o);
            return ColumnKind::Clustering(i, order);
        }
        ColumnKind::Regular
    };
    let table = Table {
        keyspace: source.keyspace.clone(),
        name: name.to_string(),
        columns: columns
            .iter()
            .map(|c| Column {
                name: c.name.clone(),
                ty: c.ty.clone(),
                kind: kind_of(&c.name),
                masked: false,
                origin: Origin::default(),
            })
            .collect(),
        options: TableOptions::default(),
        indexes: Vec::new(),
        view: None,
        views: Vec::new(),
        origin: Origin::default(),
    };
    let (replication, durable_writes, types) = match schema.keyspace(&source.keyspace) {
        Some(k) => (k.replication.clone(), k.durable_writes, k.types.clone()),
        None => (
            cqlmodel_schema::Replication::Simple {
                replication_factor: 1,
            },
            true,
            BTreeMap::new(),
        ),
    };
    let keyspace = Keyspace {
        name: source.keyspace.clone(),
        replication,
        durable_writes,
        types,
        tables: BTreeMap::from([(name.to_string(), table)]),
        origin: Origin::default(),
    };
    Schema {
        keyspaces: BTreeMap::from([(source.keyspace.clone(), keyspace)]),
    }
}
