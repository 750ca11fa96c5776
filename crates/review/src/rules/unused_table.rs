use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;
use crate::query::Query;

declare_rule! {
    /// ## What it does
    /// Finds tables (not materialized views) that no `SELECT` of the query list reads.
    /// A table that the list writes but never reads is reported too, and the finding
    /// names its writers: its data is stored, compacted and repaired for nobody. A base
    /// table whose view is read counts as read. Without a query list the rule is silent.
    ///
    /// ## Evidence
    /// The query list. Without one the rule is silent.
    ///
    /// ## Why is this bad?
    /// In a query-driven model every table exists for a query. A table nobody reads is
    /// a leftover of an earlier design, a denormalized copy whose reader was removed,
    /// or a read the query list forgot; either way each write to it costs commit log,
    /// compaction and repair work, and the dual-write code that keeps it in step is
    /// code to maintain. It is info: another service, an export or an analytics job
    /// may read it outside the list.
    ///
    /// ## Example
    /// ```cql
    /// CREATE TABLE shop.orders_by_status (status text, order_id text, PRIMARY KEY (status, order_id));
    /// -- queries.cql writes it on every order, reads it nowhere
    /// INSERT INTO shop.orders_by_status (status, order_id) VALUES (?, ?);
    /// ```
    ///
    /// ## Use instead
    /// Add the read that needs it to the query list (`-- @path analytics` for an
    /// export), or stop writing the table and drop it:
    /// ```cql
    /// DROP TABLE shop.orders_by_status;
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Data modeling: defining application queries"
    pub static UNUSED_TABLE = {
        code: "CQL021",
        name: "unused-table",
        severity: Info,
        summary: "A table that no query of the list reads",
        check: check,
    };
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    if !cx.has_queries {
        return;
    }
    let reads = |name: &str| {
        cx.queries_on_name(name)
            .any(|q| q.is_read() && q.path.table.as_deref() == Some(name))
    };
    for table in cx.tables().filter(|t| !t.is_view()) {
        let name = table.qualified_name();
        // Views are listed by bare name (same keyspace as their base).
        let view_read = table.views.iter().any(|v| {
            if v.contains('.') {
                reads(v)
            } else {
                reads(&format!("{}.{v}", table.keyspace))
            }
        });
        if reads(&name) || view_read {
            continue;
        }
        let writers: Vec<&Query> = cx
            .queries
            .iter()
            .filter(|q| {
                q.is_write()
                    && (q.path.table.as_deref() == Some(name.as_str())
                        || q.path.tables.contains(&name))
            })
            .collect();
        let message = if writers.is_empty() {
            format!("no query of the list reads or writes `{name}`")
        } else {
            format!("no query of the list reads `{name}`: it is written, never read")
        };
        let mut f = out
            .new_finding(message)
            .at(
                table.origin.file,
                table.origin.span.range(),
                table.origin.span.start,
                "never read",
            )
            .table(name.clone());
        if !writers.is_empty() {
            let names: Vec<String> = writers.iter().map(|q| format!("`{}`", q.name)).collect();
            f = f.note(format!(
                "written by {}: every write costs commit log, compaction and repair work for data nobody reads",
                crate::listing::capped(&names)
            ));
        }
        f = f.help(format!(
            "add the query that reads it to the list (`-- @path analytics` for an export or a job), or stop writing \
             it and `DROP TABLE {name};`"
        ));
        out.push(f);
    }
}
