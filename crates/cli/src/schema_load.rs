//! Loading schema files: parse, then execute the DDL, turning every problem into a
//! diagnostic that points into the file.

use std::path::PathBuf;

use cqlmodel_cql::ParseError;
use cqlmodel_diagnostics::{Diagnostic, SourceMap};
use cqlmodel_schema::{Schema, SchemaBuilder, Settings};

use crate::input::{InputError, read_source};

pub struct LoadedSchema {
    pub schema: Schema,
    /// Parse errors and statements Cassandra would reject.
    pub diagnostics: Vec<Diagnostic>,
    /// The keyspace of the last `USE` in the schema files.
    pub current_keyspace: Option<String>,
}

/// Reads schema files (a directory contributes its `*.cql` files in name order).
pub fn load_schema(paths: &[PathBuf], sources: &mut SourceMap) -> Result<LoadedSchema, InputError> {
    // A schema file describes what exists: views and SASI indexes in it were created
    // on a cluster that enabled them, so they are modeled (with a warning) rather
    // than rejected as Cassandra 5.0's defaults would for a new CREATE.
    let settings = Settings {
        materialized_views_enabled: true,
        sasi_indexes_enabled: true,
        ..Settings::default()
    };
    let mut builder = SchemaBuilder::with_settings(settings);
    let mut diagnostics = Vec::new();
    for path in expand(paths)? {
        let file = read_source(&path, sources)?;
        let text = sources
            .get(file)
            .map(|f| f.text.clone())
            .unwrap_or_default();
        let parsed = cqlmodel_cql::parse(&text);
        diagnostics.extend(parse_diagnostics(&parsed.errors, file));
        builder.add_statements(file, &parsed.statements);
    }
    let current_keyspace = builder.current_keyspace().map(str::to_string);
    let build = builder.finish();
    for w in &build.warnings {
        diagnostics.push(
            Diagnostic::warning("schema-warning", w.to_string())
                .with_file(w.file)
                .with_primary(w.span.range(), "Cassandra warns about this statement"),
        );
    }
    for e in &build.errors {
        diagnostics.push(
            Diagnostic::error("schema", e.to_string())
                .with_file(e.file)
                .with_primary(e.span.range(), "Cassandra rejects this statement"),
        );
    }
    Ok(LoadedSchema {
        schema: build.schema,
        diagnostics,
        current_keyspace,
    })
}

fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, InputError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let entries = std::fs::read_dir(p).map_err(|source| InputError::Read {
                path: p.display().to_string(),
                source,
            })?;
            let mut files: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "cql"))
                .collect();
            files.sort();
            out.extend(files);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

pub fn parse_diagnostics(errors: &[ParseError], file: usize) -> Vec<Diagnostic> {
    errors
        .iter()
        .map(|e| {
            Diagnostic::error("syntax", e.to_string())
                .with_file(file)
                .with_primary(e.span.range(), "here")
        })
        .collect()
}
