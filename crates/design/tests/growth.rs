//! Sizing over the growth horizon (issue 10 §5) on the growth fixture, a real
//! `pg_dump --schema-only` of tests/data/growth/ddl.sql: foreign keys whose
//! parent grows keep their children per parent, a fixed parent's children
//! grow with the horizon, and every assumption is stated.

mod common;

use common::{decisions, design_fixture, fixture_in, query};
use cqlmodel_design::{Design, json, report_md};

fn fixture(name: &str) -> String {
    fixture_in("growth", name)
}

const YEAR: u64 = 365 * 86_400;

fn growth_at(stats: Option<&str>, horizon: Option<u64>) -> Design {
    design_fixture("growth", stats, horizon)
}

fn growth() -> Design {
    growth_at(Some(&fixture("stats.toml")), None)
}

fn rows_read(d: &Design, query: &str) -> f64 {
    d.queries
        .iter()
        .find(|q| q.name == query)
        .and_then(|q| q.rows_read)
        .unwrap_or_else(|| panic!("no rows read for {query}"))
}

fn fk_entry<'j>(j: &'j serde_json::Value, fk: &str) -> &'j serde_json::Value {
    j["foreign_key_growth"]
        .as_array()
        .and_then(|a| {
            a.iter().find(|g| {
                format!(
                    "{}.{}",
                    g["entity"].as_str().unwrap_or(""),
                    g["column"].as_str().unwrap_or("")
                ) == fk
            })
        })
        .unwrap_or_else(|| panic!("design.json has no foreign_key_growth for {fk}"))
}

#[test]
fn children_of_a_growing_parent_stay_as_many_per_parent_at_any_horizon() {
    // Topics come with their episode: 8/s against 2/s is 4 per episode, in
    // year one as in year five. The statistics' distinct count (63M, one
    // year's episodes) kept fixed would make it 12 at 3y and 20 at 5y.
    for years in [1, 3, 5] {
        let d = growth_at(Some(&fixture("stats.toml")), Some(years * YEAR));
        assert_eq!(rows_read(&d, "topics_of_episode"), 4.0, "at {years}y");
        let said = decisions(&d, "episode_topics_by_episode");
        assert!(
            said.contains("`episode_topics.episode_id` refers to `episodes`, which grows too")
                && said.contains(
                    "the statistics' `distinct = 63M` is one moment's count and is not kept fixed"
                )
                && said.contains(
                    "each `episodes` has about 4 `episode_topics` rows however old the data"
                ),
            "{said}"
        );
        assert!(said.contains("largest partition 4 rows"), "{said}");
    }
}

#[test]
fn the_report_and_json_list_every_foreign_key_assumption() {
    let d = growth();
    let report = report_md(&d);
    assert!(
        report.contains("### Foreign keys over the horizon"),
        "{report}"
    );
    assert!(
        report.contains(
            "| `episode_topics.episode_id` | `episodes` | constant, 4 | 189M (63M) | 3y |"
        ),
        "{report}"
    );
    // A fixed catalogue of shows: each show's episodes grow with the age.
    assert!(
        report.contains("| `episodes.show_id` | `shows` | growing, 1.89k | 100k (100k) | 3y |"),
        "{report}"
    );
    let j = json(&d);
    let topics = fk_entry(&j, "episode_topics.episode_id");
    assert_eq!(topics["per_parent"], "constant");
    assert_eq!(topics["children_per_parent"], 4.0);
    assert_eq!(topics["given_distinct"], 63_000_000.0);
    assert_eq!(topics["distinct"], 189_216_000.0);
    let shows = fk_entry(&j, "episodes.show_id");
    assert_eq!(shows["per_parent"], "growing");
}

#[test]
fn children_of_a_fixed_parent_grow_with_the_horizon() {
    let per_show = |years: u64| {
        let d = growth_at(Some(&fixture("stats.toml")), Some(years * YEAR));
        let j = json(&d);
        fk_entry(&j, "episodes.show_id")["children_per_parent"]
            .as_f64()
            .unwrap_or(0.0)
    };
    let (one, three) = (per_show(1), per_show(3));
    assert!(
        (three / one - 3.0).abs() < 1e-9,
        "{one} at 1y, {three} at 3y"
    );
    let d = growth();
    let said = decisions(&d, "episodes_by_show");
    assert!(
        said.contains("`episodes.show_id` refers to `shows`, which does not grow in the statistics (100k values): each `shows` gathers more `episodes` rows with time, about 1.89k at 3y"),
        "{said}"
    );
}

#[test]
fn without_statistics_nothing_is_assumed_about_foreign_keys() {
    let d = growth_at(None, None);
    assert!(d.foreign_key_growth.is_empty());
    assert!(!report_md(&d).contains("Foreign keys over the horizon"));
}

