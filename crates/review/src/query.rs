//! The application's query list: the statements it runs, each named and
//! annotated (`-- @name feed_page @rate 2000/s @cl LOCAL_QUORUM`), with the
//! access path Cassandra would take.

use cqlmodel_cql::ast::{Span, Statement, StatementKind};
use cqlmodel_diagnostics::Diagnostic;
use cqlmodel_schema::Schema;
use cqlmodel_schema::access::{AccessPath, analyze};

use crate::annotations::{Annotations, annotations_for};

/// Consistency levels a query may be annotated with.
pub const CONSISTENCY_LEVELS: &[&str] = &[
    "ANY",
    "ONE",
    "TWO",
    "THREE",
    "QUORUM",
    "ALL",
    "LOCAL_QUORUM",
    "EACH_QUORUM",
    "SERIAL",
    "LOCAL_SERIAL",
    "LOCAL_ONE",
];

/// One statement of the query list.
#[derive(Debug, Clone)]
pub struct Query {
    /// 1-based position among the list's statements.
    pub ordinal: usize,
    /// The `@name`, else `Q<ordinal>`.
    pub name: String,
    pub statement: Statement,
    pub file: usize,
    pub annotations: Annotations,
    /// Executions per second (`@rate 2000/s`, `120/min`, `5/h`, `1000/day`).
    pub rate: Option<f64>,
    /// `@cl LOCAL_QUORUM`.
    pub consistency: Option<String>,
    /// `@page 50`; `@page 0` says the application turns paging off.
    pub page_size: Option<u64>,
    pub path: AccessPath,
}

impl Query {
    pub fn span(&self) -> Span {
        self.statement.span
    }

    pub fn is_read(&self) -> bool {
        matches!(self.statement.kind, StatementKind::Select(_))
    }

    pub fn is_write(&self) -> bool {
        matches!(
            self.statement.kind,
            StatementKind::Insert(_)
                | StatementKind::Update(_)
                | StatementKind::Delete(_)
                | StatementKind::Batch(_)
        )
    }
}

