//! Cassandra's own keyspaces in a schema file (`DESCRIBE FULL SCHEMA` prints
//! them with the user's): set aside, with one info, before anything reviews them.

use cqlmodel_diagnostics::Diagnostic;

/// A schema file that holds Cassandra's own keyspaces (`DESCRIBE FULL
/// SCHEMA`) describes them as they exist: their statements are set aside with
/// one info, not reported as rejected nor reviewed as the user's tables.
pub(crate) fn set_aside(build: &mut cqlmodel_schema::SchemaBuild) -> Option<Diagnostic> {
    use cqlmodel_schema::SchemaErrorKind;
    let mut first: Option<(usize, cqlmodel_cql::ast::Span)> = None;
    let mut refused: Vec<String> = Vec::new();
    let mut statements = 0usize;
    build.errors.retain(|e| {
        let system = matches!(
            &e.kind,
            SchemaErrorKind::SystemKeyspace(_) | SchemaErrorKind::VirtualKeyspace(_)
        );
        if let SchemaErrorKind::SystemKeyspace(name) | SchemaErrorKind::VirtualKeyspace(name) =
            &e.kind
        {
            statements += 1;
            first.get_or_insert((e.file, e.span));
            if !refused.contains(name) {
                refused.push(name.clone());
            }
        }
        !system
    });
    let mut names = refused;
    for name in cqlmodel_schema::SYSTEM_KEYSPACES {
        if let Some(ks) = build.schema.keyspaces.remove(*name) {
            statements += 1 + ks.tables.len() + ks.types.len();
            first.get_or_insert((ks.origin.file, ks.origin.span));
            if !names.contains(&ks.name) {
                names.push(ks.name);
            }
        }
    }
    let (file, span) = first?;
    Some(
        Diagnostic::info(
            "system-keyspaces",
            format!(
                "{statements} statement(s) on Cassandra's own system keyspaces set aside{}: Cassandra creates and manages them (a `DESCRIBE FULL SCHEMA` prints them)",
                if names.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", names.join(", "))
                }
            ),
        )
        .with_file(file)
        .with_primary(span.range(), "a system keyspace"),
    )
}
