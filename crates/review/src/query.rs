//! The application's query list: the statements it runs, each named and
//! annotated (`-- @name feed_page @rate 2000/s @cl LOCAL_QUORUM`), with the
//! access path Cassandra would take.

use cqlmodel_cql::ast::{Span, Statement, StatementKind};
use cqlmodel_diagnostics::Diagnostic;
use cqlmodel_schema::Schema;
use cqlmodel_schema::access::{AccessPath, analyze};

use crate::annotation_check::{Annotated, QueryNames, after_warning, own_warnings};
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

/// Where a statement's consistency level comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LevelSource {
    /// An annotation on the statement (`@cl X`, `@serial X`).
    Annotation,
    /// The last cqlsh `CONSISTENCY X` / `SERIAL CONSISTENCY X` line before it.
    Shell,
}

impl LevelSource {
    /// Where the level was set, as a finding says it.
    pub fn words(self, serial: bool) -> &'static str {
        match (self, serial) {
            (LevelSource::Annotation, false) => "`@cl`",
            (LevelSource::Annotation, true) => "`@serial`",
            (LevelSource::Shell, false) => "the cqlsh `CONSISTENCY` line before it",
            (LevelSource::Shell, true) => "the cqlsh `SERIAL CONSISTENCY` line before it",
        }
    }

    /// The JSON name: `annotation` or `cqlsh`.
    pub fn name(self) -> &'static str {
        match self {
            LevelSource::Annotation => "annotation",
            LevelSource::Shell => "cqlsh",
        }
    }
}

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
    /// `@cl LOCAL_QUORUM`, else the level of the last cqlsh `CONSISTENCY X`
    /// line before the statement (as cqlsh runs the file).
    pub consistency: Option<String>,
    /// The level of the last cqlsh `SERIAL CONSISTENCY X` line before the
    /// statement: the Paxos phase of its `IF` (cqlsh's default is `SERIAL`).
    pub serial_consistency: Option<String>,
    /// Where `consistency` was set (None when it was not).
    pub consistency_source: Option<LevelSource>,
    /// Where `serial_consistency` was set: `@serial X` wins over the cqlsh line.
    pub serial_source: Option<LevelSource>,
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

/// A cqlsh `CONSISTENCY X` or `SERIAL CONSISTENCY X` line of a query file.
struct SessionLevel {
    start: u32,
    serial: bool,
    level: String,
}

/// The consistency levels a query file sets with cqlsh commands, in order.
/// A level cqlsh would refuse is left out (cqlsh keeps the previous one).
fn session_levels(errors: &[cqlmodel_cql::ParseError]) -> Vec<SessionLevel> {
    errors
        .iter()
        .filter_map(|e| {
            let cqlmodel_cql::ParseErrorKind::ShellCommand { command, arguments } = &e.kind else {
                return None;
            };
            let (serial, level) = match (command.as_str(), arguments.as_slice()) {
                ("consistency", [level]) => (false, level),
                ("serial", [word, level]) if word.eq_ignore_ascii_case("consistency") => {
                    (true, level)
                }
                _ => return None,
            };
            let level = level.to_ascii_uppercase();
            let known = if serial {
                matches!(level.as_str(), "SERIAL" | "LOCAL_SERIAL")
            } else {
                CONSISTENCY_LEVELS.contains(&level.as_str())
            };
            known.then_some(SessionLevel {
                start: e.span.start,
                serial,
                level,
            })
        })
        .collect()
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
    let mut reader = QueryReader::new(schema, file, keyspace, first_ordinal);
    let queries: Vec<Query> = parsed
        .statements
        .iter()
        .zip(annotations)
        .filter_map(|(stmt, ann)| reader.read(stmt.clone(), ann, &parsed.errors))
        .collect();
    (queries, reader.finish())
}

/// Reads a query list one statement at a time, in source order, as
/// [`load_queries`] reads a whole parsed file: a list of 300,000 statements
/// is read with one syntax tree in memory (with
/// `cqlmodel_cql::parse_each_commented`). Keeps each query's name, and the
/// annotation warnings and `@after`s, for the checks across the list
/// ([`QueryReader::finish`]); not the annotations of every query.
pub struct QueryReader<'s> {
    schema: &'s Schema,
    file: usize,
    /// The session keyspace: the last `USE`, else the one given.
    session: Option<String>,
    ordinal: usize,
    /// Names seen so far: hashed, since a list of 50,000 queries makes a
    /// linear search per query quadratic.
    names: QueryNames,
    /// The cqlsh consistency lines seen so far, and how many parse errors
    /// were looked at for them.
    levels: Vec<SessionLevel>,
    errors_seen: usize,
    /// The annotation warnings of the queries read, and the `@after`s to
    /// check once every name is known, in list order.
    pending: Vec<Pending>,
    diagnostics: Vec<Diagnostic>,
}

