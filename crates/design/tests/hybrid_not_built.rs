//! Where the per-key hybrid is not sound, it is not built, and the design
//! says why (issue 10: nothing the designer decides is silent). On the
//! growth fixture (a real `pg_dump --schema-only` of tests/data/growth/
//! ddl.sql) with few episodes: 2,000 plays a second over ~9,500 episodes
//! give the typical episode 2.58M plays at the horizon, so it needs a width
//! of its own (`month`) and a cold key's one partition would not be bounded
//! by the threshold. (A salt or a second bucket in the partition key, the
//! other reason, no real input reaches today: sizing makes a per-key plan
//! only where one time bucket alone joins the key; plan/hybrid_tests.rs
//! covers it on a hand-built table.)

mod common;

use common::{design_fixture, fixture_in};
use cqlmodel_design::{Design, json, report_md};

fn fixture(name: &str) -> String {
    fixture_in("growth", name)
}

/// The growth fixture with episodes published once in ~3 hours instead of
/// twice a second: few episodes, each with many plays.
fn few_episodes() -> Design {
    let stats = fixture("stats.toml").replace(
        "[table.episodes]\nrows_per_second = 2\n",
        "[table.episodes]\nrows_per_second = 0.0001\n",
    );
    assert_ne!(
        stats,
        fixture("stats.toml"),
        "the fixture's episodes rate moved"
    );
    design_fixture("growth", Some(&stats), None)
}

const WHY: &str = "not built: the typical key itself needs a `month` width, so a key's one partition before promotion would not be bounded by the threshold; the design writes and reads one width";

#[test]
fn a_typical_key_that_needs_its_own_width_gets_no_hybrid_and_the_plan_says_why() {
    let d = few_episodes();
    let p = d
        .per_key
        .iter()
        .find(|p| p.table == "plays_by_episode")
        .unwrap_or_else(|| panic!("no per-key plan: {:?}", d.per_key));
    assert!(p.built.is_none(), "{:?}", p.built);
    assert_eq!(p.typical.own_width, "month");
    assert_eq!(p.not_built.as_deref(), Some(WHY));
    assert!(p.hybrid.ends_with(WHY), "{}", p.hybrid);
    // No bookkeeping table, by marker or by name.
    assert!(
        d.tables
            .iter()
            .all(|t| t.purpose.hybrid_of().is_none() && !t.name.ends_with("_widths")),
        "{:?}",
        d.tables.iter().map(|t| &t.name).collect::<Vec<_>>()
    );
}

#[test]
fn the_table_keeps_its_one_width_and_its_decision_names_the_alternative_not_built() {
    let d = few_episodes();
    let t = d
        .tables
        .iter()
        .find(|t| t.name == "plays_by_episode")
        .unwrap_or_else(|| panic!("no plays_by_episode"));
    // The bucket keeps its width's name: nothing was prepared for a hybrid.
    assert!(
        t.columns.iter().any(|c| c.name == "minute"),
        "{:?}",
        t.columns
    );
    assert!(!t.columns.iter().any(|c| c.name == "bucket"));
    let decision = t
        .decisions
        .iter()
        .find(|d| d.starts_with("sizing, per key:"))
        .unwrap_or_else(|| panic!("{:?}", t.decisions));
    assert!(
        decision.starts_with("sizing, per key: the design chooses one width for every key, the hottest key's `minute`")
            && decision.contains("The alternative: a width per key")
            && decision.ends_with(WHY),
        "{decision}"
    );
    // The read walks its one width's buckets, and its cost says so.
    let q = d
        .queries
        .iter()
        .find(|q| q.name == "plays_of_episode")
        .unwrap_or_else(|| panic!("no plays_of_episode"));
    assert!(
        !q.notes.iter().any(|n| n.starts_with("per-key widths")),
        "{:?}",
        q.notes
    );
    let cost = d
        .key_costs
        .iter()
        .find(|c| c.query == "plays_of_episode")
        .unwrap_or_else(|| panic!("no cost"));
    assert!(
        cost.note
            .starts_with("one `minute` width for every key: a page walks"),
        "{}",
        cost.note
    );
}

#[test]
fn json_and_report_carry_not_built() {
    let d = few_episodes();
    let j = json(&d);
    let p = j["per_key"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["table"] == "plays_by_episode"))
        .unwrap_or_else(|| panic!("no per_key in json"));
    assert_eq!(p["not_built"], WHY);
    assert!(p["built"].is_null());
    let md = report_md(&d);
    assert!(md.contains(WHY), "{md}");
}
