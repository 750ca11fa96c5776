use cqlmodel_cql::ast::{RelationKind, Select, StatementKind};
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::Table;
use cqlmodel_schema::access::AccessKind;

use crate::context::Context;
use crate::declare_rule;
use crate::derive_key::{DeriveOptions, derive_table, path_table, predicates};
use crate::finding::{Finding, Findings};
use crate::query::Query;

declare_rule! {
    /// ## What it does
    /// Finds reads that restrict no partition-key column: `SELECT ... FROM t` with
    /// no WHERE clause, filters on regular columns (`ALLOW FILTERING`), secondary-index
    /// queries without the partition key, and explicit `token()` range scans.
    ///
    /// A query annotated `-- @path admin`, `@path analytics` or `@path migration`
    /// declares that it does not run on the application's request path; its scan
    /// is reported as info. `@path app` (the default) is an application read.
    ///
    /// ## Evidence
    /// The query list. A scan through a secondary index is left to
    /// `secondary-index-misuse` (one problem, one finding) unless that rule is off.
    /// `@path admin|analytics|migration` turns a scan into info: say where a query
    /// runs.
    ///
    /// ## Why is this bad?
    /// Without a partition key the coordinator cannot route the read: it walks the
    /// token ring range by range, asking replicas on every node, until the page is
    /// full or the ring is exhausted. Its latency and load grow with the table, not
    /// with the result, and at an application's request rate it competes with every
    /// other read for the same disks. With a filter the work is the whole table for
    /// each page; with a secondary index, one index lookup per node.
    ///
    /// The severity follows the risk: on an application path it is an error; a scan
    /// with no filter and a literal `LIMIT` reads only that many rows (in token order,
    /// so which rows is arbitrary) and is a warning; on an admin, analytics or
    /// migration path it is info.
    ///
    /// ## Example
    /// ```cql
    /// -- @name devices_over_threshold @rate 50/s
    /// SELECT device_id, temp FROM iot.temp_by_device WHERE temp > 30 ALLOW FILTERING;
    /// ```
    ///
    /// ## Use instead
    /// A table keyed by what the application knows at read time, written alongside
    /// the base table (`unserved-query` prints it), or move the query off the OLTP
    /// path (Spark, an export, CDC into an analytical store) and say so:
    /// ```cql
    /// -- @name nightly_export @path analytics
    /// SELECT * FROM iot.temp_by_device;
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Data modeling: queries" and "SELECT: Allowing filtering"
    /// - Cassandra 5.0 `StatementRestrictions.isKeyRange`, `PartitionRangeReadCommand`
    pub static FULL_SCAN = {
        code: "CQL005",
        name: "full-scan",
        severity: Error,
        summary: "A read with no partition-key restriction scans the whole ring",
        check: check,
    };
}

pub use super::query_path::{QueryPath, query_path};

