//! Helpers the design's integration tests share: find a write path, its
//! statement on a table, a query's plan, a table and its decisions; design an
//! inline pg_dump-style model, or a fixture directory under tests/data. Each
//! test crate uses a subset, hence the `dead_code` allowance.
#![allow(dead_code)]

use cqlmodel_design::reads::QueryPlan;
use cqlmodel_design::writes::{WritePath, WriteStatement};
use cqlmodel_design::{Design, DesignInput, design};

/// The write path named `name`; panics with the name when there is none.
pub fn path<'d>(d: &'d Design, name: &str) -> &'d WritePath {
    d.write_paths
        .iter()
        .find(|w| w.name == name)
        .unwrap_or_else(|| panic!("no write path {name}"))
}

/// The first statement of `w` on `table`; panics with the path's statements.
pub fn on<'w>(w: &'w WritePath, table: &str) -> &'w WriteStatement {
    w.statements
        .iter()
        .find(|s| s.table == table)
        .unwrap_or_else(|| panic!("{} writes no {table}: {:#?}", w.name, w.statements))
}

/// The plan of the query named `name`.
pub fn query<'d>(d: &'d Design, name: &str) -> &'d QueryPlan {
    d.queries
        .iter()
        .find(|q| q.name == name)
        .unwrap_or_else(|| panic!("no query {name}"))
}

/// Why the query is off the OLTP path (None when a table serves it); a query
/// is served or off path, never both nor neither.
pub fn off_path_reason(d: &Design, name: &str) -> Option<String> {
    let q = query(d, name);
    assert_eq!(q.table.is_none(), q.off_path.is_some(), "{name}");
    q.off_path.as_ref().map(|o| o.reason.clone())
}

/// The design of an inline model and query list in keyspace `fx`; panics when
/// the design stops (exit 2).
pub fn design_inline(model: &str, queries: &str) -> Design {
    design(&DesignInput {
        keyspace: "fx",
        model_sql: model,
        queries_sql: Some(queries),
        stats_toml: None,
    })
    .unwrap_or_else(|e| panic!("stopped (exit 2): {e}"))
}

/// A file of the fixture directory `tests/data/<dir>`; panics with the path
/// when it cannot be read.
pub fn fixture_in(dir: &str, name: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir)
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The design of the fixture `tests/data/<dir>` (its model.sql and
/// queries.sql) with the statistics `stats` and the sizing horizon (`None`:
/// the default), in a keyspace named after the directory; panics when the
/// design stops.
pub fn design_fixture(dir: &str, stats: Option<&str>, horizon: Option<u64>) -> Design {
    let (model, queries) = (fixture_in(dir, "model.sql"), fixture_in(dir, "queries.sql"));
    cqlmodel_design::design_with(
        &DesignInput {
            keyspace: &dir.replace('-', "_"),
            model_sql: &model,
            queries_sql: Some(&queries),
            stats_toml: stats,
        },
        &cqlmodel_design::DesignOptions { horizon },
    )
    .unwrap_or_else(|e| panic!("{dir}: {e}"))
}

/// The table named `name`; panics with the design's table names.
pub fn table<'d>(d: &'d Design, name: &str) -> &'d cqlmodel_design::derive::TableDesign {
    d.tables.iter().find(|t| t.name == name).unwrap_or_else(|| {
        let names: Vec<&str> = d.tables.iter().map(|t| t.name.as_str()).collect();
        panic!("no table {name}: {names:?}")
    })
}

/// The decisions of the table named `name`, one a line.
pub fn decisions(d: &Design, name: &str) -> String {
    table(d, name).decisions.join("\n")
}

/// The design of the example `examples/design/<name>` (model, queries and
/// statistics), in keyspace `name`; panics when the design stops.
pub fn design_example(name: &str) -> Design {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/design")
        .join(name);
    let read =
        |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    let (model, queries, stats) = (read("model.sql"), read("queries.sql"), read("stats.toml"));
    design(&DesignInput {
        keyspace: name,
        model_sql: &model,
        queries_sql: Some(&queries),
        stats_toml: Some(&stats),
    })
    .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The entry of the query named `name` in design.json; panics when there is
/// none.
pub fn json_query<'j>(j: &'j serde_json::Value, name: &str) -> &'j serde_json::Value {
    j["queries"]
        .as_array()
        .and_then(|qs| qs.iter().find(|q| q["name"] == name))
        .unwrap_or_else(|| panic!("design.json has no query {name}"))
}
