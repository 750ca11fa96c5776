//! The CQL each read runs against its table: bind markers for every value,
//! the partitions it touches (IN values × time buckets × salt) and the rows it reads.

use std::collections::HashMap;

use cqlmodel_cql::keywords::quote_ident;
use serde::Serialize;

use crate::derive::{KeyPart, TableDesign, class_of};
use crate::querylist::QuerySpec;
use crate::select::SelectSpec;

/// How one query is served.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueryPlan {
    pub name: String,
    /// `None` when the query stays off the OLTP path.
    pub table: Option<String>,
    pub cql: Option<String>,
    /// Partitions per execution of the query; `None` when unknown.
    pub partitions: Option<u64>,
    /// How many times `cql` runs per execution of the query: once per time
    /// bucket, salt bucket or key value it spans (1 for one partition).
    pub statements: u64,
    /// Estimated rows read per execution.
    pub rows_read: Option<f64>,
    /// The read's shape returns at most one row per partition: every
    /// clustering column is bound by equality (or the table has none), or it
    /// reads a counter. Then every key costs the same; a low `rows_read`
    /// (a mean of rows per partition) is no such proof when the keys are
    /// skewed.
    #[serde(skip)]
    pub one_row_per_partition: bool,
    pub rate: Option<f64>,
    pub consistency: Option<String>,
    pub page: Option<u64>,
    /// For queries off the OLTP path: why, and what to do instead.
    pub off_path: Option<crate::derive::OffPath>,
    pub notes: Vec<String>,
}

pub(crate) fn markers(n: u64) -> String {
    vec!["?"; n.max(1) as usize].join(", ")
}

/// `bucket_fanout`: partitions a range over the bucket's source attribute reads.
pub fn select_cql(
    keyspace: &str,
    t: &TableDesign,
    q: &QuerySpec,
    spec: &SelectSpec,
    bucket_fanout: u64,
    rows_per_partition: Option<f64>,
) -> QueryPlan {
    let cx = ReadContext {
        t,
        spec,
        classes: spec_classes(spec),
    };
    let mut notes = application_notes(spec);
    let counter = t.kind == crate::derive::TableKind::Counter;
    let mut select_list = selection(&cx, counter, &mut notes);
    let keys = partition_where(&cx, q, bucket_fanout, &mut notes);
    let clustering = clustering_where(&cx, &mut notes);
    let mut conds = keys.conds;
    conds.extend(clustering.conds);
    if clustering.restricts {
        add_clustering_for_statics(t, &mut select_list, &mut notes);
    }
    let PartitionWhere {
        partitions,
        statements,
        salted_or_in,
        ..
    } = keys;
    let order_clause = clustering.order_clause;
    let full_key = clustering.full_key;
    let mut cql = format!(
        "SELECT {} FROM {}.{} WHERE {}",
        select_list.join(", "),
        quote_ident(keyspace),
        quote_ident(&t.name),
        conds.join(" AND ")
    );
    if let Some(o) = order_clause {
        cql.push(' ');
        cql.push_str(&o);
    }
    if let Some(v) = &spec.ann
        && let Some(col) = t.column_of(v)
    {
        cql.push_str(&format!(" ORDER BY {} ANN OF ?", quote_ident(&col.name)));
        let function = t
            .ann
            .iter()
            .find(|(n, _)| *n == col.name)
            .map_or("cosine", |(_, f)| f.as_str());
        notes.push(crate::ann::read_note(
            &col.name,
            function,
            spec.limit.unwrap_or_default(),
            (q.page_size(), q.consistency.as_deref()),
        ));
    }
    if let Some(l) = spec.limit {
        cql.push_str(&format!(" LIMIT {l}"));
    }
    let one_row_per_partition = counter || full_key;
    let per_partition = if counter || (full_key && spec.aggregates.is_empty()) {
        Some(1.0)
    } else {
        rows_per_partition
    };
    // A LIMIT (or a page) bounds each statement; a bucket walk stops once the
    // page is full, so it reads at most one LIMIT in all.
    let bound = spec.limit.or(q.page_size());
    let limited_statements = if salted_or_in { statements } else { 1 };
    let rows_read = per_partition.map(|r| {
        let total = r * partitions as f64;
        bound.map_or(total, |l| total.min(l as f64 * limited_statements as f64))
    });
    QueryPlan {
        name: q.name.clone(),
        table: Some(t.name.clone()),
        cql: Some(cql),
        partitions: Some(partitions),
        statements,
        rows_read,
        one_row_per_partition,
        rate: q.rate,
        consistency: q.consistency.clone(),
        page: q.page,
        off_path: None,
        notes,
    }
}

