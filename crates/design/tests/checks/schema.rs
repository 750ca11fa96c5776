//! (a) and (b): the schema the design writes builds, and Cassandra accepts
//! every statement the design writes against it.

use cqlmodel_design::Design;
use cqlmodel_schema::Schema;
use cqlmodel_schema::access::analyze;

use super::{Defect, Problem};

pub(crate) const NAME_LENGTH: usize = 48;

/// (a) schema.cql parses and builds, one CQL table per designed table.
pub fn schema(d: &Design) -> (Option<Schema>, Vec<Problem>) {
    let text = d.schema_cql();
    let parsed = cqlmodel_cql::parse(&text);
    if !parsed.errors.is_empty() {
        let p = Problem::unknown(format!("schema.cql does not parse: {:?}", parsed.errors));
        return (None, vec![p]);
    }
    // A materialized view is the design's documented choice for a table written
    // rarely (it says views need `materialized_views_enabled: true`), as the
    // CLI loads schemas: Cassandra 5.0's defaults otherwise.
    let settings = cqlmodel_schema::Settings {
        materialized_views_enabled: true,
        ..cqlmodel_schema::Settings::default()
    };
    let build = cqlmodel_schema::build_schema_with(settings, 0, &parsed.statements);
    let mut problems: Vec<Problem> = build
        .errors
        .iter()
        .map(|e| {
            let m = e.to_string();
            // A view of a table whose name is too long fails on its base too.
            let long = m.contains("more than 48 characters")
                || d.tables
                    .iter()
                    .any(|t| t.name.len() > NAME_LENGTH && m.contains(&t.name));
            let defect = if long {
                Some(Defect::LongTableName)
            } else if m.contains("Duplicate column") {
                Some(Defect::DuplicateColumnName)
            } else {
                None
            };
            Problem::new(defect, format!("schema.cql does not build: {m}"))
        })
        .collect();
    let built: usize = build
        .schema
        .keyspaces
        .values()
        .map(|k| k.tables.len())
        .sum();
    if build.errors.is_empty() && built != d.tables.len() {
        problems.push(Problem::unknown(format!(
            "schema.cql builds {built} tables for the design's {}",
            d.tables.len()
        )));
    }
    (Some(build.schema), problems)
}

/// One CQL statement the design wrote: it parses alone and Cassandra accepts
/// it on `table`, without ALLOW FILTERING.
fn statement(
    schema: &Schema,
    designed: &[&str],
    keyspace: &str,
    table: &str,
    cql: &str,
    partitions: Option<u64>,
) -> Option<Problem> {
    let parsed = cqlmodel_cql::parse(cql);
    let Some(statement) = parsed.statements.first() else {
        return Some(Problem::unknown(format!("`{cql}` holds no statement")));
    };
    if !parsed.errors.is_empty() || parsed.statements.len() != 1 {
        return Some(Problem::unknown(format!(
            "`{cql}` does not parse as one statement: {:?}",
            parsed.errors
        )));
    }
    if schema.table(keyspace, table).is_none() {
        // A designed table that did not build is `schema`'s problem.
        return (!designed.contains(&table))
            .then(|| Problem::unknown(format!("`{cql}` runs on {table}, which the design lacks")));
    }
    let path = analyze(schema, statement, Some(keyspace));
    if let Some(e) = &path.error {
        let defect = if e.message.contains("when selecting only static columns") {
            Some(Defect::StaticOnlySliceRead)
        } else if e.message.contains("modifies only static columns") {
            Some(Defect::StaticUpdateWithClusteringKey)
        } else {
            None
        };
        return Some(Problem::new(
            defect,
            format!("`{cql}` is rejected: {}", e.message),
        ));
    }
    if path.needs_allow_filtering {
        return Some(Problem::unknown(format!("`{cql}` needs ALLOW FILTERING")));
    }
    let expected = format!("{keyspace}.{table}");
    if path.table.as_deref() != Some(expected.as_str()) {
        return Some(Problem::unknown(format!(
            "`{cql}` runs on {:?}, not on {expected}",
            path.table
        )));
    }
    if let (Some(designed), Some(counted)) = (partitions, path.partitions)
        && designed != counted
    {
        return Some(Problem::unknown(format!(
            "`{cql}` reads {counted} partitions; the design says {designed}"
        )));
    }
    None
}

/// The tables a read's moved statics are read from (one partition each).
fn static_holders(q: &cqlmodel_design::reads::QueryPlan) -> u64 {
    let mut holders: Vec<&str> = q
        .notes
        .iter()
        .filter(|n| n.contains("it is kept once there, not in every bucket"))
        .filter_map(|n| n.split("is read from `").nth(1)?.split('`').next())
        .collect();
    holders.sort_unstable();
    holders.dedup();
    holders.len() as u64
}

/// (b) every read and every write-path statement is accepted on its table, a
/// read touching as many partitions as the design says, and queries.cql parses.
pub fn statements(d: &Design, schema: &Schema) -> Vec<Problem> {
    let designed: Vec<&str> = d.tables.iter().map(|t| t.name.as_str()).collect();
    let mut problems = Vec::new();
    for q in &d.queries {
        if let (Some(cql), Some(table)) = (&q.cql, &q.table)
            && let Some(mut p) = statement(
                schema,
                &designed,
                &d.keyspace,
                table,
                cql,
                // The CQL runs once per bucket, salt or key value: each run
                // reads its share of the query's partitions. Statics kept in
                // their owner's table (not in every bucket) are one more
                // partition the read counts, read by another statement.
                q.partitions
                    .map(|p| p.saturating_sub(static_holders(q)) / q.statements.max(1)),
            )
        {
            p.message = format!("read {}: {}", q.name, p.message);
            problems.push(p);
        }
    }
    for w in &d.write_paths {
        for s in &w.statements {
            if let Some(mut p) = statement(schema, &designed, &d.keyspace, &s.table, &s.cql, None) {
                p.message = format!("write path {}: {}", w.name, p.message);
                problems.push(p);
            }
        }
    }
    // The per-key hybrid's own reads (the width before a write, the periods
    // before a page, a cold key's count) run on its bookkeeping tables.
    for b in d.per_key.iter().filter_map(|p| p.built.as_ref()) {
        for (table, cql) in [
            (&b.widths_table, &b.writer_read_cql),
            (&b.widths_table, &b.reader_read_cql),
            (&b.rows_table, &b.check_cql),
        ] {
            if let Some(mut p) = statement(schema, &designed, &d.keyspace, table, cql, Some(1)) {
                p.message = format!("per-key widths of {}: {}", b.widths_table, p.message);
                problems.push(p);
            }
        }
    }
    let parsed = cqlmodel_cql::parse(&d.queries_cql());
    if !parsed.errors.is_empty() {
        problems.push(Problem::unknown(format!(
            "queries.cql does not parse: {:?}",
            parsed.errors
        )));
    }
    problems
}
