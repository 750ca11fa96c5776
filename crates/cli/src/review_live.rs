//! `cqlmodel review --cluster HOST`: the deployed schema, read from
//! `system_schema` with read-only SELECTs (the reader of diagnose and migrate),
//! is reviewed like a schema file. A finding about a deployed table has no file
//! and line: it points at the table, as `cluster HOST, table ks.t`.

use std::collections::BTreeMap;

use cqlmodel_cql::ast::StatementKind;
use cqlmodel_diagnostics::{Diagnostic, SourceFile, SourceMap};
use cqlmodel_schema::Schema;

use crate::cluster_args::ClusterArgs;
use crate::schema_load::LoadedSchema;

/// The deployed schema and the source index its rebuilt DDL was registered under.
pub struct LiveSchema {
    pub loaded: LoadedSchema,
    pub file: usize,
}

/// Reads the deployed schema, restricted to `keyspace` when one is given.
/// Errors: the connection's, a keyspace the cluster does not hold, or a cluster
/// with no keyspace besides the system ones (nothing to review).
pub fn load(
    cluster: &ClusterArgs,
    keyspace: Option<&str>,
    sources: &mut SourceMap,
) -> Result<LiveSchema, String> {
    let name = format!("{} (system_schema)", cluster.label());
    let (mut loaded, file) =
        crate::live_schema::load_live_schema_named(&cluster.options(), &name, sources)?;
    match keyspace {
        Some(ks) => {
            if !loaded.schema.keyspaces.contains_key(ks) {
                let held: Vec<&str> = loaded.schema.keyspaces.keys().map(String::as_str).collect();
                return Err(format!(
                    "--keyspace {ks}: the {} holds no such keyspace (it holds: {})",
                    cluster.label(),
                    if held.is_empty() {
                        "none besides the system keyspaces".to_string()
                    } else {
                        held.join(", ")
                    }
                ));
            }
            loaded.schema.keyspaces.retain(|name, _| name == ks);
            loaded.current_keyspace = Some(ks.to_string());
        }
        None if loaded.schema.keyspaces.is_empty() => {
            return Err(format!(
                "the {} holds no keyspace besides the system keyspaces: nothing to review",
                cluster.label()
            ));
        }
        None => {}
    }
    Ok(LiveSchema { loaded, file })
}

/// Re-points every diagnostic tied to the rebuilt DDL at its table: the
/// rebuilt text is not a file the user has, so its lines and columns would
/// mislead. Each table gets a source named `cluster HOST, table ks.t` (no
/// text, so nothing is quoted); a diagnostic without a table gets `cluster HOST`.
pub fn point_at_tables(
    diagnostics: &mut [Diagnostic],
    live_file: usize,
    cluster: &ClusterArgs,
    sources: &mut SourceMap,
) {
    let mut files: BTreeMap<String, usize> = BTreeMap::new();
    for d in diagnostics.iter_mut().filter(|d| d.file == Some(live_file)) {
        let name = match &d.table {
            Some(t) => format!("{}, table {t}", cluster.label()),
            None => cluster.label(),
        };
        let file = *files
            .entry(name.clone())
            .or_insert_with(|| sources.add(SourceFile::new(name, String::new())));
        d.file = Some(file);
        d.primary = None;
        d.secondary.clear();
    }
}

/// Fixes that rebuild a deployed table: a `CREATE TABLE` of a name the cluster
/// already holds fails there, and a primary key cannot be altered, so the fix
/// says how to get there from the deployed table: `cqlmodel migrate --cluster`
/// with the fixed CREATE TABLE as NEW plans the new table, the dual writes, the
/// backfill and the switch. A fix that is already an ALTER is left alone.
pub fn point_fixes_at_migrate(
    diagnostics: &mut [Diagnostic],
    schema: &Schema,
    cluster: &ClusterArgs,
) {
    for d in diagnostics.iter_mut() {
        let Some(fix) = d.fix.as_mut() else { continue };
        let Some(replacement) = fix.replacement.as_deref() else {
            continue;
        };
        let Some(existing) = recreated_table(replacement, schema, d.table.as_deref()) else {
            continue;
        };
        fix.description.push_str(&format!(
            "; `{existing}` is deployed, so this CREATE TABLE cannot be run as it stands \
             (the table exists and a primary key cannot be altered): save it as the table's \
             new definition in NEW.cql and run `cqlmodel migrate --cluster {} NEW.cql`, \
             which plans the new table, dual writes, backfill and the switch of reads",
            cluster.cluster.join(" --cluster ")
        ));
    }
}