/// The table read and the query's own columns: `same` knows the equalities of
/// the table's classes and of the query's joins.
struct ReadContext<'a> {
    t: &'a TableDesign,
    spec: &'a SelectSpec,
    classes: Vec<Vec<crate::select::ColRef>>,
}

impl ReadContext<'_> {
    fn same(&self, a: &crate::select::ColRef, b: &crate::select::ColRef) -> bool {
        a == b || class_of(&self.t.classes, a).contains(b) || class_of(&self.classes, a).contains(b)
    }

    /// How many values the query binds to `c` by equality (IN counts each).
    fn eq_count(&self, c: &crate::select::ColRef) -> Option<u64> {
        self.spec
            .equalities
            .iter()
            .find(|(e, _)| self.same(e, c))
            .map(|(_, n)| *n as u64)
    }
}

/// What the application does with the rows: grouping, sorting, counting a set.
fn application_notes(spec: &SelectSpec) -> Vec<String> {
    let mut notes = Vec::new();
    let grouped = !spec.group_by.is_empty();
    if grouped {
        notes.push(format!(
            "reads the partition's rows; the application groups by {} and computes {}",
            spec.group_by
                .iter()
                .map(|c| c.column.clone())
                .collect::<Vec<_>>()
                .join(", "),
            spec.aggregates
                .iter()
                .map(|(f, a)| format!(
                    "{f}({})",
                    a.as_ref().map_or("*".into(), |a| a.column.clone())
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !spec.app_order.is_empty() {
        notes.push(format!(
            "the application sorts by {}",
            spec.app_order.join(", ")
        ));
    }
    if let Some(x) = &spec.count_distinct {
        notes.push(format!(
            "counts the set's partition: one row per distinct `{}`, so the read touches as many rows as there are distinct values of the key",
            x.column
        ));
    }
    notes
}

/// The SELECT list: the counter's cells, the aggregates, or the projection.
fn selection(cx: &ReadContext<'_>, counter: bool, notes: &mut Vec<String>) -> Vec<String> {
    let ReadContext { t, spec, .. } = *cx;
    let same = |a: &crate::select::ColRef, b: &crate::select::ColRef| cx.same(a, b);
    let grouped = !spec.group_by.is_empty();
    let mut select_list: Vec<String> = Vec::new();
    if counter {
        for (f, arg) in &spec.aggregates {
            let name = match (f.as_str(), arg) {
                ("sum", Some(a)) => format!("sum_{}", a.column),
                _ => "count".into(),
            };
            let name = quote_ident(&name);
            if !select_list.contains(&name) {
                select_list.push(name);
            }
        }
        notes.push(
            "reads the counter: one cell per aggregate, however many rows were counted".into(),
        );
    }
    for (f, arg) in spec.aggregates.iter().filter(|_| !grouped && !counter) {
        let inner = match arg.as_ref().and_then(|a| {
            t.column_of(a).or_else(|| {
                t.columns
                    .iter()
                    .find(|c| matches!(&c.part, KeyPart::Attr(x) if same(x, a)))
            })
        }) {
            Some(c) => quote_ident(&c.name),
            None => "*".into(),
        };
        select_list.push(format!("{f}({inner})"));
    }
    if (spec.aggregates.is_empty() || grouped) && !counter {
        for p in spec.projection.iter().chain(&spec.group_by) {
            if let Some(c) = t
                .columns
                .iter()
                .find(|c| matches!(&c.part, KeyPart::Attr(x) if same(x, p)))
            {
                let n = quote_ident(&c.name);
                if !select_list.contains(&n) {
                    select_list.push(n);
                }
            }
        }
    }
    if select_list.is_empty() {
        select_list.push("*".into());
    }
    select_list
}

/// The partition key's conditions, with how many partitions and statements
/// the read takes (salts, IN values run concurrently; buckets are walked).
struct PartitionWhere {
    conds: Vec<String>,
    partitions: u64,
    statements: u64,
    salted_or_in: bool,
}

fn partition_where(
    cx: &ReadContext<'_>,
    q: &QuerySpec,
    bucket_fanout: u64,
    notes: &mut Vec<String>,
) -> PartitionWhere {
    let ReadContext { t, spec, .. } = *cx;
    let same = |a: &crate::select::ColRef, b: &crate::select::ColRef| cx.same(a, b);
    let eq_count = |c: &crate::select::ColRef| cx.eq_count(c);
    let mut w = PartitionWhere {
        conds: Vec::new(),
        partitions: 1,
        statements: 1,
        salted_or_in: false,
    };
    // Statements per query: Cassandra returns the partitions of a partition-key
    // IN in key order, one after the other (and refuses ORDER BY with IN when
    // paging), so an ordered or limited read of several partitions runs once
    // per partition and the application walks or merges them.
    // Salts and key values are read concurrently, each up to the LIMIT;
    // buckets are walked one after the other.
    let ordered = !spec.order.is_empty() || spec.limit.is_some() || q.page_size().is_some();
    let newest_first = spec.order.first().is_none_or(|(_, desc)| *desc);
    let aggregate = !spec.aggregates.is_empty() || !spec.group_by.is_empty();
    for p in &t.partition_key {
        let Some(col) = t.column_for(p) else { continue };
        let name = quote_ident(&col.name);
        match p {
            KeyPart::Attr(c) => match eq_count(c) {
                Some(n) if n > 1 && ordered => {
                    w.partitions = w.partitions.saturating_mul(n);
                    w.statements = w.statements.saturating_mul(n);
                    w.salted_or_in = true;
                    w.conds.push(format!("{name} = ?"));
                    notes.push(format!(
                        "runs once per `{}` value ({n}), concurrently, and the application merges the results in order: an IN would return one partition after the other",
                        col.name
                    ));
                }
                Some(n) if n > 1 && spec.any_of.iter().any(|a| same(a, c)) => {
                    w.partitions = w.partitions.saturating_mul(n);
                    w.conds.push(format!("{name} IN ?"));
                    notes.push(format!(
                        "`{} = ANY($n)` is `IN ?` with the array bound as one list; partitions counted for {n} values (one per value: keep the list short)",
                        col.name
                    ));
                }
                Some(n) if n > 1 => {
                    w.partitions = w.partitions.saturating_mul(n);
                    w.conds.push(format!("{name} IN ({})", markers(n)));
                }
                _ => w.conds.push(format!("{name} = ?")),
            },
            KeyPart::Bucket(src, unit) => {
                let how = BucketRead {
                    bound: eq_count(src).is_some(),
                    ranged: spec.ranges.iter().any(|r| same(r, src)),
                    fanout: bucket_fanout,
                    aggregate,
                    newest_first,
                };
                bucket_condition(&mut w, &name, &src.column, unit, &how, notes);
            }
            KeyPart::Counter | KeyPart::Sum(_) => {}
            // The constant bucket of a table read whole: always 0.
            KeyPart::Whole => w.conds.push(format!("{name} = 0")),
            KeyPart::Salt(n) => {
                let n = u64::from(*n);
                w.partitions = w.partitions.saturating_mul(n);
                w.statements = w.statements.saturating_mul(n);
                w.salted_or_in = true;
                w.conds.push(format!("{name} = ?"));
                notes.push(format!(
                    "salted key: runs once per salt bucket ({n}), concurrently, each with the query's LIMIT; the application merges the results in clustering order"
                ));
            }
        }
    }
    w
}

/// How a read reaches the time buckets of its partition key: the bucket of a
/// bound value, the buckets a range spans, or a walk from the newest (oldest).
struct BucketRead {
    bound: bool,
    ranged: bool,
    fanout: u64,
    aggregate: bool,
    newest_first: bool,
}

/// The bucket's condition, its partitions and statements, and the note.
fn bucket_condition(
    w: &mut PartitionWhere,
    name: &str,
    src_column: &str,
    unit: &str,
    how: &BucketRead,
    notes: &mut Vec<String>,
) {
    if how.bound {
        w.conds.push(format!("{name} = ?"));
        notes.push(format!(
            "the {unit} bucket is computed from the bound `{}`",
            src_column
        ));
    } else if how.ranged {
        let n = how.fanout.max(1);
        w.partitions = w.partitions.saturating_mul(n);
        w.statements = w.statements.saturating_mul(n);
        w.conds.push(format!("{name} = ?"));
        notes.push(if how.aggregate {
                format!("bucket fan-out: the range on `{}` spans {n} {unit} bucket(s); runs once per bucket and the application aggregates them all", src_column)
            } else if how.newest_first {
                format!("bucket fan-out: the range on `{}` spans {n} {unit} bucket(s); runs once per bucket, newest first, until the page is full", src_column)
            } else {
                format!("bucket fan-out: the range on `{}` spans {n} {unit} bucket(s); runs once per bucket, oldest first, until the page is full", src_column)
            });
    } else {
        w.conds.push(format!("{name} = ?"));
        notes.push(if how.newest_first {
                format!("reads the newest {unit} bucket first and walks back one bucket per execution until the page is full")
            } else {
                format!("reads the oldest {unit} bucket still held first and walks forward one bucket per execution until the page is full")
            });
    }
}

/// The clustering columns' conditions: equalities, then one slice (a range or
/// a keyset), and the ORDER BY when the query reads against the table's order.
struct ClusteringWhere {
    conds: Vec<String>,
    /// Every clustering column is bound by equality: one row per partition.
    full_key: bool,
    restricts: bool,
    order_clause: Option<String>,
}

fn clustering_where(cx: &ReadContext<'_>, notes: &mut Vec<String>) -> ClusteringWhere {
    let ReadContext { t, spec, .. } = *cx;
    let same = |a: &crate::select::ColRef, b: &crate::select::ColRef| cx.same(a, b);
    let eq_count = |c: &crate::select::ColRef| cx.eq_count(c);
    let mut conds = Vec::new();
    let mut full_key = true;
    let mut restricts = false;
    let mut order_clause = None;
    for (i, (p, desc)) in t.clustering.iter().enumerate() {
        let Some(col) = t.column_for(p) else { continue };
        let name = quote_ident(&col.name);
        let KeyPart::Attr(c) = p else {
            full_key = false;
            break;
        };
        if eq_count(c).is_some() {
            conds.push(format!("{name} = ?"));
            restricts = true;
            continue;
        }
        full_key = false;
        if let Some(slice) = keyset_slice(t, spec, i, &same) {
            conds.push(slice);
            restricts = true;
        }
        for (r, op) in &spec.range_ops {
            if same(r, c) {
                conds.push(format!("{name} {op} ?"));
                restricts = true;
            }
        }
        if let Some((_, want_desc)) = spec.order.iter().find(|(o, _)| same(o, c))
            && want_desc != desc
        {
            order_clause = Some(format!(
                "ORDER BY {name} {}",
                if *want_desc { "DESC" } else { "ASC" }
            ));
            notes.push(format!(
                "reversed read: the table clusters `{}` {}",
                col.name,
                if *desc { "DESC" } else { "ASC" }
            ));
        }
        break;
    }
    ClusteringWhere {
        conds,
        full_key,
        restricts,
        order_clause,
    }
}

/// Cassandra refuses a clustering restriction when only static columns are
/// selected: the first clustering column joins the selection.
fn add_clustering_for_statics(
    t: &TableDesign,
    select_list: &mut Vec<String>,
    notes: &mut Vec<String>,
) {
    // (Cassandra's `Selection.containsOnlyStaticColumns`: partition key
    // columns do not count, one static column must be there.)
    let role_of = |n: &String| {
        t.columns
            .iter()
            .find(|c| quote_ident(&c.name) == *n)
            .map(|c| c.role)
    };
    let only_statics = select_list
        .iter()
        .any(|n| role_of(n) == Some(crate::derive::Role::Static))
        && select_list.iter().all(|n| {
            matches!(
                role_of(n),
                Some(crate::derive::Role::Static | crate::derive::Role::PartitionKey)
            )
        });
    if only_statics && let Some(first) = t.clustering.first().and_then(|(p, _)| t.column_for(p)) {
        select_list.push(quote_ident(&first.name));
        notes.push(format!(
            "`{}` is selected too: Cassandra refuses a clustering restriction when only static columns are selected",
            first.name
        ));
    }
}

fn spec_classes(spec: &SelectSpec) -> Vec<Vec<crate::select::ColRef>> {
    spec.joins
        .iter()
        .map(|(a, b)| vec![a.clone(), b.clone()])
        .collect()
}

/// `(a, b) < (?, ?)` when the keyset's columns are the table's clustering
/// columns from position `at` on, in order (Cassandra's multi-column slice).
fn keyset_slice(
    t: &TableDesign,
    spec: &SelectSpec,
    at: usize,
    same: &dyn Fn(&crate::select::ColRef, &crate::select::ColRef) -> bool,
) -> Option<String> {
    let (cols, op) = spec.keyset.as_ref()?;
    let mut names = Vec::new();
    for (k, (p, _)) in cols.iter().zip(t.clustering.iter().skip(at)) {
        let KeyPart::Attr(c) = p else { return None };
        if !same(k, c) {
            return None;
        }
        names.push(quote_ident(&t.column_for(p)?.name));
    }
    (names.len() == cols.len()).then(|| {
        format!(
            "({}) {op} ({})",
            names.join(", "),
            vec!["?"; names.len()].join(", ")
        )
    })
}

/// Reads of a table keyed by a unique value PostgreSQL compared without case
/// (`lower(email)` indexes, citext, nondeterministic collations): the claim
/// is on the normalized value, so the read binds it normalized too, or it
/// misses the row that `Alice@x` claimed when asked for `alice@x`.
pub fn normalized_reads(
    model: &crate::relational::Model,
    tables: &[TableDesign],
    queries: &mut [QueryPlan],
) {
    // The first table of each name, as a search finds it: a search per read
    // made a 10,000-read design quadratic.
    let mut by_name: HashMap<&str, &TableDesign> = HashMap::new();
    for t in tables {
        by_name.entry(t.name.as_str()).or_insert(t);
    }
    for q in queries.iter_mut() {
        let Some(t) = q
            .table
            .as_deref()
            .and_then(|name| by_name.get(name).copied())
        else {
            continue;
        };
        let Some(e) = model.entity(&t.entity) else {
            continue;
        };
        let key: Vec<String> = t
            .partition_key
            .iter()
            .filter_map(|p| match p {
                KeyPart::Attr(a) if a.entity == e.name => Some(a.column.clone()),
                _ => None,
            })
            .collect();
        if key.is_empty() || key.len() != t.partition_key.len() {
            continue;
        }
        let Some(how) = e
            .uniques
            .iter()
            .filter(|u| u.iter().all(|c| key.contains(c)) && u.len() == key.len())
            .find_map(|u| crate::relational::normalization(e, u))
        else {
            continue;
        };
        q.notes.push(format!(
            "{how}: bind the normalized (lower-cased) `{}`, as the writes stored and claimed it; a value bound as typed misses rows written in another case",
            key.join("`, `")
        ));
    }
}
