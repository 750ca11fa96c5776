//! The CQL of every read: the table that serves it, its statement, and how
//! many partitions and statements it takes (a bucket walk stops when the page
//! is full). A read no table serves keeps its reason.

use std::collections::{BTreeMap, HashMap};

use cqlmodel_stats::{BucketUnit, Stats};

use super::sizing::rows_per_partition;
use super::time_only;
use crate::derive::{KeyPart, OffPath, TableDesign};
use crate::querylist::{Body, QuerySpec};
use crate::reads::{QueryPlan, select_cql};

pub(super) struct ReadInput<'a> {
    pub keyspace: &'a str,
    pub specs: &'a [QuerySpec],
    pub tables: &'a [TableDesign],
    pub table_stats: &'a Stats,
    pub entity_stats: Option<&'a Stats>,
}

/// One plan per SELECT of the query list, in its order; `off` holds the
/// reads no table serves (taken out as they are planned).
pub(super) fn plan_reads(r: &ReadInput<'_>, off: &mut BTreeMap<String, OffPath>) -> Vec<QueryPlan> {
    let ReadInput {
        keyspace,
        specs,
        tables,
        table_stats,
        entity_stats,
    } = *r;
    let mut queries = Vec::new();
    // The first table serving each read, found once rather than by a scan
    // of every table per read.
    let mut table_of: HashMap<&str, usize> = HashMap::new();
    for (i, t) in tables.iter().enumerate() {
        for q in &t.queries {
            table_of.entry(q.as_str()).or_insert(i);
        }
    }
    for q in specs {
        let Body::Select(spec) = &q.body else {
            continue;
        };
        if let Some(o) = off.remove(&q.name) {
            queries.push(QueryPlan {
                name: q.name.clone(),
                table: None,
                cql: None,
                partitions: None,
                statements: 0,
                rows_read: None,
                one_row_per_partition: false,
                rate: q.rate,
                consistency: q.consistency.clone(),
                page: q.page,
                off_path: Some(o),
                notes: Vec::new(),
            });
            continue;
        }
        let Some(t) = table_of.get(q.name.as_str()).and_then(|&i| tables.get(i)) else {
            continue;
        };
        let ts = table_stats.tables.get(&format!("{}.{}", keyspace, t.name));
        let fanout = entity_stats
            .and_then(|s| s.queries.get(&q.name))
            .and_then(|qs| qs.span)
            .or_else(|| ts.and_then(|s| s.query_span))
            .unwrap_or(86_400);
        let width = t.partition_key.iter().find_map(|p| match p {
            KeyPart::Bucket(_, unit) => BucketUnit::parse(unit).map(BucketUnit::seconds),
            _ => None,
        });
        let mut walk_note = None;
        let bucket_fanout = width.map_or(1, |w| {
            let span = cqlmodel_stats::time_fanout(fanout, w);
            let page = spec.limit.or(q.page_size());
            match time_only::walked_buckets(t, ts, page, w) {
                Some(walk) if walk < span => {
                    walk_note = Some(format!(
                        "read by time alone: a page of {} fills from the newest buckets, so it reads {walk} of the {span} buckets a {} range spans (the newest has only just begun); the next page continues from the last row",
                        page.unwrap_or_default(),
                        cqlmodel_stats::units::format_duration(fanout)
                    ));
                    walk
                }
                _ => span,
            }
        });
        let rows_pp = rows_per_partition(keyspace, t, table_stats);
        let mut plan = select_cql(keyspace, t, q, spec, bucket_fanout, rows_pp);
        plan.notes.extend(walk_note);
        queries.push(plan);
    }
    queries
}