/// The `ks.t` of a `CREATE TABLE` in `replacement` that names a table the
/// deployed schema holds (an unqualified name is read in `finding_table`'s keyspace).
fn recreated_table(
    replacement: &str,
    schema: &Schema,
    finding_table: Option<&str>,
) -> Option<String> {
    let default_keyspace = finding_table
        .and_then(|t| t.split_once('.'))
        .map(|(ks, _)| ks);
    cqlmodel_cql::parse(replacement)
        .statements
        .iter()
        .find_map(|statement| match &statement.kind {
            StatementKind::CreateTable(create) => {
                let keyspace = create
                    .name
                    .keyspace
                    .as_ref()
                    .map(|k| k.as_str())
                    .or(default_keyspace)?;
                let name = create.name.name.as_str();
                schema
                    .table(keyspace, name)
                    .map(|_| format!("{keyspace}.{name}"))
            }
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finding_in_the_rebuilt_ddl_points_at_its_table() {
        let mut sources = SourceMap::new();
        let ddl = "CREATE TABLE ks.t (k int PRIMARY KEY);\n";
        let live = sources.add(SourceFile::new("rebuilt", ddl.to_string()));
        let elsewhere = sources.add(SourceFile::new("queries.cql", "SELECT 1;".to_string()));
        let mut on_table = Diagnostic::warning("CQL007", "grows").with_file(live);
        on_table = on_table.with_primary(0..10, "here");
        on_table.table = Some("ks.t".to_string());
        let keyspace_wide = Diagnostic::warning("CQL017", "rf 1").with_file(live);
        let in_queries = Diagnostic::error("CQL002", "filtering").with_file(elsewhere);
        let mut all = vec![on_table, keyspace_wide, in_queries];
        let cluster = ClusterArgs {
            cluster: vec!["10.0.0.1".to_string()],
            ..ClusterArgs::default()
        };
        point_at_tables(&mut all, live, &cluster, &mut sources);

        let name = |d: &Diagnostic| {
            d.file
                .and_then(|f| sources.get(f))
                .map(|f| f.name.clone())
                .unwrap_or_default()
        };
        assert_eq!(name(&all[0]), "cluster 10.0.0.1, table ks.t");
        assert!(all[0].primary.is_none());
        assert_eq!(name(&all[1]), "cluster 10.0.0.1");
        assert_eq!(name(&all[2]), "queries.cql");
        let rendered = cqlmodel_diagnostics::render_human(&all[..1], &sources, false);
        assert!(
            rendered.contains("--> cluster 10.0.0.1, table ks.t"),
            "{rendered}"
        );
        assert!(!rendered.contains("ks.t:1"), "{rendered}");
    }

    /// A deployed time series without a bucket, as crates/cluster rebuilds it
    /// (defaults left out), reviewed the way `review --cluster` does.
    fn deployed_review() -> Vec<Diagnostic> {
        let ddl = "CREATE KEYSPACE iot WITH replication = {'class': 'org.apache.cassandra.locator.SimpleStrategy', 'replication_factor': '1'};\n\
                   CREATE TABLE iot.readings_by_sensor (sensor_id text, read_at timestamp, celsius double, PRIMARY KEY ((sensor_id), read_at)) WITH CLUSTERING ORDER BY (read_at DESC);\n";
        let mut sources = SourceMap::new();
        let file = sources.add(SourceFile::new(
            "cluster 10.0.0.1 (system_schema)",
            ddl.to_string(),
        ));
        let (schema, problems) = crate::live_schema::build_live(ddl, file);
        assert!(problems.is_empty(), "{problems:?}");
        let config = cqlmodel_review::Config {
            deployed: true,
            ..cqlmodel_review::Config::default()
        };
        let input = cqlmodel_review::ReviewInput {
            schema: &schema,
            queries: &[],
            sources: &sources,
            suppressions: &[],
            has_queries: false,
            stats: None,
        };
        let mut findings = cqlmodel_review::review(&input, &config);
        let cluster = ClusterArgs {
            cluster: vec!["10.0.0.1".to_string()],
            ..ClusterArgs::default()
        };
        point_fixes_at_migrate(&mut findings, &schema, &cluster);
        findings
    }

    #[test]
    fn a_deployed_tables_fix_points_at_migrate_and_never_at_annotations() {
        let findings = deployed_review();
        let unbounded = findings
            .iter()
            .find(|d| d.name.as_deref() == Some("unbounded-partition"))
            .expect("the unbounded partition is flagged");
        let fix = unbounded.fix.as_ref().expect("a fix");
        assert!(
            fix.description
                .contains("`iot.readings_by_sensor` is deployed")
                && fix
                    .description
                    .contains("`cqlmodel migrate --cluster 10.0.0.1 NEW.cql`"),
            "{}",
            fix.description
        );
        let replacement = fix.replacement.as_deref().unwrap_or_default();
        assert!(replacement.contains("CREATE TABLE"), "{replacement}");
        assert!(
            !replacement.contains("default_time_to_live")
                && !replacement.contains("gc_grace_seconds"),
            "no default option in the fix: {replacement}"
        );
        for d in &findings {
            let text = format!("{} {:?} {:?} {:?}", d.message, d.notes, d.help, d.fix);
            assert!(
                !text.contains("@ttl"),
                "an annotation for a deployed table: {text}"
            );
        }
        assert!(
            unbounded.notes.iter().any(|n| n.contains("--config")),
            "the TTL hint points at the config file: {:?}",
            unbounded.notes
        );
    }

    #[test]
    fn an_alter_fix_is_left_alone() {
        let ddl = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': '1'};\nCREATE TABLE ks.t (k int PRIMARY KEY, v int);\n";
        let (schema, _) = crate::live_schema::build_live(ddl, 0);
        let cluster = ClusterArgs {
            cluster: vec!["10.0.0.1".to_string()],
            ..ClusterArgs::default()
        };
        let alter = "ALTER TABLE ks.t WITH default_time_to_live = 60;";
        let mut d = Diagnostic::warning("CQL011", "compaction");
        d.fix = Some(cqlmodel_diagnostics::Fix::new("set a TTL").with_replacement(alter));
        d.table = Some("ks.t".to_string());
        let mut new_table = d.clone();
        new_table.fix = Some(
            cqlmodel_diagnostics::Fix::new("a lookup table")
                .with_replacement("CREATE TABLE ks.t_by_v (v int PRIMARY KEY, k int);"),
        );
        let mut all = [d, new_table];
        point_fixes_at_migrate(&mut all, &schema, &cluster);
        assert_eq!(
            all[0].fix.as_ref().map(|f| f.description.as_str()),
            Some("set a TTL")
        );
        assert_eq!(
            all[1].fix.as_ref().map(|f| f.description.as_str()),
            Some("a lookup table"),
            "a new table can be created as it stands"
        );
    }
}