impl<'s> QueryReader<'s> {
    /// A reader of the query list `file`; `keyspace`: the session keyspace
    /// before any `USE`; the first query is numbered `first_ordinal`.
    pub fn new(
        schema: &'s Schema,
        file: usize,
        keyspace: Option<&str>,
        first_ordinal: usize,
    ) -> Self {
        QueryReader {
            schema,
            file,
            session: keyspace.map(str::to_string),
            ordinal: first_ordinal,
            names: QueryNames::default(),
            levels: Vec::new(),
            errors_seen: 0,
            pending: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    /// Reads the next statement, annotated with `ann`; `errors`: the parse
    /// errors so far (the cqlsh `CONSISTENCY` lines among them apply). The
    /// query, or None for a statement the list skips (with a diagnostic) or
    /// a `USE`.
    pub fn read(
        &mut self,
        stmt: Statement,
        ann: Annotations,
        errors: &[cqlmodel_cql::ParseError],
    ) -> Option<Query> {
        let file = self.file;
        match &stmt.kind {
            StatementKind::Use(ks) => {
                self.session = Some(ks.value.clone());
                return None;
            }
            StatementKind::Select(_)
            | StatementKind::Insert(_)
            | StatementKind::Update(_)
            | StatementKind::Delete(_)
            | StatementKind::Batch(_) => {}
            _ => {
                self.diagnostics.push(skipped(
                    Diagnostic::warning(
                        "not-a-query",
                        "only SELECT, INSERT, UPDATE, DELETE and BATCH belong in a query list",
                    ),
                    file,
                    &stmt,
                ));
                return None;
            }
        }
        let new_errors = errors.get(self.errors_seen..).unwrap_or_default();
        self.levels.extend(session_levels(new_errors));
        self.errors_seen = self.errors_seen.max(errors.len());
        let annotation_error = |message: String| {
            Diagnostic::error("annotation", message)
                .with_file(file)
                .with_primary(stmt.span.range(), "annotated statement")
        };
        let diagnostics = &mut self.diagnostics;
        let settings = read_settings(&ann, &self.levels, stmt.span.start, &mut |message| {
            diagnostics.push(annotation_error(message));
        });
        let name = match ann.name() {
            Some(n) => n.to_string(),
            None => format!("Q{}", self.ordinal),
        };
        if self.names.contains(&name) {
            diagnostics.push(annotation_error(format!("two queries are named `{name}`")));
        }
        let path = analyze(self.schema, &stmt, self.session.as_deref());
        // DSE Search's `solr_query` pseudo-column is DataStax Enterprise, not Apache
        // Cassandra: the statement is skipped with an info, not judged.
        if path
            .error
            .as_ref()
            .is_some_and(|e| e.message.starts_with("Undefined column name solr_query "))
        {
            diagnostics.push(skipped(
                Diagnostic::info(
                    "dse-only",
                    "`solr_query` is a DataStax Enterprise pseudo-column: statement skipped",
                ),
                file,
                &stmt,
            ));
            // Without `@name` the skipped statement names no query: its
            // `Q<n>` is the next kept query's (the ordinal does not advance).
            if let Some(given) = ann.name() {
                self.names.skipped(given);
            }
            return None;
        }
        self.names.kept(ann.name(), self.ordinal);
        self.hold_annotation_checks(stmt.span, &ann);
        let query = Query {
            ordinal: self.ordinal,
            name,
            statement: stmt,
            file,
            annotations: ann,
            rate: settings.rate,
            consistency: settings.consistency,
            serial_consistency: settings.serial_consistency,
            consistency_source: settings.consistency_source,
            serial_source: settings.serial_source,
            page_size: settings.page_size,
            path,
        };
        self.ordinal += 1;
        Some(query)
    }

    /// Keeps the annotation warnings of the query at `span` and its
    /// `@after`, if any: most queries have neither, and keep nothing.
    fn hold_annotation_checks(&mut self, span: Span, ann: &Annotations) {
        let own = own_warnings(&Annotated {
            file: self.file,
            span,
            annotations: ann,
        });
        let after = ann.get("after").map(str::to_string);
        if !own.is_empty() || after.is_some() {
            self.pending.push(Pending { span, own, after });
        }
    }

    /// The diagnostics of the statements read, then the checks across the
    /// annotations of all the queries read (each query's in list order).
    pub fn finish(mut self) -> Vec<Diagnostic> {
        for p in self.pending {
            self.diagnostics.extend(p.own);
            if let Some(after) = p.after {
                let warning = after_warning(self.file, p.span, &after, &self.names);
                self.diagnostics.extend(warning);
            }
        }
        self.diagnostics
    }
}

/// The annotation checks of one query, held by [`QueryReader`] until the
/// whole list is read.
struct Pending {
    span: Span,
    /// The warnings on its own annotations.
    own: Vec<Diagnostic>,
    /// `@after NAME`, checked against the whole list.
    after: Option<String>,
}

/// `diagnostic` placed on a statement the query list skips.
fn skipped(diagnostic: Diagnostic, file: usize, stmt: &Statement) -> Diagnostic {
    diagnostic
        .with_file(file)
        .with_primary(stmt.span.range(), "skipped")
}

/// What a query's annotations (and the cqlsh lines before it) set.
struct QuerySettings {
    rate: Option<f64>,
    consistency: Option<String>,
    serial_consistency: Option<String>,
    consistency_source: Option<LevelSource>,
    serial_source: Option<LevelSource>,
    page_size: Option<u64>,
}

/// Reads `@rate`, `@cl`, `@serial` and `@page` of a statement starting at
/// `start`, the levels falling back to the cqlsh lines before it; each bad
/// annotation's message goes to `error`, in that order.
fn read_settings(
    ann: &Annotations,
    levels: &[SessionLevel],
    start: u32,
    error: &mut dyn FnMut(String),
) -> QuerySettings {
    let rate = match ann.get("rate").map(parse_rate) {
        Some(Err(e)) => {
            error(e);
            None
        }
        Some(Ok(r)) => Some(r),
        None => None,
    };
    let in_effect = |serial: bool| {
        levels
            .iter()
            .rev()
            .find(|l| l.start < start && l.serial == serial)
            .map(|l| l.level.clone())
    };
    let (consistency, consistency_source) = level_of(ann.get("cl"), in_effect(false));
    let (serial_consistency, serial_source) = level_of(ann.get("serial"), in_effect(true));
    for (key, level, source) in [
        ("cl", &consistency, consistency_source),
        ("serial", &serial_consistency, serial_source),
    ] {
        if let (Some(cl), Some(LevelSource::Annotation)) = (level, source)
            && !CONSISTENCY_LEVELS.contains(&cl.as_str())
        {
            error(format!(
                "unknown consistency level `{cl}` in @{key} (expected one of {})",
                CONSISTENCY_LEVELS.join(", ")
            ));
        }
    }
    let page_size = match ann.get("page").map(|p| p.parse::<u64>()) {
        Some(Ok(p)) => Some(p),
        Some(_) => {
            error(format!(
                "@page takes a whole number (0: paging off), got `{}`",
                ann.get("page").unwrap_or_default()
            ));
            None
        }
        None => None,
    };
    QuerySettings {
        rate,
        consistency,
        serial_consistency,
        consistency_source,
        serial_source,
        page_size,
    }
}

/// The level an annotation gives (upper-cased), else the cqlsh line's, with
/// where it came from.
fn level_of(
    annotated: Option<&str>,
    shell: Option<String>,
) -> (Option<String>, Option<LevelSource>) {
    match (annotated, shell) {
        (Some(level), _) => (
            Some(level.to_ascii_uppercase()),
            Some(LevelSource::Annotation),
        ),
        (None, Some(level)) => (Some(level), Some(LevelSource::Shell)),
        (None, None) => (None, None),
    }
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
    use super::{load_queries, parse_rate};

    /// cqlsh's `CONSISTENCY` and `SERIAL CONSISTENCY` lines set the level of
    /// the statements after them; an `@cl` annotation wins; a level cqlsh
    /// refuses changes nothing.
    #[test]
    fn cqlsh_consistency_lines_apply_to_the_statements_that_follow() {
        let schema = one_table_schema();
        let queries = "SELECT v FROM ks.t WHERE k = ?;\n\
            CONSISTENCY LOCAL_QUORUM\n\
            SELECT v FROM ks.t WHERE k = ?;\n\
            SERIAL CONSISTENCY LOCAL_SERIAL\n\
            UPDATE ks.t SET v = 1 WHERE k = ? IF v = 0;\n\
            -- @cl ONE @serial serial\n\
            SELECT v FROM ks.t WHERE k = ?;\n\
            CONSISTENCY FAST\n\
            CONSISTENCY SERIAL\n\
            SELECT v FROM ks.t WHERE k = ?;";
        let parsed = cqlmodel_cql::parse(queries);
        let (loaded, _) = load_queries(&schema, 1, &parsed, None, 1);
        let levels: Vec<(Option<&str>, Option<&str>)> = loaded
            .iter()
            .map(|q| (q.consistency.as_deref(), q.serial_consistency.as_deref()))
            .collect();
        assert_eq!(
            levels,
            [
                (None, None),
                (Some("LOCAL_QUORUM"), None),
                (Some("LOCAL_QUORUM"), Some("LOCAL_SERIAL")),
                (Some("ONE"), Some("SERIAL")),
                (Some("SERIAL"), Some("LOCAL_SERIAL")),
            ]
        );
    }

    /// An unnamed statement the list skips (DSE's `solr_query`) does not
    /// take the `Q<n>` of the next unnamed query (that said, falsely, "two
    /// queries are named `Q1`").
    #[test]
    fn a_skipped_unnamed_statement_names_no_query() {
        let schema = one_table_schema();
        let queries = "SELECT v FROM ks.t WHERE solr_query = 'x';\n\
            SELECT v FROM ks.t WHERE k = ?;\n\
            -- @after Q1\nSELECT v FROM ks.t WHERE k = ?;";
        let parsed = cqlmodel_cql::parse(queries);
        let (kept, diagnostics) = load_queries(&schema, 1, &parsed, None, 1);
        let said: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            said,
            ["`solr_query` is a DataStax Enterprise pseudo-column: statement skipped"]
        );
        let names: Vec<&str> = kept.iter().map(|q| q.name.as_str()).collect();
        assert_eq!(names, ["Q1", "Q2"]);
    }

    /// `ks.t (k int PRIMARY KEY, v int)`.
    fn one_table_schema() -> cqlmodel_schema::Schema {
        let text = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};\n\
            CREATE TABLE ks.t (k int PRIMARY KEY, v int);";
        cqlmodel_schema::build_schema(0, &cqlmodel_cql::parse(text).statements).schema
    }

