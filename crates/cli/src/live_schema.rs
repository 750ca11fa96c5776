//! The deployed schema of a live cluster as a schema the commands check: the
//! DDL crates/cluster rebuilds from the system tables, registered as a source
//! so diagnostics can point into it. Shared by `review`, `diagnose`, `size`
//! and `migrate --cluster`; it depends on no command module.

use cqlmodel_cluster::{ClusterOptions, read_cluster};
use cqlmodel_diagnostics::{Diagnostic, SourceFile, SourceMap};
use cqlmodel_schema::Schema;

use crate::schema_load::LoadedSchema;

/// The deployed schema as a schema file named `<cluster schema>`: only the
/// schema is read (no node-local table). Errors are the connection's.
pub fn load_live_schema(
    options: &ClusterOptions,
    sources: &mut SourceMap,
) -> Result<LoadedSchema, String> {
    load_live_schema_named(options, "<cluster schema>", sources).map(|(loaded, _)| loaded)
}

/// [`load_live_schema`] with the rebuilt DDL registered under `name`; also
/// returns its source index.
pub fn load_live_schema_named(
    options: &ClusterOptions,
    name: &str,
    sources: &mut SourceMap,
) -> Result<(LoadedSchema, usize), String> {
    let snapshot = read_cluster(options).map_err(|e| e.to_string())?;
    let file = sources.add(SourceFile::new(name, snapshot.schema_cql.clone()));
    let (schema, diagnostics) = build_live(&snapshot.schema_cql, file);
    let loaded = LoadedSchema {
        schema,
        diagnostics,
        current_keyspace: None,
        suppressions: Vec::new(),
    };
    Ok((loaded, file))
}

/// Builds the rebuilt DDL; what the cluster holds, it accepted, so views and
/// SASI are enabled. A statement the schema crate refuses is a warning.
pub(crate) fn build_live(cql: &str, file: usize) -> (Schema, Vec<Diagnostic>) {
    let parsed = cqlmodel_cql::parse(cql);
    let mut builder = cqlmodel_schema::SchemaBuilder::with_settings(cqlmodel_schema::Settings {
        materialized_views_enabled: true,
        sasi_indexes_enabled: true,
        ..cqlmodel_schema::Settings::default()
    });
    builder.add_statements(file, &parsed.statements);
    let build = builder.finish();
    let notes = build
        .errors
        .iter()
        .map(|e| {
            Diagnostic::warning("cluster", format!("the rebuilt schema: {e}"))
                .with_name("cluster-input")
                .with_file(file)
        })
        .collect();
    (build.schema, notes)
}
