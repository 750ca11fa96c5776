//! Every DESCRIBE KEYSPACE output in `tests/data/describe` (Cassandra 4.1 and 5.0)
//! parses without errors and round-trips.

mod common;

use common::{assert_round_trip, cql_files, read, render_error};
use cqlmodel_cql::{ast::StatementKind, parse};

#[test]
fn describe_outputs_parse_and_round_trip() {
    for path in cql_files("describe") {
        let source = read(&path);
        let name = path.display().to_string();
        let result = parse(&source);
        let rendered: Vec<String> = result
            .errors
            .iter()
            .map(|e| render_error(&source, e))
            .collect();
        assert!(rendered.is_empty(), "{name}:\n{}", rendered.join("\n"));
        // DESCRIBE KEYSPACE always opens with the keyspace, then its contents.
        assert!(
            matches!(
                result.statements.first().map(|s| &s.kind),
                Some(StatementKind::CreateKeyspace(_))
            ),
            "{name}: does not start with CREATE KEYSPACE"
        );
        assert!(result.statements.len() > 1, "{name}: only a keyspace");
        for stmt in &result.statements {
            assert_round_trip(stmt, &format!("{name}: {}", &source[stmt.span.range()]));
        }
    }
}
