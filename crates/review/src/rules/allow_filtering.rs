use cqlmodel_cql::ast::StatementKind;
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::access::AccessKind;

use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;

declare_rule! {
    /// ## What it does
    /// Finds queries that use `ALLOW FILTERING`.
    ///
    /// ## Evidence
    /// The query list and the schema: what the filter leaves unrestricted decides
    /// the severity (a whole table, one partition, a full key). `@path
    /// admin|analytics|migration` marks a query that runs off the request path.
    ///
    /// ## Why is this bad?
    /// `ALLOW FILTERING` lets Cassandra read rows it cannot locate by key and
    /// discard the ones that do not match. Across partitions that is a scan of
    /// every node's data for each execution: latency grows with the table, not
    /// with the result. It exists for ad-hoc exploration, not for application paths.
    ///
    /// The severity follows the risk: across partitions it is an error; confined
    /// to one partition restricted by `=` it is a warning (the partition bounds the
    /// work); where nothing is filtered at all (the full primary key, or a read
    /// that does not need it) it is redundant and reported as info.
    ///
    /// ## Example
    /// ```cql
    /// SELECT * FROM iot.temp_by_device WHERE temp > 30 ALLOW FILTERING;
    /// ```
    ///
    /// ## Use instead
    /// A table keyed by what the query restricts, written alongside the base table:
    /// ```cql
    /// CREATE TABLE iot.alerts_by_day (day date, device_id text, ts timestamp, temp double,
    ///     PRIMARY KEY (day, device_id, ts));
    /// SELECT * FROM iot.alerts_by_day WHERE day = ?;
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "SELECT: Allowing filtering"
    /// - DataStax, "ALLOW FILTERING explained"
    pub static ALLOW_FILTERING = {
        code: "CQL002",
        name: "allow-filtering",
        severity: Error,
        summary: "A query uses ALLOW FILTERING",
        check: check,
    };
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    for q in cx.queries {
        let StatementKind::Select(select) = &q.statement.kind else {
            continue;
        };
        if !select.allow_filtering || q.path.error.is_some() {
            continue;
        }
        let (severity, message) = match (q.path.kind, q.path.needs_allow_filtering) {
            (_, false) => (
                Severity::Info,
                "ALLOW FILTERING is redundant here: the query filters nothing".to_string(),
            ),
            (AccessKind::SinglePartition, true) => (
                Severity::Warning,
                "ALLOW FILTERING inside one partition: every row of the partition is read and filtered".to_string(),
            ),
            (AccessKind::MultiPartition, true) => (
                Severity::Warning,
                format!(
                    "ALLOW FILTERING over {} partitions: every row of each is read and filtered",
                    q.path.partitions.map_or_else(|| "several".to_string(), |p| p.to_string())
                ),
            ),
            _ => (
                Severity::Error,
                "ALLOW FILTERING across partitions: each execution scans the whole table".to_string(),
            ),
        };
        let mut f = out
            .new_finding(message)
            .severity(severity)
            .at(q.file, q.span().range(), q.span().start, "filters rows")
            .query(q.name.clone());
        if let Some(t) = &q.path.table {
            f = f.table(t.clone());
        }
        if severity != Severity::Info {
            f = f.help("serve the query from a table whose PRIMARY KEY it restricts (see `unserved-query` for the table)");
        }
        out.push(f);
    }
}
