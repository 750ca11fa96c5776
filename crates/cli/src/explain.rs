//! `cqlmodel explain`: each statement's access path against a schema.

use std::path::PathBuf;

use cqlmodel_cql::ast::Span;
use cqlmodel_diagnostics::{Diagnostic, SourceFile, SourceMap};
use cqlmodel_schema::access::{AccessKind, AccessPath};
use serde::Serialize;

use crate::input::{InputError, add_source, read_source};
use crate::schema_load::{load_schema_in, query_file_diagnostics};
use cqlmodel_review::annotations::annotations_of;
use cqlmodel_review::{Query, QueryReader};

/// Where the statements to explain come from.
pub enum Queries {
    /// `--query "CQL"`.
    Inline(String),
    /// `--queries FILE`.
    File(PathBuf),
}

/// One explained statement.
#[derive(Debug)]
pub struct Explained {
    /// The statement as canonical CQL.
    pub statement: String,
    /// The `@name` annotation, if any.
    pub name: Option<String>,
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub path: AccessPath,
    pub file_index: usize,
    pub span: Span,
}

/// The JSON form of one explained statement (`--format json`).
#[derive(Debug, Serialize)]
pub struct ExplainedJson<'a> {
    pub statement: &'a str,
    pub name: Option<&'a str>,
    #[serde(rename = "type")]
    pub statement_type: cqlmodel_schema::access::StatementType,
    pub kind: AccessKind,
    pub table: Option<&'a str>,
    pub partitions: Option<u64>,
    pub filtering: bool,
    pub needs_allow_filtering: bool,
    pub index: Option<&'a str>,
    pub reversed: bool,
    pub clustering: Option<&'a cqlmodel_schema::access::ClusteringSlice>,
    pub limit: Option<u64>,
    pub per_partition_limit: Option<u64>,
    pub tables: &'a [String],
    pub warnings: &'a [String],
    /// Cassandra's message, or null.
    pub error: Option<&'a str>,
    pub file: &'a str,
    pub line: usize,
    pub column: usize,
    /// Where the error points (1-based line and column), when it points inside the statement.
    pub error_line: Option<usize>,
    pub error_column: Option<usize>,
}

impl Explained {
    pub fn to_json<'a>(&'a self, sources: &SourceMap) -> ExplainedJson<'a> {
        let p = &self.path;
        let error_pos = p
            .error
            .as_ref()
            .filter(|e| !e.span.is_empty())
            .and_then(|e| {
                sources
                    .get(self.file_index)
                    .map(|f| f.line_col(e.span.start as usize))
            });
        ExplainedJson {
            statement: &self.statement,
            name: self.name.as_deref(),
            statement_type: p.statement,
            kind: p.kind,
            table: p.table.as_deref(),
            partitions: p.partitions,
            filtering: p.filtering,
            needs_allow_filtering: p.needs_allow_filtering,
            index: p.index.as_deref(),
            reversed: p.reversed,
            clustering: p.clustering.as_ref(),
            limit: p.limit,
            per_partition_limit: p.per_partition_limit,
            tables: &p.tables,
            warnings: &p.warnings,
            error: p.error.as_ref().map(|e| e.message.as_str()),
            file: &self.file,
            line: self.line,
            column: self.column,
            error_line: error_pos.map(|(l, _)| l),
            error_column: error_pos.map(|(_, c)| c),
        }
    }
}

/// The outcome of `explain`: the statements, and the problems with the input.
pub struct Report {
    pub explained: Vec<Explained>,
    /// Parse and schema errors: problems with the input (exit 2).
    pub input_errors: Vec<Diagnostic>,
    pub sources: SourceMap,
}

/// The statements explained, by outcome: what the exit code and the text's
/// last line need once the statements themselves are gone.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub statements: usize,
    /// Statements Cassandra rejects.
    pub rejected: usize,
    /// Of those, the ones whose error is the input's (an unknown table, a
    /// mistyped literal).
    pub input_rejected: usize,
}

impl Tally {
    /// Counts one explained statement.
    pub fn count(&mut self, e: &Explained) {
        self.statements += 1;
        if let Some(err) = &e.path.error {
            self.rejected += 1;
            if err.is_input_error() {
                self.input_rejected += 1;
            }
        }
    }

    /// 2 on input errors (including statements naming unknown objects or
    /// mistyped literals), 1 when a statement is invalid, 0 otherwise.
    pub fn exit_code(&self, input_errors: &[Diagnostic]) -> i32 {
        let input_problem = input_errors
            .iter()
            .any(|d| d.severity == cqlmodel_diagnostics::Severity::Error)
            || self.input_rejected > 0;
        if input_problem {
            2
        } else if self.rejected > 0 {
            1
        } else {
            0
        }
    }
}

/// What is left of an explain run once each statement was handed out.
pub struct Ending {
    /// Parse and schema errors: problems with the input (exit 2).
    pub input_errors: Vec<Diagnostic>,
    pub sources: SourceMap,
    pub tally: Tally,
}

impl Ending {
    /// As [`Tally::exit_code`], with the input errors it met.
    pub fn exit_code(&self) -> i32 {
        self.tally.exit_code(&self.input_errors)
    }
}

/// Runs explain over the schema files and the queries.
pub fn explain(
    schema_paths: &[PathBuf],
    queries: &Queries,
    keyspace: Option<&str>,
) -> Result<Report, InputError> {
    let mut explained = Vec::new();
    let ending = explain_each(schema_paths, queries, keyspace, |e, _| explained.push(e))?;
    Ok(Report {
        explained,
        input_errors: ending.input_errors,
        sources: ending.sources,
    })
}

