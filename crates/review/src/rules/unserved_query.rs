use cqlmodel_cql::ast::{Select, Statement, StatementKind};
use cqlmodel_schema::Table;
use cqlmodel_schema::access::AccessKind;

use super::query_path::query_path;
use crate::context::Context;
use crate::declare_rule;
use crate::derive_key::{
    DeriveError, DeriveOptions, complete_time_buckets, derive_table, path_table, predicates,
    serving_table_among,
};
use crate::finding::{Finding, Findings};
use crate::query::Query;

declare_rule! {
    /// ## What it does
    /// Finds reads of the query list that no table serves from one partition or a
    /// listed set of them: Cassandra rejects them, they need `ALLOW FILTERING`, they
    /// scan token ranges, or they query a secondary index across partitions. The fix
    /// is the table that would serve the query, derived from it:
    ///
    /// - columns restricted by `=` or `IN` form the partition key, except a
    ///   `timestamp`/`timeuuid` column, which sorts rows instead when another column
    ///   can partition;
    /// - when the partition key would be only a time bucket or a low-cardinality
    ///   value (a date, a status, a boolean), a salt `bucket` is added and the query
    ///   reads every bucket; when nothing is restricted by `=` but a time column is
    ///   ranged, the partition is the day (or month) of that column;
    /// - columns of `ORDER BY` (in the query's direction) and of ranges become
    ///   clustering columns, then the source table's key columns keep rows unique;
    /// - the table is named `<entity>_by_<partition key>` and holds every column of
    ///   the source table.
    ///
    /// The rewritten query is checked against the derived table with Cassandra's
    /// restriction rules before it is offered. When another table of the keyspace
    /// already serves the query, or when the query only misses a time bucket of the
    /// partition key (`day`), the fix is the rewritten query instead.
    ///
    /// Reads annotated `@path admin|analytics|migration` are left to `full-scan`; a
    /// scan that restricts nothing at all is reported by `full-scan` alone. Without a
    /// query list the rule is silent.
    ///
    /// ## Evidence
    /// The query list and the schema. A query read through a secondary index
    /// without the partition key is left to `secondary-index-misuse` (one problem,
    /// one finding); with that rule off it is reported here. Statistics
    /// (`docs/stats.md`) size the derived table's bucket. `@path` marks off-line
    /// queries, which are not reported.
    ///
    /// ## Why is this bad?
    /// Cassandra answers efficiently only the reads its primary keys were designed
    /// for; everything else costs a scan of every node, or fails. A primary key cannot
    /// be altered after the fact, so a query discovered late costs a new table, a
    /// dual-write and a backfill: cheaper at review time than in production.
    ///
    /// ## Example
    /// ```cql
    /// CREATE TABLE iot.temp_by_device (device_id text, day date, ts timestamp, temp double,
    ///     PRIMARY KEY ((device_id, day), ts)) WITH CLUSTERING ORDER BY (ts DESC);
    /// -- @name all_devices_today
    /// SELECT * FROM iot.temp_by_device WHERE day = ? ALLOW FILTERING;
    /// ```
    ///
    /// ## Use instead
    /// ```cql
    /// CREATE TABLE iot.temp_by_day (
    ///     day date,
    ///     bucket int,
    ///     device_id text,
    ///     ts timestamp,
    ///     temp double,
    ///     PRIMARY KEY ((day, bucket), device_id, ts)
    /// ) WITH CLUSTERING ORDER BY (device_id ASC, ts DESC);
    /// SELECT * FROM iot.temp_by_day WHERE day = ? AND bucket IN (0, 1, 2, 3, 4, 5, 6, 7);
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Data modeling: conceptual, logical and physical models"
    /// - Artem Chebotko, Andrey Kashlev, Shiyong Lu, "A Big Data Modeling Methodology for Apache Cassandra" (2015)
    pub static UNSERVED_QUERY = {
        code: "CQL003",
        name: "unserved-query",
        severity: Error,
        summary: "A read that no table serves from one partition (or a listed few)",
        check: check,
    };
}

/// Why the query is not served, in the words of the finding.
enum Unserved {
    Rejected { needs_allow_filtering: bool },
    IndexScan(String),
    RangeScan,
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    if !cx.has_queries {
        return;
    }
    for q in cx.queries {
        let StatementKind::Select(select) = &q.statement.kind else {
            continue;
        };
        if query_path(q).is_ok_and(|p| p.is_offline()) {
            continue;
        }
        let Some(table) = path_table(cx.schema, &q.path) else {
            continue;
        };
        let why = match (&q.path.error, q.path.kind) {
            (Some(_), _) => Unserved::Rejected {
                needs_allow_filtering: q.path.needs_allow_filtering,
            },
            (None, AccessKind::RangeScan) => match &q.path.index {
                // `secondary-index-misuse` reports it, with the lookup table that serves it.
                Some(_)
                    if cx.rule_enabled(
                        super::secondary_index_misuse::SECONDARY_INDEX_MISUSE.name,
                    ) =>
                {
                    continue;
                }
                Some(index) => Unserved::IndexScan(index.clone()),
                None => Unserved::RangeScan,
            },
            (None, _) => continue,
        };
        if let Some(f) = finding(cx, out, q, table, select, &why) {
            out.push(f);
        }
    }
}

