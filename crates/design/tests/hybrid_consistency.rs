//! The built per-key hybrid says the same thing everywhere (issue 10:
//! nothing the designer decides is silent): a hybrid read's own figures
//! count what the application runs (the widths read and the partitions it
//! walks), as its cost per key and its notes do; the verdict weighs the
//! hybrid's bookkeeping at the rate it runs; the bookkeeping tables carry
//! their purpose. And a fan-out write names the table it lists its rows from.

mod common;

use common::{design_example, design_fixture, fixture_in, json_query, query};
use cqlmodel_design::derive::TablePurpose;
use cqlmodel_design::verdict::{VerdictInput, verdict, verdict_md};
use cqlmodel_design::{Design, json, report_md};

/// A fixture under tests/data with its own statistics.
fn with_stats(dir: &str) -> Design {
    design_fixture(dir, Some(&fixture_in(dir, "stats.toml")), None)
}

fn growth() -> Design {
    with_stats("growth")
}

#[test]
fn a_hybrid_page_read_counts_the_widths_read_and_the_hottest_keys_walk() {
    let d = growth();
    let q = query(&d, "plays_of_episode");
    // The hottest episode: the widths read, then 2 `minute` buckets.
    assert_eq!((q.statements, q.partitions), (3, Some(3)));
    assert_eq!(q.rows_read, Some(100.0));
    let cost = d
        .key_costs
        .iter()
        .find(|c| c.query == "plays_of_episode")
        .unwrap_or_else(|| panic!("no cost"));
    assert_eq!((cost.typical.partitions, cost.hottest.partitions), (2, 3));
    assert_eq!(Some(cost.hottest.partitions), q.partitions);
    // A cold episode's one partition holds all its rows, at the bytes a row
    // takes in the hottest episode's `minute` buckets.
    let per_row = cost.hottest.bytes_per_partition / cost.hottest.rows_per_partition;
    let cold = per_row * cost.typical.rows_per_partition;
    assert!(
        (cost.typical.bytes_per_partition - cold).abs() / cold < 0.05,
        "{cost:?}"
    );
    let notes = q.notes.join("\n");
    assert!(
        notes.contains("the read's `statements` and `partitions` are the hottest key's 3, the widths read included"),
        "{notes}"
    );
    let j = json(&d);
    let jq = json_query(&j, "plays_of_episode");
    assert_eq!(
        (jq["statements"].clone(), jq["partitions"].clone()),
        (3.into(), 3.into())
    );
    assert_eq!(jq["cost"]["hottest"]["partitions"], 3);
    let md = report_md(&d);
    assert!(
        md.contains("| plays_of_episode | `plays_by_episode` | 3 | 100 | 50/s |")
            && md.contains("- partitions per execution: 3 (3 statements, one per partition)"),
        "{}",
        md.lines()
            .filter(|l| l.contains("plays_of_episode"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn a_hybrid_range_read_counts_the_widths_read_and_a_cold_key_reads_one_partition() {
    let d = with_stats("sizing");
    let q = query(&d, "channel_timeline");
    // 25 `hour` buckets the range spans, the widths read before them (and
    // the channel's title from its own table: a partition, no statement here).
    assert_eq!((q.statements, q.partitions), (26, Some(27)));
    assert!(
        q.notes.iter().any(|n| n.contains(
            "the read's `statements` and `partitions` count the widths read and the range's buckets"
        )),
        "{:?}",
        q.notes
    );
    let cost = d
        .key_costs
        .iter()
        .find(|c| c.query == "channel_timeline")
        .unwrap_or_else(|| panic!("no cost"));
    // A cold channel: the widths read and its one partition, not the 19
    // nearly empty `hour` buckets one width would make it walk.
    assert_eq!(cost.typical.partitions, 2);
    assert_eq!(cost.hottest.partitions, 2);
    // The read's rows are the hottest key's page, as its cost says.
    assert_eq!(q.rows_read, Some(cost.hottest.rows_read));
    assert!(
        cost.note.starts_with(
            "a width per key (built), a range: a page reads `channel_events_by_channel_widths`"
        ) && !cost.note.contains("is not designed here"),
        "{}",
        cost.note
    );
}

#[test]
fn the_verdict_weighs_the_hybrids_bookkeeping_at_the_rate_it_runs() {
    let d = growth();
    let plan = d
        .per_key
        .iter()
        .find_map(|p| p.built.as_ref())
        .unwrap_or_else(|| panic!("no hybrid built"));
    let input = VerdictInput::from_design(&d);
    let w = input
        .writes
        .iter()
        .find(|w| w.name == "record_play")
        .unwrap_or_else(|| panic!("no record_play"));
    let path = d
        .write_paths
        .iter()
        .find(|w| w.name == "record_play")
        .unwrap_or_else(|| panic!("no record_play path"));
    let bookkeeping = [&plan.count_cql, &plan.promote_cql];
    let plain = path
        .statements
        .iter()
        .filter(|s| !bookkeeping.contains(&&s.cql))
        .count() as f64;
    // The counter runs on the cold keys' writes, the promotion once per hot
    // key: each counted at its share, not as a row on every write.
    assert!(
        plan.counter_share > 0.0 && plan.counter_share < 1.0,
        "{plan:?}"
    );
    assert!(
        plan.promotion_share > 0.0 && plan.promotion_share < 0.001,
        "{plan:?}"
    );
    let expected = plain + plan.counter_share + plan.promotion_share;
    assert!(
        (w.rows - expected).abs() < 1e-9,
        "{} against {expected}",
        w.rows
    );
    assert_eq!(w.weighted.len(), 2, "{:?}", w.weighted);
    let md = verdict_md(&verdict(&d));
    assert!(
        md.contains("bookkeeping counted at the share of writes it runs on: `plays_by_episode_key_rows` counter increment (cold keys' writes) on")
            && md.contains("`plays_by_episode_widths` promotion (once per hot key) on <0.1% of its path's writes"),
        "{md}"
    );
    // design.json carries the shares with the rest of the build.
    let j = json(&d);
    let built = j["per_key"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| !p["built"].is_null()))
        .unwrap_or_else(|| panic!("no built plan in json"));
    assert!(built["built"]["counter_share"].is_number());
    assert!(built["built"]["promotion_share"].is_number());
}

#[test]
fn the_bookkeeping_tables_carry_their_purpose_in_the_model_and_the_json() {
    let d = growth();
    let purpose = |name: &str| {
        d.tables
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.purpose.clone())
            .unwrap_or_else(|| panic!("no table {name}"))
    };
    assert_eq!(
        purpose("plays_by_episode_widths"),
        TablePurpose::HybridWidths {
            of: "plays_by_episode".into()
        }
    );
    assert_eq!(
        purpose("plays_by_episode_key_rows"),
        TablePurpose::HybridKeyRows {
            of: "plays_by_episode".into()
        }
    );
    assert_eq!(purpose("plays_by_episode"), TablePurpose::Data);
    let j = json(&d);
    let table = |name: &str| {
        j["tables"]
            .as_array()
            .and_then(|ts| ts.iter().find(|t| t["name"] == name))
            .unwrap_or_else(|| panic!("no table {name} in json"))
            .clone()
    };
    assert_eq!(
        table("plays_by_episode_widths")["purpose"],
        serde_json::json!({"role": "hybrid_widths", "of": "plays_by_episode"})
    );
    assert_eq!(
        table("plays_by_episode_key_rows")["purpose"],
        serde_json::json!({"role": "hybrid_key_rows", "of": "plays_by_episode"})
    );
    // An ordinary table says nothing: the marker shows where it matters.
    assert!(table("plays_by_episode").get("purpose").is_none());
}

#[test]
fn a_fan_out_write_names_the_table_it_lists_its_rows_from() {
    let d = design_example("activity");
    let path = d
        .write_paths
        .iter()
        .find(|w| w.name == "erase_user_activities")
        .unwrap_or_else(|| panic!("no erase_user_activities"));
    let listed: Vec<_> = path
        .statements
        .iter()
        .filter(|s| s.repeat.is_some() && !s.reads.is_empty())
        .collect();
    assert!(!listed.is_empty(), "{path:?}");
    for s in listed {
        assert!(
            s.reads
                .iter()
                .all(|r| r.table.as_deref() == Some("activities_by_user")),
            "{:?}",
            s.reads
        );
        let first = s.reads_first.as_deref().unwrap_or_default();
        assert!(
            first.ends_with("the rows are listed from `activities_by_user`, the user_id's partitions: each `day` bucket that can hold rows"),
            "{first}"
        );
    }
}

/// The tables the writes add carry what they are for: a claim of a UNIQUE
/// key, an entity's row of record, a lookup; each serves no read.
#[test]
fn tables_added_for_the_writes_carry_their_purpose() {
    let d = with_stats("verdict-ledger");
    let t = d
        .tables
        .iter()
        .find(|t| t.name == "customers_by_email")
        .unwrap_or_else(|| panic!("no customers_by_email"));
    assert_eq!(t.purpose, TablePurpose::Claim);
    assert!(t.queries.is_empty(), "{:?}", t.queries);
    assert!(
        t.decisions
            .iter()
            .any(|x| x.starts_with("claims the UNIQUE (email)")),
        "{:?}",
        t.decisions
    );
    let d = design_example("video");
    let purpose = |name: &str| {
        d.tables
            .iter()
            .find(|t| t.name == name)
            .map(|t| (t.purpose.clone(), t.queries.is_empty()))
            .unwrap_or_else(|| panic!("no table {name}"))
    };
    assert_eq!(purpose("comment_by_id"), (TablePurpose::Record, true));
    assert_eq!(
        purpose("video_likes_by_video"),
        (TablePurpose::Lookup, true)
    );
    assert_eq!(purpose("view_count_by_video").0, TablePurpose::Counters);
    assert_eq!(purpose("videos_by_tag_name").0, TablePurpose::Data);
}
