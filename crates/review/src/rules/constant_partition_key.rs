use cqlmodel_cql::ast::{
    InsertValues, Operator, Relation, RelationKind, Statement, StatementKind, Term, TermKind,
};
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::{Column, Table};

use super::bucketing::{DEFAULT_SALT_BUCKETS, salted_table};
use super::column_roles::{bounds_partition, is_time_type};
use super::key_facts::{QueryIndex, column_site, sets_ttl};
use super::query_facts::{single_statements, statement_table, write_load};
use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;
use crate::query::Query;
use crate::table_hints::ttl_hint;

declare_rule! {
    /// ## What it does
    /// Finds partition-key columns that every statement of the query list on a
    /// table binds to the same literal (`WHERE partition = 'all'`, `bucket = 0`,
    /// `INSERT ... VALUES ('global', ...)`), when the rest of the key does not
    /// spread the rows (nothing, or only a time bucket). The table is then one
    /// partition (or one per time bucket).
    ///
    /// - a warning when the table only grows there: the query list inserts into
    ///   it and nothing expires the rows (no `default_time_to_live`, no TTL hint,
    ///   not `USING TTL` on every write), or it is written at
    ///   `high_rate_per_second` or more;
    /// - info otherwise: a constant key over a small registry (tens to thousands
    ///   of rows, listed in one read) is a known, deliberate pattern.
    ///
    /// ## Evidence
    /// The query list only (the literals the statements bind, INSERTs, `USING
    /// TTL`, `@rate`); without it the rule is silent. A TTL the code sets per
    /// write: `-- @ttl 30d` above the CREATE TABLE or `[tables."ks.t"] ttl` in
    /// `cqlmodel.toml`.
    ///
    /// ## Why is this bad?
    /// A partition lives on RF replicas and is read, compacted and repaired as a
    /// unit. With one value for the key, the whole table is one partition: every
    /// request goes to the same three nodes whatever the cluster's size, and a
    /// table that keeps growing passes ~100 MB or 100,000 rows in that one
    /// partition.
    ///
    /// ## Example
    /// ```cql
    /// CREATE TABLE app.events (scope text, ts timeuuid, body text, PRIMARY KEY (scope, ts));
    /// INSERT INTO app.events (scope, ts, body) VALUES ('all', now(), ?);
    /// SELECT * FROM app.events WHERE scope = 'all' LIMIT 100;
    /// ```
    ///
    /// ## Use instead
    /// A key the rows really have (a tenant, a user, a device), or a time
    /// bucket and a salt that the readers enumerate:
    /// ```cql
    /// CREATE TABLE app.events (day date, bucket int, ts timeuuid, body text,
    ///     PRIMARY KEY ((day, bucket), ts));
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Data modeling: Partitions" (spread data evenly, bound partitions)
    pub static CONSTANT_PARTITION_KEY = {
        code: "CQL022",
        name: "constant-partition-key",
        severity: Warning,
        summary: "A partition-key column every query binds to the same literal (one partition for the table)",
        check: check,
    };
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    if !cx.has_queries {
        return;
    }
    let index = &cx.index;
    for table in cx.tables().filter(|t| !t.is_view()) {
        let name = table.qualified_name();
        let statements: Vec<(&Query, &Statement)> = cx
            .queries_on(table)
            .filter(|q| q.path.error.is_none())
            .flat_map(|q| single_statements(q).into_iter().map(move |s| (q, s)))
            .filter(|(q, s)| statement_table(q, s).as_deref() == Some(name.as_str()))
            .collect();
        if statements.is_empty() {
            continue;
        }
        let mut constants: Vec<(&Column, String)> = Vec::new();
        let mut spreads = false;
        for column in table.partition_key() {
            match constant_of(column, &statements) {
                Some(literal) => constants.push((column, literal)),
                None if is_time_type(&column.ty) || bounds_partition(column) => {}
                None => spreads = true,
            }
        }
        if constants.is_empty() || spreads {
            continue;
        }
        report(cx, index, table, &statements, &constants, out);
    }
}

/// The literal every statement binds `column` to, when they all bind the same one.
fn constant_of(column: &Column, statements: &[(&Query, &Statement)]) -> Option<String> {
    let mut seen: Option<String> = None;
    for (_, stmt) in statements {
        let bound = binding(stmt, &column.name)?;
        let TermKind::Literal(_) = &bound.kind else {
            return None;
        };
        let text = bound.to_string();
        match &seen {
            Some(s) if *s != text => return None,
            _ => seen = Some(text),
        }
    }
    seen
}

