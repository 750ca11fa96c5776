//! The per-key hybrid, built (issue 10 §5), on the growth fixture (a real
//! `pg_dump --schema-only` of tests/data/growth/ddl.sql): plays concentrate
//! on hit episodes (zipf 1.1), so the `minute` width the hottest episode
//! needs would make the typical one walk 1.58M buckets a page. The design
//! gives each episode its own width, recorded in `plays_by_episode_widths`.

mod common;

use common::{design_fixture, fixture_in, table};
use cqlmodel_design::writes::WriteStatement;
use cqlmodel_design::{Design, json, report_md};

fn fixture(name: &str) -> String {
    fixture_in("growth", name)
}

fn growth(stats: &str) -> Design {
    design_fixture("growth", Some(stats), None)
}

fn names(d: &Design) -> Vec<&str> {
    d.tables.iter().map(|t| t.name.as_str()).collect()
}

fn columns(t: &cqlmodel_design::derive::TableDesign) -> Vec<(String, String, String)> {
    t.columns
        .iter()
        .map(|c| (c.name.clone(), c.cql_type.clone(), format!("{:?}", c.role)))
        .collect()
}

fn record_play(d: &Design) -> &[WriteStatement] {
    &d.write_paths
        .iter()
        .find(|w| w.name == "record_play")
        .unwrap_or_else(|| panic!("no record_play path"))
        .statements
}

#[test]
fn the_hybrid_builds_a_widths_table_and_a_counter_keyed_by_the_episode() {
    let d = growth(&fixture("stats.toml"));
    let widths = table(&d, "plays_by_episode_widths");
    let s = |a: &str, b: &str, c: &str| (a.to_string(), b.to_string(), c.to_string());
    assert_eq!(
        columns(widths),
        vec![
            s("episode_id", "uuid", "PartitionKey"),
            s("since", "timestamp", "ClusteringDesc"),
            s("width", "text", "Regular"),
        ]
    );
    let rows = table(&d, "plays_by_episode_key_rows");
    assert_eq!(
        columns(rows),
        vec![
            s("episode_id", "uuid", "PartitionKey"),
            s("count", "counter", "Regular"),
        ]
    );
    // The bucketed table's bucket holds a period's `since` for a cold key:
    // it is `bucket`, a timestamp, no longer `minute`.
    let main = table(&d, "plays_by_episode");
    assert!(
        columns(main).contains(&s("bucket", "timestamp", "PartitionKey")),
        "{:?}",
        columns(main)
    );
    assert!(!columns(main).iter().any(|c| c.0 == "minute"));
    let schema = d.schema_cql();
    assert!(
        schema.contains("PRIMARY KEY ((episode_id), since)")
            || schema.contains("PRIMARY KEY (episode_id, since)"),
        "{schema}"
    );
    assert!(
        schema.contains("CLUSTERING ORDER BY (since DESC)"),
        "{schema}"
    );
    // Bookkeeping columns are no entity's: the placements do not count them.
    let placed = serde_json::to_string(&json(&d)["placements"]).unwrap_or_default();
    assert!(!placed.contains("plays_by_episode_widths"), "{placed}");
}