/// Why an unserved read costs what it does.
const WHY_NOTE: &str = "a read that cannot name its partition asks every node (or fails): its cost grows with the \
                    table, not with the result";

fn finding(
    cx: &Context<'_>,
    out: &Findings,
    q: &Query,
    table: &Table,
    select: &Select,
    why: &Unserved,
) -> Option<Finding> {
    let name = table.qualified_name();
    let start = out
        .new_finding(String::new())
        .at(
            q.file,
            q.span().range(),
            q.span().start,
            "not served by any partition key",
        )
        .table(name.clone())
        .query(q.name.clone());
    let what = match why {
        Unserved::Rejected {
            needs_allow_filtering: true,
        } => format!("`{name}` cannot serve it without ALLOW FILTERING"),
        Unserved::Rejected { .. } => format!("Cassandra rejects it on `{name}`"),
        Unserved::IndexScan(index) => format!("it queries the index `{index}` on every node"),
        Unserved::RangeScan => format!("it scans the token ranges of `{name}`"),
    };

    let serving = serving_table_among(cx.schema, table, select, Some(&cx.partition_keys));
    // Completing the time bucket keeps the query on the table it was written for:
    // the smallest change, preferred even when another table serves it as written.
    if let Some((rewritten, buckets)) = complete_time_buckets(cx.schema, table, select) {
        let also = serving.as_ref().map(|(other, _)| *other);
        return Some(time_bucket_fix(start, q, &what, rewritten, &buckets, also));
    }
    if let Some((other, rewritten)) = serving {
        let mut f = start;
        f.message = format!(
            "`{name}` does not serve `{}`, but `{}` does",
            q.name,
            other.qualified_name()
        );
        return Some(f.note(format!("{what}; {WHY_NOTE}")).fix(
            format!("query `{}` instead", other.qualified_name()),
            Some(statement_cql(rewritten)),
        ));
    }
    derived_table_fix(cx, start, q, table, select, why, &what)
}

/// The fix that restricts the time bucket the query leaves out; `also` is
/// another table that serves the query as written.
fn time_bucket_fix(
    start: Finding,
    q: &Query,
    what: &str,
    rewritten: Select,
    buckets: &[String],
    also: Option<&Table>,
) -> Finding {
    let mut f = start;
    f.message = format!("no table serves `{}` as written: {what}", q.name);
    let list = buckets
        .iter()
        .map(|b| format!("`{b}`"))
        .collect::<Vec<_>>()
        .join(", ");
    f = f.note(WHY_NOTE).note(format!(
        "the query leaves out {list}, the time bucket of the partition key: the application \
         knows it from the time it reads"
    ));
    if let Some(other) = also {
        f = f.note(format!(
            "`{}` also serves it as written",
            other.qualified_name()
        ));
    }
    f.fix(
        format!(
            "restrict {list} too (one read per bucket the time range covers, issued concurrently)"
        ),
        Some(statement_cql(rewritten)),
    )
}

/// The fix that adds a table keyed by what the query restricts; `None` when no
/// table can be derived and another rule says it better.
fn derived_table_fix(
    cx: &Context<'_>,
    start: Finding,
    q: &Query,
    table: &Table,
    select: &Select,
    why: &Unserved,
    what: &str,
) -> Option<Finding> {
    let name = table.qualified_name();
    match derive_table(
        cx.schema,
        table,
        select,
        &DeriveOptions::with_stats(cx.stats.and_then(|s| s.table(&table.qualified_name()))),
    ) {
        Ok(derived) => {
            let mut f = start;
            f.message = format!("no table serves `{}`: {what}", q.name);
            f = f.note(WHY_NOTE);
            for n in &derived.notes {
                f = f.note(n.clone());
            }
            Some(f.fix(
                format!(
                    "add `{}.{}` keyed by what the query restricts (written alongside `{name}`), and read it",
                    derived.keyspace, derived.name
                ),
                Some(derived.fix_cql()),
            ))
        }
        Err(error) => {
            // Silent where another rule says it better: a scan restricting no key is
            // `full-scan`'s, a rejection unrelated to keys is `invalid-query`'s.
            let restricts_key = predicates(table, select).is_ok_and(|p| {
                table
                    .columns
                    .iter()
                    .enumerate()
                    .any(|(i, c)| c.is_primary_key() && p.equal.contains(&i))
            });
            let reported_elsewhere = match why {
                Unserved::Rejected {
                    needs_allow_filtering,
                } => !needs_allow_filtering,
                _ => !restricts_key,
            };
            if reported_elsewhere
                || matches!(
                    error,
                    DeriveError::UnknownColumn(_) | DeriveError::TokenRange
                )
            {
                return None;
            }
            let mut f = start;
            f.message = format!("no table serves `{}`: {what}", q.name);
            Some(f.note(WHY_NOTE).note(format!("no table can be derived: {error}")).help(
                "restrict the query by a value the application knows (a user, a device, a day) and add a table \
                 keyed by it; a query over everything belongs off the OLTP path (`-- @path analytics`)",
            ))
        }
    }
}

fn statement_cql(select: Select) -> String {
    let statement = Statement {
        kind: StatementKind::Select(select),
        span: cqlmodel_cql::ast::Span::default(),
    };
    format!("{statement};")
}
