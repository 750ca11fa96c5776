//! The last stage: the design checks itself. The schema and queries it wrote
//! are parsed, built and reviewed by `crates/review` exactly as `cqlmodel
//! review` would read DIR/schema.cql, DIR/queries.cql and DIR/stats.toml; every
//! finding (and any CQL that does not parse or build) is part of the design's
//! result, so a design its own review rejects is never a clean run.

use cqlmodel_diagnostics::{Severity, SourceFile, SourceMap};
use cqlmodel_review::{Attribute, Config, Provenance, ReviewInput, load_queries, review};
use cqlmodel_stats::Stats;
use serde::Serialize;

use crate::derive::{KeyPart, TableDesign};

/// One finding of the review of the design's own output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SelfFinding {
    /// `error`, `warning` or `info`, as the review reports it.
    pub severity: String,
    /// The review's rule code (`CQL…`), or `schema` / `queries` when the CQL
    /// itself does not parse or build.
    pub code: String,
    /// The rule's name, when a rule found it.
    pub rule: Option<String>,
    pub table: Option<String>,
    pub query: Option<String>,
    pub message: String,
}

impl SelfFinding {
    pub fn is_error(&self) -> bool {
        self.severity == "error"
    }

    fn problem(code: &str, message: String) -> Self {
        SelfFinding {
            severity: "error".into(),
            code: code.into(),
            rule: None,
            table: None,
            query: None,
            message,
        }
    }
}

/// What the design wrote, as the review reads it.
pub struct Output<'a> {
    pub keyspace: &'a str,
    pub schema_cql: &'a str,
    pub queries_cql: &'a str,
    pub stats: &'a Stats,
    /// The designed tables: which attribute each column holds, for the rules
    /// that would otherwise match columns by name and type.
    pub tables: &'a [TableDesign],
}

/// Which entity attribute each designed column holds (a column that copies an
/// attribute as is; a bucket, salt or counter column holds none).
pub fn provenance(keyspace: &str, tables: &[TableDesign]) -> Provenance {
    let mut out = Provenance::new();
    for t in tables {
        let table = format!("{keyspace}.{}", t.name);
        for c in &t.columns {
            if let KeyPart::Attr(attr) = &c.part {
                out.insert(&table, &c.name, Attribute::new(&attr.entity, &attr.column));
            }
        }
    }
    out
}

/// Reviews the design's own schema, queries and statistics.
pub fn review_output(out: &Output<'_>) -> Vec<SelfFinding> {
    let mut sources = SourceMap::new();
    let schema_file = sources.add(SourceFile::new("schema.cql", out.schema_cql.to_string()));
    let queries_file = sources.add(SourceFile::new("queries.cql", out.queries_cql.to_string()));
    let parsed = cqlmodel_cql::parse(out.schema_cql);
    let mut found: Vec<SelfFinding> = parsed
        .errors
        .iter()
        .map(|e| SelfFinding::problem("schema", format!("schema.cql does not parse: {e}")))
        .collect();
    // As `cqlmodel review` loads a schema file: views on (the design may choose one).
    let settings = cqlmodel_schema::Settings {
        materialized_views_enabled: true,
        ..cqlmodel_schema::Settings::default()
    };
    let build = cqlmodel_schema::build_schema_with(settings, schema_file, &parsed.statements);
    found.extend(
        build
            .errors
            .iter()
            .map(|e| SelfFinding::problem("schema", format!("Cassandra refuses schema.cql: {e}"))),
    );
    let parsed_q = cqlmodel_cql::parse(out.queries_cql);
    found.extend(
        parsed_q
            .errors
            .iter()
            .map(|e| SelfFinding::problem("queries", format!("queries.cql does not parse: {e}"))),
    );
    let (queries, diags) = load_queries(
        &build.schema,
        queries_file,
        &parsed_q,
        Some(out.keyspace),
        1,
    );
    found.extend(
        diags
            .iter()
            .filter(|x| x.severity == Severity::Error)
            .map(|x| SelfFinding::problem("queries", x.message.clone())),
    );
    let stats_text = cqlmodel_stats::to_toml(out.stats);
    let stats = cqlmodel_stats::load_stats(&stats_text, &build.schema).ok();
    let input = ReviewInput {
        schema: &build.schema,
        queries: &queries,
        sources: &sources,
        suppressions: &[],
        has_queries: true,
        stats: stats.as_ref().filter(|_| !out.stats.tables.is_empty()),
    };
    let config = Config {
        provenance: Some(provenance(out.keyspace, out.tables)),
        ..Config::default()
    };
    for d in review(&input, &config) {
        found.push(SelfFinding {
            severity: d.severity.as_str().into(),
            code: d.code.clone(),
            rule: d.name.clone(),
            table: d.table.clone(),
            query: d.query.clone(),
            message: d.message.clone(),
        });
    }
    found
}