#[test]
fn the_write_path_reads_the_width_first_counts_cold_keys_and_promotes() {
    let d = growth(&fixture("stats.toml"));
    let st = record_play(&d);
    let main = st
        .iter()
        .find(|s| s.table == "plays_by_episode")
        .unwrap_or_else(|| panic!("{st:?}"));
    assert!(
        main.cql.contains("(episode_id, bucket, played_at"),
        "{}",
        main.cql
    );
    assert!(
        main.reads
            .iter()
            .any(|r| r.table.as_deref() == Some("plays_by_episode_widths")
                && r.key == ["episode_id"]),
        "{:?}",
        main.reads
    );
    let first = main.reads_first.clone().unwrap_or_default();
    assert!(
        first.contains("SELECT since, width FROM growth.plays_by_episode_widths WHERE episode_id = ? AND since <= ? LIMIT 1")
            && first.contains("cached 60s"),
        "{first}"
    );
    let count = st
        .iter()
        .find(|s| s.table == "plays_by_episode_key_rows")
        .unwrap_or_else(|| panic!("no counter statement: {st:?}"));
    assert!(count.counter);
    assert_eq!(
        count.cql,
        "UPDATE growth.plays_by_episode_key_rows SET count = count + 1 WHERE episode_id = ?"
    );
    // 19.8% of the rows are cold keys' by the distribution: 396 of 2000/s.
    assert!(
        count.reason.contains("19.8% of the rows") && count.reason.contains("396/s"),
        "{}",
        count.reason
    );
    let promote = st
        .iter()
        .find(|s| s.table == "plays_by_episode_widths")
        .unwrap_or_else(|| panic!("no promotion: {st:?}"));
    assert_eq!(
        promote.cql,
        "INSERT INTO growth.plays_by_episode_widths (episode_id, since, width) VALUES (?, ?, 'minute')"
    );
    assert!(
        promote
            .only_when
            .as_deref()
            .unwrap_or("")
            .contains("over 100k rows"),
        "{:?}",
        promote.only_when
    );
    assert!(
        promote
            .reads_first
            .as_deref()
            .unwrap_or("")
            .contains("one write in 1000"),
        "{:?}",
        promote.reads_first
    );
    assert!(
        promote.reason.contains("`since` = now + 60s"),
        "{}",
        promote.reason
    );
    // queries.cql gives each its own rate (after the logged batch of the
    // three tables): the counter runs on cold keys' writes, the promotion
    // once per hot key (68.3k over 3 years: 2.6/h).
    let q = d.queries_cql();
    assert!(
        q.contains("-- @name record_play_2 @rate 396/s\nUPDATE growth.plays_by_episode_key_rows"),
        "{q}"
    );
    assert!(
        q.contains("@rate 2.6/h\nINSERT INTO growth.plays_by_episode_widths"),
        "{q}"
    );
    assert!(q.contains("-- @name plays_by_episode_count_check @rate 23.76/min\nSELECT count FROM growth.plays_by_episode_key_rows WHERE episode_id = ?;"), "{q}");
}

#[test]
fn the_read_path_reads_the_widths_then_walks_periods_newest_first() {
    let d = growth(&fixture("stats.toml"));
    let q = d
        .queries
        .iter()
        .find(|q| q.name == "plays_of_episode")
        .unwrap_or_else(|| panic!("no plays_of_episode"));
    assert_eq!(
        q.cql.as_deref(),
        Some(
            "SELECT play_id, listener_id, played_at, seconds FROM growth.plays_by_episode WHERE episode_id = ? AND bucket = ? LIMIT 100"
        )
    );
    let notes = q.notes.join("\n");
    assert!(
        notes.contains("per-key widths: reads `plays_by_episode_widths` first")
            && notes.contains("a page costs the typical key 2 statement(s), the hottest 3 (with one `minute` width: 1.58M and 2)")
            && !notes.contains("reads the newest minute bucket"),
        "{notes}"
    );
    assert!(d.queries_cql().contains(
        "-- @name plays_by_episode_widths_for_read @rate 50/s\nSELECT since, width FROM growth.plays_by_episode_widths WHERE episode_id = ?;"
    ));
    let plan = d
        .per_key
        .iter()
        .find(|p| p.table == "plays_by_episode")
        .unwrap_or_else(|| panic!("{:?}", d.per_key));
    let b = plan
        .built
        .as_ref()
        .unwrap_or_else(|| panic!("not built: {:?}", plan.not_built));
    assert_eq!((b.typical_statements, b.hottest_statements), (2, 3));
    assert_eq!((b.coarse.as_str(), b.fine.as_str()), ("none", "minute"));
}