/// Runs explain over the schema files and the queries, handing each
/// statement to `each` (with the files read, for its position) as soon as it
/// is explained: the queries file is parsed statement by statement and no
/// syntax tree outlives its statement (330,000 queries held 947 MB of them).
pub fn explain_each(
    schema_paths: &[PathBuf],
    queries: &Queries,
    keyspace: Option<&str>,
    mut each: impl FnMut(Explained, &SourceMap),
) -> Result<Ending, InputError> {
    let mut sources = SourceMap::new();
    let mut loaded = load_schema_in(schema_paths, &mut sources, keyspace)?;
    let mut input_errors = std::mem::take(&mut loaded.diagnostics);

    let query_file = match queries {
        Queries::Inline(text) => add_source(
            "<query>".to_string(),
            text.clone().into_bytes(),
            &mut sources,
        )?,
        Queries::File(path) => read_source(path, &mut sources)?,
    };
    // A schema in another language (nodetool output, SQL, Python) is the one
    // thing to say: explaining the queries against no schema would only add
    // "no keyspace" errors to it.
    let wrong_schema = input_errors.iter().any(|d| d.code == "wrong-language");
    let session_keyspace = loaded.session_keyspace(keyspace);
    let mut reader = QueryReader::new(&loaded.schema, query_file, session_keyspace.as_deref(), 1);
    let mut tally = Tally::default();
    let empty = SourceFile::new(String::new(), String::new());
    let file = sources.get(query_file).unwrap_or(&empty);
    let parsed = cqlmodel_cql::parse_each_commented(&file.text, |stmt, errors, comments| {
        if wrong_schema {
            return;
        }
        let Some(q) = reader.read(stmt, annotations_of(comments), errors) else {
            return;
        };
        let e = explained(q, file);
        tally.count(&e);
        each(e, &sources);
    });
    input_errors.extend(query_file_diagnostics(
        parsed.statements.len(),
        &parsed.errors,
        &file.text,
        query_file,
    ));
    if !wrong_schema {
        input_errors.extend(reader.finish());
    }
    let failed = input_errors
        .iter()
        .any(|d| d.severity == cqlmodel_diagnostics::Severity::Error);
    if tally.statements == 0 && !failed {
        input_errors.push(
            Diagnostic::error(
                "nothing-to-explain",
                "the queries hold no SELECT, INSERT, UPDATE, DELETE or BATCH statement: nothing to explain",
            )
            .with_file(query_file),
        );
    }
    Ok(Ending {
        input_errors,
        sources,
        tally,
    })
}

/// What explain says of `q`, a query of `file`: the syntax tree is printed
/// and dropped here.
fn explained(q: Query, file: &SourceFile) -> Explained {
    let (line, column) = file.line_col(q.span().start as usize);
    Explained {
        statement: q.statement.to_string(),
        name: q.annotations.name().map(str::to_string),
        file: file.name.clone(),
        line,
        column,
        span: q.span(),
        file_index: q.file,
        path: q.path,
    }
}

/// The diagnostic of an invalid statement, pointing at the part Cassandra objects to.
pub fn statement_diagnostic(e: &Explained) -> Option<Diagnostic> {
    let err = e.path.error.as_ref()?;
    let span = if err.span.is_empty() {
        e.span
    } else {
        err.span
    };
    let code = if err.is_input_error() {
        "input"
    } else {
        "invalid-query"
    };
    let mut d = Diagnostic::error(code, err.message.clone())
        .with_file(e.file_index)
        .with_primary(span.range(), "Cassandra rejects this");
    if let Some(t) = &e.path.table {
        d = d.with_table(t.clone());
    }
    if let Some(n) = &e.name {
        d = d.with_query(n.clone());
    }
    if e.path.needs_allow_filtering {
        d = d.with_help(
            "the query reads and discards rows Cassandra cannot locate by key: design a table whose PRIMARY KEY serves it",
        );
    }
    Some(d)
}

/// A one-line summary of a valid access path, for people.
pub fn summary(path: &AccessPath) -> String {
    let mut parts: Vec<String> = Vec::new();
    parts.push(
        match path.kind {
            AccessKind::SinglePartition => "single-partition",
            AccessKind::MultiPartition => "multi-partition",
            AccessKind::RangeScan => "range-scan",
            AccessKind::Invalid => "invalid",
        }
        .to_string(),
    );
    if let Some(t) = &path.table {
        parts.push(format!("table {t}"));
    }
    match path.partitions {
        Some(1) => parts.push("1 partition".into()),
        Some(n) => parts.push(format!("{n} partitions")),
        None if path.kind == AccessKind::MultiPartition => {
            parts.push("partitions unknown (bound IN list)".into())
        }
        None if path.kind == AccessKind::RangeScan => parts.push("all token ranges".into()),
        None => {}
    }
    if let Some(c) = &path.clustering {
        if c.single_row {
            parts.push("one row".into());
        } else if let Some(r) = &c.range {
            parts.push(format!("clustering range on {r}"));
        } else if !c.prefix.is_empty() {
            parts.push(format!("clustering prefix ({})", c.prefix.join(", ")));
        }
    }
    if let Some(i) = &path.index {
        parts.push(format!("index {i}"));
    }
    if path.filtering {
        parts.push("filters rows".into());
    }
    if path.needs_allow_filtering {
        parts.push("needs ALLOW FILTERING".into());
    }
    if path.reversed {
        parts.push("reversed".into());
    }
    if let Some(l) = path.limit {
        parts.push(format!("limit {l}"));
    }
    if let Some(l) = path.per_partition_limit {
        parts.push(format!("per partition limit {l}"));
    }
    if path.tables.len() > 1 {
        parts.push(format!("tables {}", path.tables.join(", ")));
    }
    parts.join(" · ")
}