fn check(cx: &Context<'_>, out: &mut Findings) {
    for q in cx.queries {
        let StatementKind::Select(select) = &q.statement.kind else {
            continue;
        };
        if q.path.error.is_some() || q.path.kind != AccessKind::RangeScan {
            continue;
        }
        if q.path.index.is_some()
            && cx.rule_enabled(super::secondary_index_misuse::SECONDARY_INDEX_MISUSE.name)
        {
            // `secondary-index-misuse` reports the scan through the index, with its fix.
            continue;
        }
        let Some(table) = path_table(cx.schema, &q.path) else {
            continue;
        };
        let Ok(p) = predicates(table, select) else {
            continue;
        };
        let restricts_partition_key = table
            .columns
            .iter()
            .enumerate()
            .any(|(i, c)| is_partition_key(c) && p.equal.contains(&i));
        if restricts_partition_key {
            // Part of the key is known: `unserved-query` derives the table that completes it.
            continue;
        }
        let path = query_path(q);
        let offline = path.as_ref().is_ok_and(|p| p.is_offline());
        let name = table.qualified_name();
        let (message, label) = scan_message(q, &name, p.token);
        let bounded_by_limit =
            !q.path.filtering && q.path.index.is_none() && q.path.limit.is_some();
        let severity = if offline {
            Severity::Info
        } else if bounded_by_limit {
            Severity::Warning
        } else {
            Severity::Error
        };
        let mut f = out
            .new_finding(message)
            .severity(severity)
            .at(q.file, q.span().range(), q.span().start, label)
            .table(name.clone())
            .query(q.name.clone())
            .note(
                "no partition key: the coordinator walks the token ring, asking every node, so the cost grows \
                 with the table, not with the result",
            );
        if let Some(limit) = q.path.limit.filter(|_| bounded_by_limit) {
            f = f.note(format!(
                "LIMIT {limit} bounds the rows read, not which ones: they come in token order, effectively at random"
            ));
        }
        if let Err(value) = &path {
            f = f.note(format!(
                "`@path {value}` is not a known path ({}): treated as an application path",
                QueryPath::VALUES
            ));
        }
        if offline {
            if let Ok(p) = path {
                f = f.help(format!(
                    "declared `@path {}`: keep it paged, at low concurrency and LOCAL_ONE, away from peak traffic \
                     (or run it in Spark over the cluster)",
                    p.name()
                ));
            }
            out.push(f);
            continue;
        }
        out.push(with_serving_advice(cx, f, table, select));
    }
}

/// The finding's message and label: how the query reads without a partition key.
fn scan_message(q: &Query, name: &str, token: bool) -> (String, &'static str) {
    if token {
        (
            format!("`{}` scans token ranges of `{name}`", q.name),
            "token-range scan",
        )
    } else if let Some(index) = &q.path.index {
        (
            format!(
                "`{}` queries the index `{index}` on every node: no partition key is restricted",
                q.name
            ),
            "index scan across partitions",
        )
    } else if q.path.filtering {
        (
            format!("`{}` reads and filters every partition of `{name}`", q.name),
            "scans and filters the whole table",
        )
    } else {
        (
            format!("`{}` reads every partition of `{name}`", q.name),
            "scans the whole table",
        )
    }
}

/// An application-path scan's way out: the table that would serve it (as the fix
/// when `unserved-query` is off, else as help), or moving it off the OLTP path.
fn with_serving_advice(cx: &Context<'_>, f: Finding, table: &Table, select: &Select) -> Finding {
    let unserved_off = !cx.rule_enabled(super::unserved_query::UNSERVED_QUERY.name);
    match derive_table(cx.schema, table, select, &DeriveOptions::with_stats(cx.stats.and_then(|s| s.table(&table.qualified_name())))) {
        Ok(derived) if unserved_off => f.fix(
            format!(
                "serve it from `{}.{}`, keyed by what the query restricts",
                derived.keyspace, derived.name
            ),
            Some(derived.fix_cql()),
        ),
        Ok(derived) => f.help(format!(
            "serve it from a table keyed by what the query restricts: `{}.{}` (see `unserved-query`)",
            derived.keyspace, derived.name
        )),
        Err(_) if is_listing(select) => f.help(
            "move it off the OLTP path (Spark, CDC into an analytical store), or annotate it \
             `-- @path analytics` when it already runs there",
        ),
        Err(_) => f.help(
            "the query names no value a partition key could hold: give it one (a tenant, a user, a day) \
             and a table keyed by it, or move it off the OLTP path (`-- @path analytics`)",
        ),
    }
}

fn is_partition_key(c: &cqlmodel_schema::Column) -> bool {
    matches!(c.kind, cqlmodel_schema::ColumnKind::PartitionKey(_))
}

/// `SELECT ... FROM t` with no WHERE clause, or only token ranges: a listing or an export.
fn is_listing(select: &cqlmodel_cql::ast::Select) -> bool {
    select
        .where_clause
        .iter()
        .all(|r| matches!(r.kind, RelationKind::Token { .. }))
}