#[test]
fn every_part_of_the_hybrid_shows_in_the_decisions_report_and_json() {
    let d = growth(&fixture("stats.toml"));
    let said = table(&d, "plays_by_episode").decisions.join("\n");
    assert!(
        said.contains("sizing, per key: the design builds a width per key: every key starts at width `none`")
            && said.contains("the 68.3k keys over 100k rows at 3y (by the distribution; 80.2% of the rows) are promoted to `minute`")
            && said.contains("With one width instead: one width for every key, the hottest key's `minute`")
            && !said.contains("Not built"),
        "{said}"
    );
    let report = report_md(&d);
    assert!(
        report.contains("| `plays_by_episode` | `minute` | 100 | 36.1, 1.58M → 1 (`none`) | 20.8G, 2 → 2 (`minute`) | 68.3k (over 100k) | 2, 3 |"),
        "{report}"
    );
    assert!(report.contains("  - the promotion: `INSERT INTO growth.plays_by_episode_widths (episode_id, since, width) VALUES (?, ?, 'minute')`"), "{report}");
    assert!(
        report.contains("### `plays_by_episode_widths`")
            && report.contains("### `plays_by_episode_key_rows`"),
        "{report}"
    );
    assert!(
        report.contains("| plays_of_episode | `plays_by_episode` | 2, 36, 36 | 3, 13190, 100 |"),
        "{report}"
    );
    assert!(
        report.contains("so the design builds a width per key: `none` until a key passes 100k rows, `minute` after"),
        "{report}"
    );
    let j = json(&d);
    let p = j["per_key"]
        .as_array()
        .and_then(|a| a.iter().find(|p| p["table"] == "plays_by_episode"))
        .unwrap_or_else(|| panic!("no per_key in design.json"));
    assert_eq!(p["built"]["widths_table"], "plays_by_episode_widths");
    assert_eq!(p["built"]["check_one_in"], 1000);
    assert_eq!(p["built"]["counter_writes_per_second"], 396.0);
    assert_eq!(p["not_built"], serde_json::Value::Null);
    let tables: Vec<&str> = j["tables"]
        .as_array()
        .map(|a| a.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default();
    assert!(
        tables.contains(&"plays_by_episode_widths")
            && tables.contains(&"plays_by_episode_key_rows")
    );
}

#[test]
fn the_hybrid_cql_is_accepted_and_the_design_reviews_without_errors() {
    let d = growth(&fixture("stats.toml"));
    let parsed = cqlmodel_cql::parse(&d.schema_cql());
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let build = cqlmodel_schema::build_schema(0, &parsed.statements);
    assert!(build.errors.is_empty(), "{:?}", build.errors);
    let b = d
        .per_key
        .iter()
        .find_map(|p| p.built.clone())
        .unwrap_or_else(|| panic!("nothing built"));
    let mut cqls: Vec<(String, String)> = record_play(&d)
        .iter()
        .map(|s| (s.table.clone(), s.cql.clone()))
        .collect();
    cqls.push((b.widths_table.clone(), b.writer_read_cql.clone()));
    cqls.push((b.widths_table.clone(), b.reader_read_cql.clone()));
    cqls.push((b.rows_table.clone(), b.check_cql.clone()));
    for (t, cql) in &cqls {
        let st = cqlmodel_cql::parse(cql);
        assert!(st.errors.is_empty(), "{cql}: {:?}", st.errors);
        let first = st.statements.first().unwrap_or_else(|| panic!("{cql}"));
        let path = cqlmodel_schema::access::analyze(&build.schema, first, Some("growth"));
        assert!(path.error.is_none(), "{cql}: {:?}", path.error);
        assert!(!path.needs_allow_filtering, "{cql}");
        assert_eq!(path.table.as_deref(), Some(format!("growth.{t}").as_str()));
    }
    let errors: Vec<_> = d.review.iter().filter(|f| f.severity == "error").collect();
    assert!(errors.is_empty(), "{errors:?}");
    // The bookkeeping table is sized as what it is, not flagged unbounded.
    assert!(
        !d.review
            .iter()
            .any(|f| format!("{f:?}").contains("plays_by_episode_widths")),
        "{:?}",
        d.review
    );
}

#[test]
fn evenly_spread_keys_build_no_widths_table() {
    let even = fixture("stats.toml").replace(
        "[table.plays.column.episode_id]\ndistribution = \"zipf(1.1)\"",
        "[table.plays.column.episode_id]\ndistribution = \"uniform\"",
    );
    let d = growth(&even);
    assert!(
        !names(&d)
            .iter()
            .any(|n| n.ends_with("_widths") || n.ends_with("_key_rows")),
        "{:?}",
        names(&d)
    );
}