/// The term a statement binds `column` to by `=` (WHERE) or in its VALUES.
fn binding<'s>(stmt: &'s Statement, column: &str) -> Option<&'s Term> {
    let eq = |relations: &'s [Relation]| {
        relations.iter().find_map(|r| match &r.kind {
            RelationKind::Column {
                column: c,
                op: Operator::Eq,
                value,
            } if c.value == column => Some(value),
            _ => None,
        })
    };
    match &stmt.kind {
        StatementKind::Select(s) => eq(&s.where_clause),
        StatementKind::Update(u) => eq(&u.where_clause),
        StatementKind::Delete(d) => eq(&d.where_clause),
        StatementKind::Insert(i) => match &i.values {
            InsertValues::Values { columns, values } => columns
                .iter()
                .position(|c| c.value == column)
                .and_then(|p| values.get(p)),
            InsertValues::Json { .. } => None,
        },
        _ => None,
    }
}

fn report(
    cx: &Context<'_>,
    index: &QueryIndex<'_>,
    table: &Table,
    statements: &[(&Query, &Statement)],
    constants: &[(&Column, String)],
    out: &mut Findings,
) {
    let name = table.qualified_name();
    let bound = constants
        .iter()
        .map(|(c, v)| format!("`{}` = {v}", c.name))
        .collect::<Vec<_>>()
        .join(", ");
    let bucketed = table.partition_key().count() > constants.len();
    let scope = if bucketed {
        "one partition per time bucket holds the whole table"
    } else {
        "the whole table is one partition"
    };
    let inserts: Vec<&str> = statements
        .iter()
        .filter(|(_, s)| matches!(s.kind, StatementKind::Insert(_)))
        .map(|(q, _)| q.name.as_str())
        .collect();
    let writes = index.writes_to(&name);
    let expires = table.options.default_time_to_live.is_some_and(|t| t > 0)
        || ttl_hint(cx.config, cx.sources, table).is_some()
        || (!writes.is_empty() && writes.iter().all(|(_, s)| sets_ttl(s)));
    let rate = write_load(cx, &name).rate;
    let high = cx.config.thresholds.high_rate_per_second;
    let (severity, why) = if !inserts.is_empty() && !expires {
        (
            Severity::Warning,
            format!(
                "the query list inserts rows ({}) and nothing expires them: the one partition only grows",
                crate::listing::capped(&dedup(&inserts))
            ),
        )
    } else if rate >= high {
        (
            Severity::Warning,
            format!("written {rate}/s, all on the same RF replicas"),
        )
    } else {
        (
            Severity::Info,
            "fine while the table stays a small registry (tens to thousands of rows read in one go); a problem if it grows or gets busy (a question, not a finding)".to_string(),
        )
    };
    let first = constants.first().map(|(c, _)| *c);
    let (file, span, start) = match first {
        Some(c) => column_site(table, c),
        None => (
            table.origin.file,
            table.origin.span.range(),
            table.origin.span.start,
        ),
    };
    let users: Vec<&str> = statements.iter().map(|(q, _)| q.name.as_str()).collect();
    let mut f = out
        .new_finding(format!(
            "every statement on `{name}` binds {bound}: {scope}"
        ))
        .severity(severity)
        .at(file, span, start, "always the same value")
        .table(name.clone())
        .note(format!("statements: {}", crate::listing::capped(&dedup(&users))))
        .note(why)
        .note("a partition lives on RF replicas and is read, compacted and repaired whole: past ~100 MB or 100,000 rows it slows every read of it");
    if severity != Severity::Info {
        let (sketch, salt) = salted_table(table, DEFAULT_SALT_BUCKETS, None);
        f = f
            .help(format!(
                "give the rows a key they really have (a tenant, a user, a time bucket); or spread them with a salt that readers enumerate (`{salt} IN (0, ..., {})`)",
                DEFAULT_SALT_BUCKETS - 1
            ))
            .fix(
                format!("salt the partition key with {DEFAULT_SALT_BUCKETS} buckets (a new table: a primary key cannot be altered)"),
                Some(sketch.cql()),
            );
    }
    out.push(f);
}

fn dedup<'a>(names: &[&'a str]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for n in names {
        if !out.contains(n) {
            out.push(n);
        }
    }
    out
}
