//! `cqlmodel design … --existing CURRENT`: the migration from the schema a team
//! has to the design's `schema.cql`, planned by `cqlmodel-migrate` exactly as
//! `cqlmodel migrate CURRENT DIR/schema.cql` would, restricted to the design's
//! keyspace (other keyspaces of CURRENT are not the design's business and are
//! never planned as drops).

use std::path::{Path, PathBuf};

use cqlmodel_diagnostics::{Diagnostic, SourceFile, SourceMap};
use cqlmodel_migrate::{
    ChangeKind, Layout, MigrateInput, Plan, Target, dry_run, output_files, plan,
};
use cqlmodel_schema::Origin;

use crate::migrate_cmd::load;

/// The migration written next to a design.
pub struct ExistingMigration {
    /// `migration.md` and `migration/…`, relative to the design's directory.
    pub files: Vec<(PathBuf, String)>,
    /// One line: the number of changes of each kind.
    pub summary: String,
    /// A change needs a decision, or the dry run did not give the design's schema.
    pub needs_attention: bool,
}

/// Plans the migration from `existing` (a CQL file or directory) to the design's
/// `schema_cql`. A problem in `existing` is returned as diagnostics into `sources`.
pub fn plan_existing(
    existing: &Path,
    keyspace: &str,
    schema_cql: &str,
    sources: &mut SourceMap,
) -> Result<ExistingMigration, Vec<Diagnostic>> {
    let mut old = load(existing, sources)?;
    let left_out: Vec<String> = old
        .schema
        .keyspaces
        .keys()
        .filter(|name| *name != keyspace)
        .cloned()
        .collect();
    old.schema.keyspaces.retain(|name, _| name == keyspace);
    let file = sources.add(SourceFile::new("schema.cql", schema_cql.to_string()));
    let parsed = cqlmodel_cql::parse(schema_cql);
    // The design's views are part of its schema: built with the settings
    // `migrate` reads schema files with (views enabled), not Cassandra's defaults.
    let settings = cqlmodel_schema::Settings {
        materialized_views_enabled: true,
        sasi_indexes_enabled: true,
        removed_options_accepted: true,
        ..cqlmodel_schema::Settings::default()
    };
    let new = cqlmodel_schema::build_schema_with(settings, file, &parsed.statements).schema;
    let source = |o: &Origin| {
        sources
            .get(o.file)
            .and_then(|f| f.text.get(o.span.range()))
            .map(str::to_string)
    };
    let input = MigrateInput {
        old: &old.schema,
        new: &new,
        target: Target::Cassandra,
        queries: &[],
        stats: None,
        source: &source,
        renames: &[],
    };
    let p = plan(&input);
    let dry = dry_run(&old.schema, &new, &p);
    let mut files = Vec::new();
    if !p.is_empty() {
        for f in output_files(&p, &dry, Layout::Numbered, 0) {
            if f.path == "runbook.md" {
                let note = "> Planned by `cqlmodel design --existing`: the paths below are relative \
                            to `migration/`.\n\n";
                files.push((
                    PathBuf::from("migration.md"),
                    format!("{note}{}", f.contents),
                ));
            } else {
                files.push((Path::new("migration").join(&f.path), f.contents));
            }
        }
    }
    Ok(ExistingMigration {
        files,
        summary: summary_line(&p, existing) + &left_out_line(&left_out, keyspace),
        needs_attention: !dry.ok() || p.flagged().next().is_some(),
    })
}

/// Keyspaces of CURRENT that are not the design's: said, never silently ignored.
fn left_out_line(left_out: &[String], keyspace: &str) -> String {
    if left_out.is_empty() {
        return String::new();
    }
    format!(
        "  left alone: keyspace(s) {} of the existing schema (the design is keyspace {keyspace})\n",
        left_out.join(", ")
    )
}

/// `migration from current.cql: 3 changes (1 alter, 1 rebuild, 1 create, 0 drop), 1 needs a decision → migration.md`
fn summary_line(p: &Plan, existing: &Path) -> String {
    if p.is_empty() {
        return format!(
            "migration from {}: nothing to do (it already is the design's schema)\n",
            existing.display()
        );
    }
    let count = |k: ChangeKind| p.changes.iter().filter(|c| c.kind == k).count();
    let flagged = p.flagged().count();
    format!(
        "migration from {}: {} changes ({} alter, {} rebuild, {} create, {} drop), {} need a decision → migration.md\n",
        existing.display(),
        p.changes.len(),
        count(ChangeKind::Alter),
        count(ChangeKind::Rebuild),
        count(ChangeKind::Create),
        count(ChangeKind::Drop),
        flagged,
    )
}
