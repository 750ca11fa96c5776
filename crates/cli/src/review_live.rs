//! `cqlmodel review --cluster HOST`: the deployed schema, read from
//! `system_schema` with read-only SELECTs (the reader of diagnose and migrate),
//! is reviewed like a schema file. A finding about a deployed table has no file
//! and line: it points at the table, as `cluster HOST, table ks.t`.

use std::collections::BTreeMap;

use cqlmodel_diagnostics::{Diagnostic, SourceFile, SourceMap};

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
        crate::diagnose_live::load_live_schema_named(&cluster.options(), &name, sources)?;
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
}
