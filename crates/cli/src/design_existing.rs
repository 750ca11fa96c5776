//! `cqlmodel design … --existing CURRENT`: the migration from the schema a team
//! has to the design's `schema.cql`, planned by `cqlmodel-migrate` exactly as
//! `cqlmodel migrate CURRENT DIR/schema.cql` would, restricted to the design's
//! keyspace (other keyspaces of CURRENT are not the design's business and are
//! never planned as drops).

use std::path::{Path, PathBuf};

use cqlmodel_design::writes::WritePath;
use cqlmodel_diagnostics::{Diagnostic, SourceFile, SourceMap};
use cqlmodel_migrate::{
    AppRewrite, ChangeKind, ColumnRename, Layout, MigrateInput, Phase, Plan, RunbookHeader, Target,
    dry_run, output_files_with, plan,
};
use cqlmodel_schema::Origin;

use crate::migrate_cmd::load;

/// The `migrate` options `design --existing` takes (`--rename`, `--target`, `--layout`).
#[derive(Debug, Clone, Default)]
pub struct MigrationOptions {
    /// `KS.TABLE.OLD=NEW`, checked against CURRENT and the design's schema.
    pub renames: Vec<String>,
    pub target: Target,
    pub layout: Layout,
}

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
/// The design's write paths become the dual writes of the tables it rebuilds.
pub fn plan_existing(
    existing: &Path,
    keyspace: &str,
    (schema_cql, write_paths): (&str, &[WritePath]),
    options: &MigrationOptions,
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
    let renames = options
        .renames
        .iter()
        .map(|g| {
            let r: ColumnRename = g.parse()?;
            r.check(&old.schema, &new)?;
            Ok(r)
        })
        .collect::<Result<Vec<ColumnRename>, cqlmodel_migrate::RenameError>>()
        .map_err(|e| vec![Diagnostic::error("usage", e.to_string())])?;
    let input = MigrateInput {
        old: &old.schema,
        new: &new,
        target: options.target,
        queries: &[],
        stats: None,
        source: &source,
        renames: &renames,
    };
    let mut p = plan(&input);
    design_dual_writes(&mut p, write_paths, &old.schema);
    let dry = dry_run(&old.schema, &new, &p);
    let header = RunbookHeader {
        command: "cqlmodel design --existing".into(),
        files_dir: "migration/".into(),
    };
    let mut files = Vec::new();
    if !p.is_empty() {
        for f in output_files_with(&p, &dry, options.layout, 0, &header) {
            if f.path == "runbook.md" {
                files.push((PathBuf::from("migration.md"), f.contents));
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

/// Each table the plan rebuilds gets, as its dual writes, the design's own
/// statements on that table, pointed at the plan's new table, each beside the
/// statement that writes the same on the old table today (the mapping read
/// backwards), or the reason there is none.
fn design_dual_writes(p: &mut Plan, write_paths: &[WritePath], old: &cqlmodel_schema::Schema) {
    for c in &mut p.changes {
        let Some(r) = c.rebuild.as_ref() else {
            continue;
        };
        let (Some((_, table)), Some((_, plan_table))) =
            (r.name_in_new.split_once('.'), r.new_table.split_once('.'))
        else {
            continue;
        };
        let twins: Vec<AppRewrite> = write_paths
            .iter()
            .flat_map(|w| {
                w.statements
                    .iter()
                    .filter(|st| st.table == table)
                    .map(|st| twin(w, &st.cql, r, plan_table, old))
                    .collect::<Vec<_>>()
            })
            .collect();
        if twins.is_empty() {
            continue;
        }
        let new_table = r.new_table.clone();
        for t in &twins {
            match &t.new {
                Some(cql) => c.push(Phase::DualWrite, cql.clone()),
                None => {
                    c.flagged = true;
                    c.warnings.push(format!(
                        "the design's write path {} could not be pointed at {new_table}: write its dual write by hand",
                        t.name
                    ));
                }
            }
        }
        if let Some(r) = c.rebuild.as_mut() {
            r.dual_writes = twins;
        }
    }
}

/// One design statement, on the plan's new table, with today's statement on the old one.
fn twin(
    w: &WritePath,
    cql: &str,
    r: &cqlmodel_migrate::Rebuild,
    plan_table: &str,
    old: &cqlmodel_schema::Schema,
) -> AppRewrite {
    let old_table = &r.old_table;
    let parsed = cqlmodel_cql::parse(cql);
    let mut statement = parsed.statements.into_iter().next();
    let today = match (&statement, old_table.split_once('.')) {
        (Some(s), Some((ks, t))) => match old.table(ks, t) {
            Some(o) => cqlmodel_migrate::today::today_statement(s, o, &r.columns),
            None => Err(format!("{old_table} is not in the existing schema")),
        },
        _ => Err("the design's statement does not parse".to_string()),
    };
    let renamed = statement.as_mut().and_then(|s| {
        let table = match &mut s.kind {
            cqlmodel_cql::ast::StatementKind::Insert(x) => &mut x.table,
            cqlmodel_cql::ast::StatementKind::Update(x) => &mut x.table,
            cqlmodel_cql::ast::StatementKind::Delete(x) => &mut x.table,
            _ => return None,
        };
        table.name = cqlmodel_cql::ast::Ident::new(plan_table);
        Some(())
    });
    let mut notes = vec![format!("the design's write path {}: {cql}", w.name)];
    let today = today.unwrap_or_else(|why| {
        notes.push(format!(
            "no statement on {old_table} writes this today ({why}): the application's write \
             path stays as it is, and this one is new"
        ));
        format!("(no statement on {old_table} does this today: {why})")
    });
    let renamed = renamed.and(statement).map(|mut s| {
        if cqlmodel_migrate::dual_write::make_unconditional(&mut s) {
            notes.push(cqlmodel_migrate::dual_write::UNCONDITIONAL_NOTE.into());
        }
        format!("{s};")
    });
    AppRewrite {
        name: w.name.clone(),
        old: today,
        underivable: renamed
            .is_none()
            .then(|| "not an INSERT, UPDATE or DELETE cqlmodel can read".to_string()),
        new: renamed,
        consistency: w.consistency.clone(),
        served: None,
        notes,
    }
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
