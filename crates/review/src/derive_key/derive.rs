//! Deriving the table that serves a read from its predicates, and the time
//! buckets that bound it.
use std::collections::BTreeMap;

use cqlmodel_cql::ast::{
    BindMarker, Ident, InValues, Literal, Operator, Order, Relation, RelationKind, Select, Span,
    Term, TermKind,
};
use cqlmodel_schema::types::{CqlType, NativeType};
use cqlmodel_schema::{Column, ColumnKind, Keyspace, Origin, Schema, Table, TableOptions};

use super::columns::{TimeKind, key_eligible, low_cardinality_reason, time_kind};
use super::model::*;
use super::predicates::{Predicates, predicates, slice_column};
use super::serving::{analyze_select, is_served, retarget};

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
    let mut key = partition_by_equalities(source, &p, options);
    if key.partition.is_empty() {
        bucket_by_time_range(source, &p, options, &mut key)?;
    }
    salt_weak_partition(source, options, &mut key);
    let clustering = clustering_of(source, &p, &mut key);
    let Key {
        partition_names,
        synthetic,
        mut notes,
        filters,
        ..
    } = key;
    let col = |i: usize| source.columns.get(i);

    let name = derived_name(schema, source, &partition_names, &synthetic);
    let columns = table_columns(source, &partition_names, &synthetic, &clustering);
    let clustering: Vec<(String, Order)> = clustering
        .iter()
        .filter_map(|(i, o)| col(*i).map(|c| (c.name.clone(), *o)))
        .collect();

    let mut query = select.clone();
    query.table = retarget(&select.table, &name);
    query.allow_filtering = false;
    insert_synthetic_relations(&mut query, &synthetic, options.salt_buckets);
    if grows_for_ever(source, options, &partition_names, &synthetic, &clustering) {
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

/// The key being derived: source columns (by index) and synthetic columns
/// (time bucket, salt), with the notes that explain each choice.
struct Key {
    /// Source columns restricted by `=` that locate the partition.
    partition: Vec<usize>,
    /// Instants restricted by `=`: they sort rows when anything else partitions.
    clustering_equal: Vec<usize>,
    /// The partition key's column names, source and synthetic, in order.
    partition_names: Vec<String>,
    synthetic: Vec<DerivedColumn>,
    /// Restricted columns that stay filters.
    filters: Vec<usize>,
    notes: Vec<String>,
}

/// Equalities locate the partition, except instants: a partition per timestamp
/// would hold one row, so they sort rows instead when anything else can partition.
fn partition_by_equalities(source: &Table, p: &Predicates, options: &DeriveOptions<'_>) -> Key {
    let col = |i: usize| source.columns.get(i);
    let mut filters: Vec<usize> = p.filter.clone();
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
        .partition(|i| col(**i).and_then(|c| options.time_kind(c)) == Some(TimeKind::Instant));
    let (partition, clustering_equal) = if others.is_empty() {
        (instants, Vec::new())
    } else {
        (others, instants)
    };
    let partition_names = partition
        .iter()
        .filter_map(|i| col(*i))
        .map(|c| c.name.clone())
        .collect();
    Key {
        partition,
        clustering_equal,
        partition_names,
        synthetic: Vec::new(),
        filters,
        notes: Vec::new(),
    }
}

/// Only a time range: partition by the period it falls in.
fn bucket_by_time_range(
    source: &Table,
    p: &Predicates,
    options: &DeriveOptions<'_>,
    key: &mut Key,
) -> Result<(), DeriveError> {
    let Some((time_col, kind)) = p
        .range
        .iter()
        .filter_map(|i| source.columns.get(*i))
        .find_map(|c| options.time_kind(c).map(|k| (c, k)))
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
    let name = free_name(base, &|n: &str| source.column(n).is_some());
    key.notes.push(format!(
        "no column is restricted by `=`: `{name}` is the {period} of `{}`, computed at write time; \
         a range over several periods reads one partition per period",
        time_col.name
    ));
    key.partition_names.push(name.clone());
    key.synthetic.push(DerivedColumn {
        name,
        ty,
        origin: ColumnOrigin::TimeBucket,
    });
    Ok(())
}

/// A partition key made only of a time bucket or a low-cardinality value puts all
/// concurrent writes in one partition: salt it.
fn salt_weak_partition(source: &Table, options: &DeriveOptions<'_>, key: &mut Key) {
    // `None` as soon as one column spreads the data well enough.
    let weak: Option<Vec<String>> = key
        .partition
        .iter()
        .filter_map(|i| source.columns.get(*i))
        .map(|c| match options.time_kind(c) {
            Some(_) => Some(format!("heuristic: `{}` is a time value", c.name)),
            None => low_cardinality_reason(c, options.distinct(&c.name)),
        })
        .collect();
    let weak = weak.unwrap_or_default();
    let needs_salt = key.partition.is_empty() || !weak.is_empty();
    if !needs_salt || options.salt_buckets <= 1 {
        return;
    }
    let name = free_name("bucket", &|n: &str| source.column(n).is_some());
    let spread_by = source
        .partition_key()
        .chain(source.clustering())
        .find(|c| !key.partition_names.contains(&c.name) && options.time_kind(c).is_none())
        .map_or_else(|| "the row's key".to_string(), |c| format!("`{}`", c.name));
    let why = if weak.is_empty() {
        format!("`{}` alone", key.partition_names.join("`, `"))
    } else {
        weak.join(", ")
    };
    let n = options.salt_buckets;
    key.notes.push(format!(
        "{why}; as the whole partition key it puts every write of a period (or of a value) in one partition, \
         a hot partition: `{name}` = hash({spread_by}) % {n} spreads it over {n} partitions, and the query reads all {n}"
    ));
    key.partition_names.push(name.clone());
    key.synthetic.push(DerivedColumn {
        name,
        ty: CqlType::native(NativeType::Int),
        origin: ColumnOrigin::Salt,
    });
}

/// Rows inside the partition: instants fixed by `=`, then the ORDER BY (in the
/// query's direction), then the ranges, then the source key for uniqueness.
fn clustering_of(source: &Table, p: &Predicates, key: &mut Key) -> Vec<(usize, Order)> {
    let col = |i: usize| source.columns.get(i);
    let mut clustering: Vec<(usize, Order)> = Vec::new();
    let partition = &key.partition;
    let placed = |clustering: &[(usize, Order)], i: usize| {
        partition.contains(&i) || clustering.iter().any(|(c, _)| *c == i)
    };
    let declared = |i: usize| match col(i).map(|c| c.kind) {
        Some(ColumnKind::Clustering(_, order)) => order,
        _ => Order::Asc,
    };
    for &i in &key.clustering_equal {
        clustering.push((i, declared(i)));
    }
    for &(i, order) in &p.order_by {
        if !placed(&clustering, i) && col(i).is_some_and(key_eligible) {
            clustering.push((i, order));
        }
    }
    // One range can be a slice of the clustering; any other stays a filter inside
    // the partition (a measured value such as `temp` must not become a key column).
    let slice = slice_column(p, &|i| col(i));
    for &i in &p.range {
        if Some(i) == slice {
            if !placed(&clustering, i) {
                clustering.push((i, declared(i)));
            }
        } else if !placed(&clustering, i) && !key.filters.contains(&i) {
            key.filters.push(i);
        }
    }
    for (i, c) in source.columns.iter().enumerate() {
        if c.is_primary_key() && !placed(&clustering, i) {
            clustering.push((i, declared(i)));
        }
    }
    clustering
}

/// Key columns first (partition, then clustering), then every other column of
/// the source.
fn table_columns(
    source: &Table,
    partition_names: &[String],
    synthetic: &[DerivedColumn],
    clustering: &[(usize, Order)],
) -> Vec<DerivedColumn> {
    let mut columns: Vec<DerivedColumn> = Vec::new();
    for n in partition_names {
        if let Some(s) = synthetic.iter().find(|s| &s.name == n) {
            columns.push(s.clone());
        } else if let Some(c) = source.column(n) {
            columns.push(source_column(c));
        }
    }
    columns.extend(
        clustering
            .iter()
            .filter_map(|(i, _)| source.columns.get(*i))
            .map(source_column),
    );
    for c in &source.columns {
        if !columns.iter().any(|k| k.name == c.name) {
            columns.push(source_column(c));
        }
    }
    columns
}

/// True when nothing of the partition key is a time value or bucket while the
/// rows are sorted by an instant: the partition accumulates rows for ever.
fn grows_for_ever(
    source: &Table,
    options: &DeriveOptions<'_>,
    partition_names: &[String],
    synthetic: &[DerivedColumn],
    clustering: &[(String, Order)],
) -> bool {
    let time_kind = |c: &Column| options.time_kind(c);
    !partition_names.iter().any(|n| {
        source.column(n).and_then(time_kind).is_some()
            || synthetic
                .iter()
                .any(|s| &s.name == n && s.origin == ColumnOrigin::TimeBucket)
    }) && clustering
        .first()
        .and_then(|(c, _)| source.column(c))
        .and_then(time_kind)
        == Some(TimeKind::Instant)
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
