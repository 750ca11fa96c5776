//! The CQL each read runs against its table: bind markers for every value,
//! the partitions it touches (IN values × time buckets × salt) and the rows it reads.

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
    /// Partitions per execution; `None` when unknown.
    pub partitions: Option<u64>,
    /// Estimated rows read per execution.
    pub rows_read: Option<f64>,
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
    let mut notes = Vec::new();
    let same = |a: &crate::select::ColRef, b: &crate::select::ColRef| {
        a == b
            || class_of(&t.classes, a).contains(b)
            || class_of(&spec_classes(spec), a).contains(b)
    };
    let mut select_list: Vec<String> = Vec::new();
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
    let counter = t.kind == crate::derive::TableKind::Counter;
    if counter {
        select_list.push(quote_ident("count"));
        notes.push("reads the counter: one cell, however many rows were counted".into());
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
    let eq_count = |c: &crate::select::ColRef| {
        spec.equalities
            .iter()
            .find(|(e, _)| same(e, c))
            .map(|(_, n)| *n as u64)
    };
    let mut conds = Vec::new();
    let mut partitions: u64 = 1;
    for p in &t.partition_key {
        let Some(col) = t.column_for(p) else { continue };
        let name = quote_ident(&col.name);
        match p {
            KeyPart::Attr(c) => match eq_count(c) {
                Some(n) if n > 1 => {
                    partitions = partitions.saturating_mul(n);
                    conds.push(format!("{name} IN ({})", markers(n)));
                }
                _ => conds.push(format!("{name} = ?")),
            },
            KeyPart::Bucket(src, unit) => {
                if eq_count(src).is_some() {
                    conds.push(format!("{name} = ?"));
                    notes.push(format!(
                        "the {unit} bucket is computed from the bound `{}`",
                        src.column
                    ));
                } else if spec.ranges.iter().any(|r| same(r, src)) {
                    partitions = partitions.saturating_mul(bucket_fanout.max(1));
                    conds.push(format!("{name} IN ({})", markers(bucket_fanout)));
                    notes.push(format!(
                        "bucket fan-out: the range on `{}` spans {} {unit} bucket(s)",
                        src.column,
                        bucket_fanout.max(1)
                    ));
                } else {
                    conds.push(format!("{name} = ?"));
                    notes.push(format!("reads the newest {unit} bucket first and walks back one bucket per execution until the page is full"));
                }
            }
            KeyPart::Counter => {}
            KeyPart::Salt(n) => {
                partitions = partitions.saturating_mul(u64::from(*n));
                conds.push(format!("{name} IN ({})", markers(u64::from(*n))));
                notes.push(format!(
                    "salted key: every one of the {n} salt buckets is read and the results merged"
                ));
            }
        }
    }
    let mut full_key = true;
    let mut restricts_clustering = false;
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
            restricts_clustering = true;
            continue;
        }
        full_key = false;
        for (r, op) in &spec.range_ops {
            if same(r, c) {
                conds.push(format!("{name} {op} ?"));
                restricts_clustering = true;
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
        let _ = i;
        break;
    }
    // Cassandra refuses a clustering restriction when only static columns are
    // selected: the first clustering column joins the selection.
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
    if only_statics
        && restricts_clustering
        && let Some(first) = t.clustering.first().and_then(|(p, _)| t.column_for(p))
    {
        select_list.push(quote_ident(&first.name));
        notes.push(format!(
            "`{}` is selected too: Cassandra refuses a clustering restriction when only static columns are selected",
            first.name
        ));
    }
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
    if let Some(l) = spec.limit {
        cql.push_str(&format!(" LIMIT {l}"));
    }
    let per_partition = if counter || (full_key && spec.aggregates.is_empty()) {
        Some(1.0)
    } else {
        rows_per_partition
    };
    let rows_read = per_partition.map(|r| {
        let total = r * partitions as f64;
        spec.limit
            .map_or(total, |l| total.min(l as f64 * partitions as f64))
    });
    QueryPlan {
        name: q.name.clone(),
        table: Some(t.name.clone()),
        cql: Some(cql),
        partitions: Some(partitions),
        rows_read,
        rate: q.rate,
        consistency: q.consistency.clone(),
        page: q.page,
        off_path: None,
        notes,
    }
}

fn spec_classes(spec: &SelectSpec) -> Vec<Vec<crate::select::ColRef>> {
    spec.joins
        .iter()
        .map(|(a, b)| vec![a.clone(), b.clone()])
        .collect()
}