#[test]
fn a_read_by_time_alone_gets_the_coarsest_bucket_that_fits_and_salt_only_for_its_write_rate() {
    // 2,000 plays a second all land in the current bucket: a day holds
    // 173M rows, an hour 7.2M, a minute 120k (over 100k rows): minute
    // buckets, salted in 2 for the rows and for the 2,000/s of writes.
    let d = growth();
    let said = decisions(&d, "plays_by_minute");
    assert!(
        said.contains("a `minute` bucket holds 2000 rows/s × 60 s = 120k rows")
            && said.contains("salt 2 (hash of `play_id` % 2) joins the bucket: one bucket's rows need 2; 2000/s writes over the 1000/s one partition takes need 2")
            && said.contains("a page of 100 newest rows reads 1 bucket (one more because the newest bucket has only just begun) × 2 salt partition(s): at most 4 statements"),
        "{said}"
    );
    let schema = d.schema_cql();
    assert!(
        schema.contains("PRIMARY KEY ((minute, salt), played_at, play_id)"),
        "{schema}"
    );
    // The page walks 2 buckets of the day the range spans, not all 1,441.
    let recent = query(&d, "recent_plays");
    assert_eq!(recent.table.as_deref(), Some("plays_by_minute"));
    assert_eq!((recent.partitions, recent.statements), (Some(4), 4));
    assert!(
        recent
            .notes
            .iter()
            .any(|n| n.contains("it reads 2 of the 1441 buckets a 1d range spans")),
        "{:?}",
        recent.notes
    );
    let j = json(&d);
    let q = j["queries"]
        .as_array()
        .and_then(|qs| qs.iter().find(|q| q["name"] == "recent_plays"))
        .unwrap_or_else(|| panic!("no recent_plays in design.json"));
    assert_eq!(q["statements"], 4);
}

#[test]
fn a_slow_entity_read_by_time_alone_gets_a_coarse_bucket_and_no_salt() {
    // A hundred times fewer plays: a day of 1.73M rows is over the limit,
    // an hour of 72k fits, and 20/s needs no salt.
    let slow = fixture("stats.toml").replace(
        "[table.plays]\nrows_per_second = 2000",
        "[table.plays]\nrows_per_second = 20",
    );
    let d = growth_at(Some(&slow), Some(YEAR));
    let said = decisions(&d, "plays_by_hour");
    assert!(
        said.contains("an `hour` bucket holds 20 rows/s × 3600 s = 72k rows"),
        "{said}"
    );
    assert!(
        said.contains("no salt: 20/s writes are within the 1000/s one partition takes"),
        "{said}"
    );
    assert!(
        d.schema_cql()
            .contains("PRIMARY KEY (hour, played_at, play_id)"),
        "{}",
        d.schema_cql()
    );
    assert_eq!(query(&d, "recent_plays").statements, 2);
}

fn off_path(d: &Design, name: &str) -> (String, String) {
    let q = query(d, name);
    assert_eq!(q.table, None, "{name} got a table");
    let o = q
        .off_path
        .as_ref()
        .unwrap_or_else(|| panic!("{name} is not off the path"));
    (o.reason.clone(), o.alternative.clone())
}

#[test]
fn a_whole_table_read_nothing_bounds_is_refused_with_the_assumption_named() {
    // Statistics that do not describe the genres: no bound is assumed.
    let d = growth();
    let (reason, alternative) = off_path(&d, "list_genres");
    assert!(
        reason.contains("a read of every `genres` row, and the statistics file does not describe `genres`; the design does not assume it small"),
        "{reason}"
    );
    assert!(
        alternative.contains("give it `rows = N` (at most 10000) in the statistics file"),
        "{alternative}"
    );
    assert!(report_md(&d).contains("the statistics file does not describe `genres`"));
    let j = json(&d);
    let q = j["queries"]
        .as_array()
        .and_then(|qs| qs.iter().find(|q| q["name"] == "list_genres"))
        .unwrap_or_else(|| panic!("no list_genres in design.json"));
    assert!(
        q["off_path"]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("does not assume it small")),
        "{q}"
    );
    // No statistics file at all.
    let (reason, _) = off_path(&growth_at(None, None), "list_genres");
    assert!(
        reason.contains("and no statistics file bounds it"),
        "{reason}"
    );
    // Statistics that give more rows than a partition read whole may hold.
    let big = format!("{}\n[table.genres]\nrows = 50000\n", fixture("stats.toml"));
    let (reason, _) = off_path(&growth_at(Some(&big), None), "list_genres");
    assert!(
        reason.contains(
            "the statistics give it 50000 rows, over the 10000 a table read whole may hold"
        ),
        "{reason}"
    );
}

