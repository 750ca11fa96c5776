//! Shared by the HTML tests: the examples each command's page is made from,
//! and running the binary with `--html`.

#![allow(dead_code)]

pub mod webdriver;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root (the tests run in crates/cli).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One example run: a name and the command's arguments (repository-relative
/// paths; `{out}` is replaced by a scratch directory).
pub struct Example {
    pub name: &'static str,
    pub args: &'static [&'static str],
}

pub const EXAMPLES: &[Example] = &[
    Example {
        name: "design",
        args: &[
            "design",
            "examples/design/social/model.sql",
            "--queries",
            "examples/design/social/queries.sql",
            "--stats",
            "examples/design/social/stats.toml",
            "--out",
            "{out}",
        ],
    },
    Example {
        name: "review",
        args: &[
            "review",
            "examples/shop/schema.cql",
            "--queries",
            "examples/shop/queries.cql",
            "--stats",
            "examples/shop/stats.toml",
            "--config",
            "examples/shop/cqlmodel.toml",
        ],
    },
    Example {
        name: "size",
        args: &[
            "size",
            "examples/iot.cql",
            "--stats",
            "examples/iot-stats.toml",
        ],
    },
    Example {
        name: "ring",
        args: &[
            "ring",
            "--nodes",
            "30",
            "--vnodes",
            "16",
            "--rf",
            "3",
            "--schema",
            "examples/orders.cql",
            "--stats",
            "examples/orders-stats.toml",
            "--table",
            "orders_by_status",
        ],
    },
    Example {
        name: "diagnose",
        args: &[
            "diagnose",
            "tests/data/nodetool/cassandra-5.0-written/tablestats.txt",
            "tests/data/nodetool/cassandra-5.0-written/tablehistograms.txt",
            "--schema",
            "crates/diagnose/tests/data/schema.cql",
        ],
    },
    Example {
        // Several nodes: a bar and a legend entry per node in each chart.
        name: "diagnose-nodes",
        args: &[
            "diagnose",
            "crates/diagnose/tests/data/three_nodes.txt",
            "tests/data/nodetool/cassandra-5.0-written/tablehistograms.txt",
        ],
    },
    Example {
        name: "migrate",
        args: &[
            "migrate",
            "crates/migrate/tests/data/day_bucket/old.cql",
            "crates/migrate/tests/data/day_bucket/new.cql",
            "--queries",
            "crates/migrate/tests/data/day_bucket/queries.cql",
            "--stats",
            "crates/migrate/tests/data/day_bucket/stats.toml",
        ],
    },
];

/// Runs `example` with `--html` into `dir`; returns the page's path and the exit code.
pub fn write_page(example: &Example, dir: &Path) -> (PathBuf, Option<i32>) {
    let html = dir.join(format!("{}.html", example.name));
    let out = dir.join(format!("{}-out", example.name));
    let args: Vec<String> = example
        .args
        .iter()
        .map(|a| a.replace("{out}", &out.to_string_lossy()))
        .collect();
    let status = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .current_dir(root())
        .args(&args)
        .arg("--html")
        .arg(&html)
        .output()
        .expect("run cqlmodel");
    (html, status.status.code())
}
