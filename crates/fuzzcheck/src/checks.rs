//! The properties, one function per input language.

/// A fuzz target: a name, where its seed inputs live (relative to the
/// repository root), and the check.
pub struct Target {
    pub name: &'static str,
    pub seed_dirs: &'static [&'static str],
    /// Words the mutator splices in, so mutations reach past the lexer.
    pub dictionary: &'static [&'static str],
    pub check: fn(&[u8]),
}

/// The target called `name`, for the cargo-fuzz drivers.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

pub const TARGETS: &[Target] = &[
    Target {
        name: "cql",
        seed_dirs: &[
            "crates/cql/tests/data/ok",
            "crates/cql/tests/data/err",
            "examples",
        ],
        dictionary: &[
            "CREATE TABLE ",
            "PRIMARY KEY ((",
            "), ",
            "WITH CLUSTERING ORDER BY (",
            " DESC",
            "SELECT ",
            " FROM ",
            " WHERE ",
            " IN (",
            " AND ",
            " IF NOT EXISTS",
            " USING TTL 1",
            "BEGIN BATCH ",
            "APPLY BATCH",
            "frozen<",
            "map<text, ",
            "vector<float, 3>",
            "'",
            "\"",
            "$$",
            "?",
            ":n",
            "1+1",
            "token(",
            ") >= ",
            "ALLOW FILTERING",
            ";",
            "--",
            "/*",
            "*/",
            "\n",
        ],
        check: check_cql,
    },
    Target {
        name: "design_sql",
        seed_dirs: &["crates/design/tests/data", "examples/design"],
        dictionary: &[
            "CREATE TABLE ",
            "PRIMARY KEY",
            "REFERENCES ",
            "UNIQUE",
            "NOT NULL",
            "SELECT ",
            " FROM ",
            " JOIN ",
            " ON ",
            " WHERE ",
            " = $1",
            " ORDER BY ",
            " LIMIT 10",
            "UPDATE ",
            " SET n = n + 1",
            "INSERT INTO ",
            " ON CONFLICT DO NOTHING",
            "-- @rate 10/s\n",
            "bigint",
            "timestamptz",
            "\0",
            ";",
            "(",
            ")",
            "'",
            "\"",
        ],
        check: check_design,
    },
    Target {
        name: "stats_toml",
        seed_dirs: &["examples"],
        dictionary: &[
            "[tables.t]\n",
            "rows = ",
            "partitions = ",
            "1e308",
            "-1",
            "nan",
            "inf",
            "\"",
            "=",
            "[",
            "]",
            "\n",
            "k = { distinct = 10 }\n",
        ],
        check: check_stats,
    },
    Target {
        name: "topology_toml",
        seed_dirs: &["examples"],
        dictionary: &[
            "[[datacenters]]\n",
            "name = ",
            "nodes = ",
            "vnodes = ",
            "racks = ",
            "4194304",
            "0",
            "-1",
            "\"dc1\"",
            "\n",
            "=",
        ],
        check: check_topology,
    },
    Target {
        name: "nodetool",
        seed_dirs: &["tests/data/nodetool"],
        dictionary: &[
            "Keyspace : ",
            "Keyspace: ",
            "\t\tTable: ",
            "Compacted partition maximum bytes: ",
            "Percentile",
            "NaN",
            "null",
            "\"NaN\"",
            "----------------\n",
            "1e400",
            "-5",
            "{",
            "}",
            ":",
            "\n",
            "\t",
        ],
        check: check_nodetool,
    },
];

/// The parser never panics; every span lies inside the input; every statement
/// it accepts prints as CQL that parses back to the same tree.
fn check_cql(data: &[u8]) {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let result = cqlmodel_cql::parse(source);
    for error in &result.errors {
        assert!(error.span.start <= error.span.end, "inverted span");
        assert!(error.span.end as usize <= source.len(), "span past the end");
    }
    for statement in &result.statements {
        let printed = statement.to_string();
        let reparsed = cqlmodel_cql::parse_statement(&printed);
        assert_eq!(reparsed.as_ref(), Ok(statement), "round trip of {printed}");
    }
    let _ = cqlmodel_schema::build_schema(0, &result.statements);
}

/// The designer never panics on any model and query list (split at the first
/// NUL byte), and every file name it would write stays a plain relative name.
fn check_design(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (model, queries) = text.split_once('\0').unwrap_or((text, ""));
    let input = cqlmodel_design::DesignInput {
        keyspace: "fuzz",
        model_sql: model,
        queries_sql: (!queries.is_empty()).then_some(queries),
        stats_toml: None,
    };
    if let Ok(d) = cqlmodel_design::design(&input) {
        for (path, _) in cqlmodel_design::files(&d) {
            assert!(
                cqlmodel_design::output::is_safe_relative(&path),
                "unsafe path {path:?}"
            );
        }
    }
}

/// The examples' schemas, so that seeded statistics name real tables and the
/// mutations reach the per-table validation, not only "unknown table".
const STATS_SCHEMA: [&str; 2] = [
    include_str!("../../../examples/iot.cql"),
    include_str!("../../../examples/orders.cql"),
];

/// The statistics loader never panics, whatever the numbers.
fn check_stats(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = cqlmodel_cql::parse(&STATS_SCHEMA.concat());
    let schema = cqlmodel_schema::build_schema(0, &parsed.statements).schema;
    let _ = cqlmodel_stats::load_stats(text, &schema);
}

/// A topology either fails with an error or validates into a ring that builds.
fn check_topology(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(topology) = cqlmodel_ring::parse_topology(text) else {
        return;
    };
    if topology.validate().is_ok() {
        let _ = cqlmodel_ring::Ring::build(&topology);
    }
}

/// The nodetool readers never panic, every problem's line lies inside the
/// input, and the analysis of whatever was read never panics either.
fn check_nodetool(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = cqlmodel_diagnose::parse_input(0, "fuzz", text);
    let lines = text.lines().count().max(1);
    for problem in &parsed.problems {
        assert!(
            problem.line <= lines + 1,
            "problem line {} past the end",
            problem.line
        );
    }
    let input = cqlmodel_diagnose::DiagnoseInput {
        stats: &parsed.stats,
        histograms: &parsed.histograms,
        status: &parsed.status,
        schema: None,
        thresholds: cqlmodel_stats::Thresholds::default(),
        data_age: None,
    };
    let _ = cqlmodel_diagnose::diagnose(&input);
}