#[test]
fn a_whole_table_read_the_statistics_bound_is_one_partition() {
    let small = format!("{}\n[table.genres]\nrows = 60\n", fixture("stats.toml"));
    let d = growth_at(Some(&small), None);
    let q = query(&d, "list_genres");
    assert_eq!(q.table.as_deref(), Some("all_genres"));
    assert_eq!(q.partitions, Some(1));
    assert!(
        decisions(&d, "all_genres").contains("the statistics bound it to 60 rows"),
        "{}",
        decisions(&d, "all_genres")
    );
}

#[test]
fn a_width_that_fits_only_the_hottest_key_states_the_per_key_trade_off() {
    // Plays concentrate on hit episodes (zipf 1.1): the hottest episode needs
    // minute buckets, the typical one (36 plays in 3 years) none at all.
    let d = growth();
    let plan = d
        .per_key
        .iter()
        .find(|p| p.table == "plays_by_episode")
        .unwrap_or_else(|| panic!("no per-key plan: {:?}", d.per_key));
    assert_eq!(plan.width, "minute");
    assert_eq!(plan.page, 100);
    assert_eq!(plan.threshold_rows, 100_000.0);
    // The typical key walks every minute of 3 years; on its own width it reads one partition.
    assert_eq!(plan.typical.statements_one_width, 1_576_800);
    assert_eq!(
        (
            plan.typical.own_width.as_str(),
            plan.typical.statements_own_width
        ),
        ("none", 1)
    );
    assert_eq!(plan.hottest.statements_one_width, 2);
    // The keys over the threshold come from the distribution.
    let hot = plan.hot_keys.unwrap_or(0.0);
    assert!((60_000.0..80_000.0).contains(&hot), "{hot}");
    let said = decisions(&d, "plays_by_episode");
    assert!(
        said.contains(
            "With one width instead: one width for every key, the hottest key's `minute`"
        ) && said.contains("`plays_by_episode_widths` (key, `since` DESC, `width`)")
            && said.contains("the design builds a width per key"),
        "{said}"
    );
    let report = report_md(&d);
    assert!(report.contains("### Per-key strategies"), "{report}");
    assert!(
        report.contains("| `plays_by_episode` | `minute` | 100 | 36.1, 1.58M → 1 (`none`) |"),
        "{report}"
    );
    // The cost table says what the built hybrid costs: the widths read and one partition.
    assert!(
        report.contains("| plays_of_episode | `plays_by_episode` | 2, 36, 36 | "),
        "{report}"
    );
    let j = json(&d);
    let p = j["per_key"]
        .as_array()
        .and_then(|a| a.iter().find(|p| p["table"] == "plays_by_episode"))
        .unwrap_or_else(|| panic!("design.json has no per_key for plays_by_episode"));
    assert_eq!(p["typical"]["statements_one_width"], 1_576_800);
    assert_eq!(p["hottest"]["own_width"], "minute");
}

#[test]
fn evenly_spread_keys_need_no_per_key_strategy() {
    let even = fixture("stats.toml").replace(
        "[table.plays.column.episode_id]\ndistribution = \"zipf(1.1)\"",
        "[table.plays.column.episode_id]\ndistribution = \"uniform\"",
    );
    let d = growth_at(Some(&even), None);
    assert!(
        d.per_key.iter().all(|p| p.table != "plays_by_episode"),
        "{:?}",
        d.per_key
    );
    assert!(!report_md(&d).contains("`plays_by_episode` | `"));
}

#[test]
fn the_growth_design_reviews_without_errors_at_every_horizon() {
    // Before reads by time alone were sized, plays_by_day took salt 64 and
    // still held 2.7M rows a partition, and the design's own review reported
    // an error.
    for horizon in [None, Some(YEAR), Some(5 * YEAR)] {
        let d = growth_at(Some(&fixture("stats.toml")), horizon);
        let errors: Vec<_> = d.review.iter().filter(|f| f.severity == "error").collect();
        assert!(errors.is_empty(), "at {horizon:?}: {errors:?}");
    }
}

#[test]
fn a_foreign_key_from_an_entity_that_expires_keeps_its_given_count_and_says_so() {
    let expiring = fixture("stats.toml").replace(
        "[table.episode_topics]\nrows_per_second = 8\nretention = \"unbounded\"",
        "[table.episode_topics]\nrows_per_second = 8\nretention = \"365d\"",
    );
    let d = growth_at(Some(&expiring), None);
    let said = decisions(&d, "episode_topics_by_episode");
    assert!(
        said.contains("`episode_topics.episode_id` refers to `episodes`, which grows, but one side expires (retention)")
            && said.contains("the statistics' count (63M values) is kept as given"),
        "{said}"
    );
    let j = json(&d);
    assert_eq!(
        fk_entry(&j, "episode_topics.episode_id")["per_parent"],
        "given"
    );
}
