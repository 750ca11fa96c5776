//! A synthetic design model of any size, shaped like `design --format json`
//! (tables with keys, queries, write paths, placements), for the benchmark and
//! the browser test's 500-table page. Names carry characters that need escaping.

use serde_json::{Value, json};

/// A design of `tables` tables, one query per table, one write path per ten.
pub fn synthetic_design(tables: usize) -> Value {
    let table = |i: usize| {
        json!({
            "name": format!("events_by_source_{i:04}"),
            "kind": "table",
            "entity": format!("entity_{}", i / 10),
            "grain": [format!("entity_{}", i / 10)],
            "columns": [
                {"name": "source_id", "type": "uuid"},
                {"name": "day", "type": "date"},
                {"name": "happened_at", "type": "timestamp"},
                {"name": "event_id", "type": "timeuuid"},
                {"name": "owner", "type": "text"},
                {"name": "payload", "type": "text"},
                {"name": "tags", "type": "frozen<set<text>>"}
            ],
            "partition_key": ["source_id", "day"],
            "clustering": [{"column": "happened_at", "order": "DESC"}, {"column": "event_id", "order": "ASC"}],
            "static": ["owner"],
            "queries": [format!("events_of_source_{i:04}")],
            "compaction": "TimeWindowCompactionStrategy",
            "default_time_to_live": 7776000
        })
    };
    let query = |i: usize| {
        json!({
            "name": format!("events_of_source_{i:04}"),
            "cql": format!("SELECT happened_at, event_id, payload FROM app.events_by_source_{i:04} WHERE source_id = ? AND day = ? AND happened_at < ? LIMIT 100"),
            "table": format!("events_by_source_{i:04}"),
            "partitions": 2,
            "rows_read": 100.0,
            "statements": 2,
            "notes": ["bucket fan-out: the range on `happened_at` spans 2 day bucket(s) <newest first>"],
            "off_path": null
        })
    };
    let write = |w: usize| {
        let statements: Vec<Value> = (w * 10..(w * 10 + 3).min(tables))
            .map(|i| json!({
                "table": format!("events_by_source_{i:04}"),
                "cql": format!("INSERT INTO app.events_by_source_{i:04} (source_id, day, happened_at, event_id, payload) VALUES (?, ?, ?, ?, ?)"),
                "mechanism": "logged batch",
                "lwt": i % 3 == 1,
                "counter": false,
                "hybrid": false,
                "reason": "kept in step with the write of record & its batch",
                "reads_first": null,
                "only_when": null,
                "repeat": null
            }))
            .collect();
        json!({
            "name": format!("record_event_{w:03}"),
            "kind": "insert",
            "entity": format!("entity_{w}"),
            "rate": 100.0,
            "consistency": "LOCAL_QUORUM",
            "inferred": false,
            "write_amplification": 3.0,
            "notes": [],
            "not_atomic": "the statements on several tables are not one transaction",
            "statements": statements
        })
    };
    let placement = |e: usize| {
        json!({
            "entity": format!("entity_{e}"),
            "columns": [{"column": "payload", "stored_in": (e * 10..(e * 10 + 10).min(tables)).map(|i| format!("events_by_source_{i:04}.payload")).collect::<Vec<_>>()}]
        })
    };
    json!({
        "keyspace": "app",
        "tables": (0..tables).map(table).collect::<Vec<_>>(),
        "queries": (0..tables).map(query).collect::<Vec<_>>(),
        "write_paths": (0..tables.div_ceil(10)).map(write).collect::<Vec<_>>(),
        "placements": (0..tables.div_ceil(10)).map(placement).collect::<Vec<_>>(),
        "warnings": ["events_by_source_0000: <a> \"warning\" & more"],
        "errors": []
    })
}
