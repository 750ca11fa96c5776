//! `cargo +nightly fuzz run stats_toml`: the statistics loader never panics and
//! every value it accepts is finite and within its documented range.
#![no_main]

use libfuzzer_sys::fuzz_target;

const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE ks.t (k text, c timestamp, v blob, PRIMARY KEY (k, c));";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = cqlmodel_cql::parse(SCHEMA);
    let schema = cqlmodel_schema::build_schema(0, &parsed.statements).schema;
    let _ = cqlmodel_stats::load_stats(text, &schema);
});
