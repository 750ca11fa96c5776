//! A synthetic design model of any size, shaped like `design --format json`
//! (tables with keys, queries with their cost per key, write paths with their
//! reads, placements, the sizing fields), for the benchmark and
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
            "off_path": null,
            "cost": key_cost(i)
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
                "reads_first": (i % 3 == 2).then_some("the source's owner from `sources_by_id`"),
                "reads": if i % 3 == 2 {
                    json!([{"entity": format!("entity_{w}"), "table": null, "key": ["source_id"]},
                           {"entity": "sources", "table": format!("events_by_source_{i:04}"), "key": ["source_id", "day"]}])
                } else {
                    json!([])
                },
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
        "horizon": {"seconds": 94_608_000, "text": "3y", "source": "default"},
        "foreign_key_growth": (0..tables.div_ceil(10)).map(foreign_key).collect::<Vec<_>>(),
        "per_key": (0..tables.div_ceil(50)).map(|k| per_key(k * 50)).collect::<Vec<_>>(),
        "tables": (0..tables).map(table).collect::<Vec<_>>(),
        "queries": (0..tables).map(query).collect::<Vec<_>>(),
        "write_paths": (0..tables.div_ceil(10)).map(write).collect::<Vec<_>>(),
        "placements": (0..tables.div_ceil(10)).map(placement).collect::<Vec<_>>(),
        "warnings": ["events_by_source_0000: <a> \"warning\" & more"],
        "errors": []
    })
}

/// The typical and the hottest key's cost of the read of table `i`.
fn key_cost(i: usize) -> Value {
    let skew = 1 + i % 400;
    json!({
        "query": format!("events_of_source_{i:04}"),
        "table": format!("events_by_source_{i:04}"),
        "typical": {"rows_per_partition": 40.0, "bytes_per_partition": 9_600.0, "partitions": 3, "rows_read": 100.0},
        "hottest": {"rows_per_partition": 40.0 * skew as f64, "bytes_per_partition": 9_600.0 * skew as f64, "partitions": 1, "rows_read": 100.0},
        "skew": skew as f64,
        "note": format!("the hottest source's day holds {skew}× the typical one's rows <one layout serves both>")
    })
}

/// A foreign key of entity `e` to a parent that does not grow.
fn foreign_key(e: usize) -> Value {
    json!({
        "entity": format!("entity_{e}"),
        "column": "source_id",
        "parent": "sources",
        "per_parent": if e.is_multiple_of(2) { "growing" } else { "constant" },
        "given_distinct": 20_000.0,
        "distinct": 20_000.0 + e as f64,
        "children_per_parent": 4_730.0,
        "age": 94_608_000
    })
}

/// The per-key trade-off of table `i`: the hottest key's width makes the
/// typical key walk many buckets.
fn per_key(i: usize) -> Value {
    json!({
        "table": format!("events_by_source_{i:04}"),
        "width": "day",
        "page": 100,
        "threshold_rows": 100_000.0,
        "hot_keys": 12.0,
        "hot_share": 0.37,
        "typical": {"rows": 900.0, "rows_per_bucket": 0.8, "statements_one_width": 126,
                    "own_width": "none", "statements_own_width": 1},
        "hottest": {"rows": 52_000_000.0, "rows_per_bucket": 47_500.0, "statements_one_width": 2,
                    "own_width": "day", "statements_own_width": 2},
        "chosen": "one width for every key, the hottest source's `day`: the typical source walks 126 buckets a page",
        "hybrid": "a width per key: the 12 sources over 100k rows take `day` <and the rest one partition>"
    })
}
