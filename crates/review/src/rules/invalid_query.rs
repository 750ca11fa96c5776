use cqlmodel_diagnostics::Severity;

use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;

declare_rule! {
    /// ## What it does
    /// Reports every statement of the query list that Cassandra would reject,
    /// with Cassandra's own message, including reads that need `ALLOW FILTERING`
    /// and do not say so.
    ///
    /// ## Evidence
    /// Certain: the query list, checked against the schema with Cassandra 5.0's
    /// restriction rules and messages. An error means Cassandra rejects the
    /// statement. Nothing more is needed; without a query list the rule is silent.
    ///
    /// ## Why is this bad?
    /// The statement fails at run time with an `InvalidRequest`: the application
    /// path it belongs to does not work. The message is the one Cassandra 5.0
    /// returns (see `cqlmodel explain` and `docs/research/`).
    ///
    /// ## Example
    /// ```cql
    /// CREATE TABLE iot.temp_by_device (device_id text, day date, ts timestamp, temp double,
    ///     PRIMARY KEY ((device_id, day), ts));
    /// SELECT * FROM iot.temp_by_device WHERE device_id = ?;  -- day is missing
    /// ```
    ///
    /// ## Use instead
    /// Restrict the whole partition key, or add a table whose key the query restricts:
    /// ```cql
    /// SELECT * FROM iot.temp_by_device WHERE device_id = ? AND day = ?;
    /// ```
    ///
    /// ## References
    /// - Cassandra 5.0 `StatementRestrictions`, `SelectStatement`, `ModificationStatement`
    pub static INVALID_QUERY = {
        code: "CQL001",
        name: "invalid-query",
        severity: Error,
        summary: "A statement Cassandra would reject",
        check: check,
    };
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    for q in cx.queries {
        let Some(err) = &q.path.error else { continue };
        let span = if err.span.is_empty() {
            q.span()
        } else {
            err.span
        };
        let mut f = out
            .new_finding(err.message.clone())
            .at(
                q.file,
                span.range(),
                q.span().start,
                "Cassandra rejects this",
            )
            .query(q.name.clone())
            .severity(Severity::Error);
        if let Some(t) = &q.path.table {
            f = f.table(t.clone());
        }
        if q.path.needs_allow_filtering {
            f = f.help(
                "design a table whose PRIMARY KEY the query restricts (see `unserved-query`)",
            );
        }
        out.push(f);
    }
}
