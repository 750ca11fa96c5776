//! `cargo +nightly fuzz run design_sql`: the designer never panics on any model
//! or query list (split in two at the first NUL byte), and never overflows the
//! stack on long operator chains.
#![no_main]

use cqlmodel_design::{DesignInput, design};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (model, queries) = text.split_once('\0').unwrap_or((text, ""));
    let input = DesignInput {
        keyspace: "fuzz",
        model_sql: model,
        queries_sql: (!queries.is_empty()).then_some(queries),
        stats_toml: None,
    };
    if let Ok(d) = design(&input) {
        // Every file name the design would write stays a plain name.
        for (path, _) in cqlmodel_design::files(&d) {
            assert!(cqlmodel_design::output::is_safe_relative(&path), "{path:?}");
        }
    }
});