/// Reads the statements of a parsed query file. `USE` changes the session keyspace;
/// schema statements are skipped with a warning. Annotation errors are diagnostics.
pub fn load_queries(
    schema: &Schema,
    file: usize,
    parsed: &cqlmodel_cql::ParseResult,
    keyspace: Option<&str>,
    first_ordinal: usize,
) -> (Vec<Query>, Vec<Diagnostic>) {
    let spans: Vec<Span> = parsed.statements.iter().map(|s| s.span).collect();
    // Annotations of a statement that did not parse stay with it.
    let annotations = annotations_for(&parsed.statement_comments(), &spans);
    let mut session = keyspace.map(str::to_string);
    let mut queries = Vec::new();
    let mut diagnostics = Vec::new();
    let mut ordinal = first_ordinal;
    // Names seen so far: a set, since a list of 50,000 queries makes a linear
    // search per query quadratic.
    let mut names: std::collections::HashSet<String> = std::collections::HashSet::new();
    for (stmt, ann) in parsed.statements.iter().zip(annotations) {
        match &stmt.kind {
            StatementKind::Use(ks) => {
                session = Some(ks.value.clone());
                continue;
            }
            StatementKind::Select(_)
            | StatementKind::Insert(_)
            | StatementKind::Update(_)
            | StatementKind::Delete(_)
            | StatementKind::Batch(_) => {}
            _ => {
                diagnostics.push(
                    Diagnostic::warning(
                        "not-a-query",
                        "only SELECT, INSERT, UPDATE, DELETE and BATCH belong in a query list",
                    )
                    .with_file(file)
                    .with_primary(stmt.span.range(), "skipped"),
                );
                continue;
            }
        }
        let annotation_error = |message: String| {
            Diagnostic::error("annotation", message)
                .with_file(file)
                .with_primary(stmt.span.range(), "annotated statement")
        };
        let rate = match ann.get("rate").map(parse_rate) {
            Some(Err(e)) => {
                diagnostics.push(annotation_error(e));
                None
            }
            Some(Ok(r)) => Some(r),
            None => None,
        };
        let consistency = ann.get("cl").map(|c| c.to_ascii_uppercase());
        if let Some(cl) = &consistency
            && !CONSISTENCY_LEVELS.contains(&cl.as_str())
        {
            diagnostics.push(annotation_error(format!(
                "unknown consistency level `{cl}` in @cl (expected one of {})",
                CONSISTENCY_LEVELS.join(", ")
            )));
        }
        let page_size = match ann.get("page").map(|p| p.parse::<u64>()) {
            Some(Ok(p)) => Some(p),
            Some(_) => {
                diagnostics.push(annotation_error(format!(
                    "@page takes a whole number (0: paging off), got `{}`",
                    ann.get("page").unwrap_or_default()
                )));
                None
            }
            None => None,
        };
        let name = match ann.name() {
            Some(n) => n.to_string(),
            None => format!("Q{ordinal}"),
        };
        if !names.insert(name.clone()) {
            diagnostics.push(annotation_error(format!("two queries are named `{name}`")));
        }
        let path = analyze(schema, stmt, session.as_deref());
        // DSE Search's `solr_query` pseudo-column is DataStax Enterprise, not Apache
        // Cassandra: the statement is skipped with an info, not judged.
        if path
            .error
            .as_ref()
            .is_some_and(|e| e.message.starts_with("Undefined column name solr_query "))
        {
            diagnostics.push(
                Diagnostic::info(
                    "dse-only",
                    "`solr_query` is a DataStax Enterprise pseudo-column: statement skipped",
                )
                .with_file(file)
                .with_primary(stmt.span.range(), "skipped"),
            );
            continue;
        }
        queries.push(Query {
            ordinal,
            name,
            statement: stmt.clone(),
            file,
            annotations: ann,
            rate,
            consistency,
            page_size,
            path,
        });
        ordinal += 1;
    }
    diagnostics.extend(crate::annotation_check::check_annotations(&queries));
    (queries, diagnostics)
}

/// `2000/s`, `2000`, `120/min`, `5/h`, `1000/day`, `2k/s` → executions per second.
pub fn parse_rate(text: &str) -> Result<f64, String> {
    let (number, unit) = text.split_once('/').unwrap_or((text, "s"));
    let number = number.trim();
    let (digits, multiplier) = match number.char_indices().last() {
        Some((i, 'k' | 'K')) => (number.get(..i).unwrap_or(""), 1e3),
        Some((i, 'M')) => (number.get(..i).unwrap_or(""), 1e6),
        _ => (number, 1.0),
    };
    let value: f64 = digits.parse().map_err(|_| {
        format!("@rate takes a number per unit such as `2000/s` or `5/min`, got `{text}`")
    })?;
    if !value.is_finite() || value < 0.0 {
        return Err(format!("@rate must be a non-negative number, got `{text}`"));
    }
    let per = match unit.trim() {
        "s" | "sec" | "second" => 1.0,
        "m" | "min" | "minute" => 60.0,
        "h" | "hour" => 3600.0,
        "d" | "day" => 86_400.0,
        other => {
            return Err(format!(
                "@rate unit must be s, min, h or day, got `{other}`"
            ));
        }
    };
    Ok(value * multiplier / per)
}

#[cfg(test)]
mod tests {
    use super::parse_rate;

    #[test]
    fn rates_in_every_unit() {
        assert_eq!(parse_rate("2000/s"), Ok(2000.0));
        assert_eq!(parse_rate("2000"), Ok(2000.0));
        assert_eq!(parse_rate("120/min"), Ok(2.0));
        assert_eq!(parse_rate("2k/s"), Ok(2000.0));
        assert_eq!(parse_rate("86400/day"), Ok(1.0));
        assert!(parse_rate("fast").is_err());
        assert!(parse_rate("10/week").is_err());
        assert!(parse_rate("-1/s").is_err());
    }
}
