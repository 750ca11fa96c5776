//! Two whole applications as their teams have them (issue 12): a pg_dump of
//! PostgreSQL 15 (tests/data/pg-app-*/model.sql, regenerated from ddl.sql by
//! scripts/pg-fixtures.sh, which also PREPAREs every statement of
//! queries.sql) and the SQL the application runs, in its ORM's placeholder
//! style. Each designs without stopping; every statement is designed or has
//! its own error with a reason; the summary is snapshotted.

use std::fmt::Write as _;
use std::path::Path;

use cqlmodel_design::querylist::Body;
use cqlmodel_design::{Design, DesignInput, design};

fn run(name: &str) -> Design {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let model = std::fs::read_to_string(d.join("model.sql")).unwrap_or_default();
    let queries = std::fs::read_to_string(d.join("queries.sql")).unwrap_or_default();
    let input = DesignInput {
        keyspace: "app",
        model_sql: &model,
        queries_sql: Some(&queries),
        stats_toml: None,
    };
    match design(&input) {
        Ok(d) => d,
        Err(e) => panic!("{name} stopped (exit 2): {e}"),
    }
}

/// Statements in the query file (BEGIN/COMMIT aside).
fn statements(name: &str) -> usize {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(d.join("queries.sql")).unwrap_or_default();
    text.split(';')
        .map(|s| {
            s.lines()
                .filter(|l| !l.trim_start().starts_with("--"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|s| {
            let w = s.trim().to_ascii_uppercase();
            !w.is_empty() && w != "BEGIN" && w != "COMMIT"
        })
        .count()
}

/// The summary: entities, each statement's fate, the rewrites and errors.
fn summary(d: &Design) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} entities, {} tables",
        d.model.entities.len(),
        d.tables.len()
    );
    for q in &d.queries {
        let fate = match (&q.table, &q.off_path) {
            (Some(t), _) => format!("-> {t}"),
            (None, Some(o)) => format!("off path: {}", o.reason),
            _ => "not served".into(),
        };
        let _ = writeln!(s, "read {}: {fate}", q.name);
    }
    for w in &d.write_paths {
        if w.inferred {
            continue;
        }
        let _ = writeln!(s, "write {}: {} statements", w.name, w.statements.len());
        for n in w.notes.iter().filter(|n| n.starts_with("reads first")) {
            let _ = writeln!(s, "  {n}");
        }
    }
    for n in d.input_notes.iter().filter(|n| n.code == "rewrite") {
        let _ = writeln!(s, "rewrite queries:{}:{}: {}", n.line, n.column, n.message);
    }
    for e in &d.errors {
        let _ = writeln!(
            s,
            "error[{}] {}:{}:{}: {}",
            e.kind.code(),
            e.source_file.label(),
            e.line,
            e.column,
            e.message
        );
    }
    s
}

/// Every statement of the file is designed (a read served or off the path, a
/// write with its path) or has an error of its own.
fn every_statement_accounted(name: &str, d: &Design) {
    let reads_first = d
        .specs
        .iter()
        .filter(|q| matches!(&q.body, Body::Mutation(m) if m.read_first.is_some()))
        .count();
    let designed = d.specs.len() - reads_first;
    let query_errors = d
        .errors
        .iter()
        .filter(|e| e.source_file == cqlmodel_design::Source::Queries)
        .count();
    assert_eq!(
        designed + query_errors,
        statements(name),
        "{name}: {:?}",
        d.errors
    );
    for q in &d.specs {
        match &q.body {
            Body::Select(_) => assert!(
                d.queries.iter().any(|p| p.name == q.name),
                "{name}: read {} has no plan",
                q.name
            ),
            Body::Mutation(_) => assert!(
                d.write_paths.iter().any(|w| w.name == q.name),
                "{name}: write {} has no path",
                q.name
            ),
        }
    }
    for e in &d.errors {
        assert!(
            e.message.contains(':'),
            "{name}: an error without its reason: {}",
            e.message
        );
    }
}

#[test]
fn the_billing_service_designs_every_statement_or_says_why_not() {
    let d = run("pg-app-billing");
    every_statement_accounted("pg-app-billing", &d);
    assert_eq!(d.model.entities.len(), 33, "partitions are their parent");
    insta::assert_snapshot!(summary(&d));
}

#[test]
fn the_helpdesk_designs_every_statement_or_says_why_not() {
    let d = run("pg-app-helpdesk");
    every_statement_accounted("pg-app-helpdesk", &d);
    // 38 CREATE TABLE: 4 partitions are their parent, schema_migrations is
    // Rails bookkeeping (skipped with a note).
    assert_eq!(d.model.entities.len(), 33);
    assert!(d.model.entity("schema_migrations").is_none());
    insta::assert_snapshot!(summary(&d));
}

/// `ticket_followers` is only ever deleted (no read needs its rows, nothing
/// inserts it): the delete's write path writes nothing, and says so in the
/// path and in the design's warnings rather than being a silent no-op.
#[test]
fn a_write_with_no_table_to_change_says_so() {
    let d = run("pg-app-helpdesk");
    let path = d
        .write_paths
        .iter()
        .find(|p| p.name == "unfollow_by_email")
        .expect("the unfollow write path");
    assert!(path.statements.is_empty(), "{path:?}");
    assert!(
        path.notes
            .iter()
            .any(|n| n.contains("no designed table holds `ticket_followers`")),
        "{:?}",
        path.notes
    );
    assert!(
        d.warnings
            .iter()
            .any(|w| w.starts_with("unfollow_by_email: no designed table holds")),
        "{:?}",
        d.warnings
    );
}