    /// The warnings on annotations come after the list's own diagnostics,
    /// query by query in list order, each query's unknown keys, then its
    /// `@path`, then its `@after`; a misspelled `@after` is offered the first
    /// of the closest names, a statement the list skips (DSE's
    /// `solr_query`) names no query, and a query without `@name` is `Q` and
    /// its number (`Q5`, not `Q05`).
    #[test]
    fn annotation_warnings_come_in_list_order() {
        let schema = one_table_schema();
        let queries = "-- @name alpha1\nSELECT v FROM ks.t WHERE k = ?;\n\
            -- @name alpha2 @path analytcs @after alpha9\nSELECT v FROM ks.t WHERE k = ?;\n\
            -- @name search\nSELECT v FROM ks.t WHERE solr_query = 'x';\n\
            -- @nmae x @after search @path hot\nSELECT v FROM ks.t WHERE k = ?;\n\
            -- @name alpha1 @after alpha2\nSELECT v FROM ks.t WHERE k = ?;\n\
            -- @after Q3 @rate 5/s\nSELECT v FROM ks.t WHERE k = ?;\n\
            -- @name Q5 @after Q03\nSELECT v FROM ks.t WHERE k = ?;";
        let parsed = cqlmodel_cql::parse(queries);
        let (_, diagnostics) = load_queries(&schema, 1, &parsed, None, 1);
        let said: Vec<(String, String)> = diagnostics
            .iter()
            .map(|d| (d.code.clone(), d.message.clone()))
            .collect();
        let annotation = |m: &str| ("annotation".to_string(), m.to_string());
        assert_eq!(
            said,
            [
                (
                    "dse-only".to_string(),
                    "`solr_query` is a DataStax Enterprise pseudo-column: statement skipped"
                        .to_string()
                ),
                annotation("two queries are named `alpha1`"),
                annotation("two queries are named `Q5`"),
                annotation(
                    "unknown @path `analytcs` (did you mean `analytics`?): the query is reviewed as an application path (expected one of app, application, hot, frequent, admin, analytics, migration)"
                ),
                annotation(
                    "@after names `alpha9`, but no query has that name (did you mean `alpha1`?): ignored"
                ),
                annotation(
                    "unknown annotation `@nmae` (did you mean `@name`?): ignored (known: @name, @rate, @cl, @serial, @page, @path, @after, @table, @new-row)"
                ),
                annotation("@after names `search`, but no query has that name: ignored"),
                annotation(
                    "@after names `Q03`, but no query has that name (did you mean `Q3`?): ignored"
                ),
            ]
        );
    }

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
