//! What the properties check on a design, as lists of problems. A problem that
//! is the symptom of a known defect of the designer names it: the properties
//! leave it to that defect's own (ignored) test and keep failing on anything else.

mod schema;
mod tables;
mod writes;

use std::panic::{AssertUnwindSafe, catch_unwind};

use cqlmodel_design::derive::TableDesign;
use cqlmodel_design::{Design, DesignError, DesignInput, Source, design};

use crate::strategies::Case;

pub use schema::{schema, statements};
pub use tables::{names, reads, salts};
pub use writes::{write_keys, write_paths};

/// Defects the properties found in the designer, all fixed; each has a
/// `regression_*` test, and the main properties fail on any of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defect {
    /// A table name longer than Cassandra's 48 characters: the schema does not build.
    LongTableName,
    /// Two columns of a table get one name: the prefix that tells a joined
    /// entity's attribute apart (`posts.id` → `post_id`) equals another
    /// attribute's name (`orders.post_id`).
    DuplicateColumnName,
    /// A read of static columns only, with a range on a clustering column:
    /// Cassandra rejects it.
    StaticOnlySliceRead,
    /// An UPDATE of static columns only names the clustering columns too:
    /// Cassandra rejects it (after a merge leaves a parent's attributes part
    /// static, part regular).
    StaticUpdateWithClusteringKey,
    /// Two tables get one name and the second becomes `<name>_2`.
    CollisionSuffix,
    /// A read annotated `@table X` is served by a table of another name.
    TableAnnotationIgnored,
    /// An UPDATE assigns an attribute that is a key column of a table: the
    /// write path writes nothing there (the row should move: delete, insert).
    KeyUpdateUnwritten,
    /// A statement written once per mutation, with no read before it, is
    /// keyed by attributes the mutated row does not have: a parent's copy in
    /// its children's partitions is written by the child's key (not once per
    /// child), or a child's row by its parent's attribute (not read first).
    WriteKeyNotFromRow,
    /// A table partitioned by its rows' own primary key (one row per
    /// partition) is salted: the statistics' default of 1,000 distinct
    /// values for a key column sizes the entity's unique key as if it repeated,
    /// and a read of one row then fans out to every salt bucket.
    SaltedUniqueKey,
    /// An insert, update or delete of a counted entity leaves its counter table as it was.
    CounterNotMaintained,
}

#[derive(Debug, Clone)]
pub struct Problem {
    pub defect: Option<Defect>,
    pub message: String,
}

impl Problem {
    fn new(defect: Option<Defect>, message: impl Into<String>) -> Self {
        Problem {
            defect,
            message: message.into(),
        }
    }

    fn unknown(message: impl Into<String>) -> Self {
        Problem::new(None, message)
    }
}

/// `design`, with a panic turned into its message.
pub fn run(input: &DesignInput<'_>) -> Result<Result<Design, DesignError>, String> {
    catch_unwind(AssertUnwindSafe(|| design(input))).map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into())
    })
}

pub fn show(input: &DesignInput<'_>) -> String {
    format!(
        "keyspace: {:?}\n--- model.sql\n{}\n--- queries.sql\n{}\n--- stats.toml\n{}",
        input.keyspace,
        input.model_sql,
        input.queries_sql.unwrap_or("(none)"),
        input.stats_toml.unwrap_or("(none)")
    )
}

/// The line of an error exists in its file (or is the one after the last), and
/// so does its column (or the one after the line's last character).
pub fn check_location(e: &DesignError, input: &DesignInput<'_>) -> Result<(), String> {
    let text = match e.source_file {
        Source::Model => Some(input.model_sql),
        Source::Queries => input.queries_sql,
        Source::Stats => input.stats_toml,
    };
    let Some(text) = text else {
        return Err(format!(
            "{e} points into a {:?} file that was not given",
            e.source_file
        ));
    };
    let lines: Vec<&str> = text.split('\n').collect();
    if e.line == 0 || e.line > lines.len() + 1 {
        return Err(format!(
            "{e}: line {} outside 1..={} of the {:?} file",
            e.line,
            lines.len() + 1,
            e.source_file
        ));
    }
    let width = lines.get(e.line - 1).map_or(0, |l| l.chars().count());
    if e.column == 0 || e.column > width + 1 {
        return Err(format!(
            "{e}: column {} outside 1..={} of line {}",
            e.column,
            width + 1,
            e.line
        ));
    }
    Ok(())
}

/// A field the design serializes for a table, where it has one: the
/// designer is being reworked, and these checks use its newer fields
/// (`grain`, `kind`) only when they are there.
fn serialized(t: &TableDesign, field: &str) -> Option<serde_json::Value> {
    serde_json::to_value(t).ok()?.get(field).cloned()
}

/// The entities whose rows the table holds, one row per combination: the
/// `grain` where the design has one, else the table's entity.
pub(crate) fn grain(t: &TableDesign) -> Vec<String> {
    serialized(t, "grain")
        .and_then(|g| serde_json::from_value::<Vec<String>>(g).ok())
        .filter(|g| !g.is_empty())
        .unwrap_or_else(|| vec![t.entity.clone()])
}

/// The base table of a materialized view, which Cassandra keeps in step.
pub(crate) fn view_base(t: &TableDesign) -> Option<String> {
    serialized(t, "kind")?
        .get("base")?
        .as_str()
        .map(str::to_string)
}

pub(crate) fn is_counter(t: &TableDesign) -> bool {
    t.columns.iter().any(|c| c.cql_type == "counter")
}

/// Every check, for the known defects' own tests.
pub fn all(c: &Case, d: &Design) -> Vec<Problem> {
    let (schema, mut problems) = schema(d);
    if let Some(schema) = schema {
        problems.extend(statements(d, &schema));
    }
    problems.extend(reads(c, d));
    problems.extend(names(c, d));
    problems.extend(salts(c, d));
    problems.extend(write_paths(c, d, true));
    problems.extend(write_keys(c, d));
    problems
}

/// The problems to fail on: with `defect`, only its symptoms; without, all
/// but the known defects'.
pub fn report(
    c: &Case,
    d: &Design,
    problems: Vec<Problem>,
    defect: Option<Defect>,
) -> Result<(), String> {
    // `None`: every problem fails (all the defects found are fixed, so the
    // main properties guard them too); `Some(d)`: only that defect's.
    let failing: Vec<String> = problems
        .into_iter()
        .filter(|p| defect.is_none() || p.defect == defect)
        .map(|p| p.message)
        .collect();
    if failing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{}\n{}\n--- schema.cql\n{}\n--- queries.cql\n{}",
        failing.join("\n"),
        c.show(),
        d.schema_cql(),
        d.queries_cql()
    ))
}

/// The per-key hybrid's bookkeeping tables (`<table>_widths`,
/// `<table>_key_rows`): named after the bucketed table they serve, and
/// written by its inserts and whole-key deletes only (a row's delete leaves
/// the key's width and count for its other rows).
/// Recognised by the table's marker (`purpose`), not by its name.
pub fn bookkeeping(d: &Design) -> std::collections::BTreeSet<&str> {
    d.tables
        .iter()
        .filter(|t| t.purpose.hybrid_of().is_some())
        .map(|t| t.name.as_str())
        .collect()
}
