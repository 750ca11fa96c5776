//! Sizing over the growth horizon (issue 10 §5) on the growth fixture, a real
//! `pg_dump --schema-only` of tests/data/growth/ddl.sql: foreign keys whose
//! parent grows keep their children per parent, a fixed parent's children
//! grow with the horizon, and every assumption is stated.

use std::path::Path;

use cqlmodel_design::{Design, DesignInput, DesignOptions, design_with, json, report_md};

fn fixture(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/growth")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

const YEAR: u64 = 365 * 86_400;

fn growth_at(stats: Option<&str>, horizon: Option<u64>) -> Design {
    let (model, queries) = (fixture("model.sql"), fixture("queries.sql"));
    design_with(
        &DesignInput {
            keyspace: "growth",
            model_sql: &model,
            queries_sql: Some(&queries),
            stats_toml: stats,
        },
        &DesignOptions { horizon },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

fn growth() -> Design {
    growth_at(Some(&fixture("stats.toml")), None)
}

fn decisions(d: &Design, table: &str) -> String {
    d.tables
        .iter()
        .find(|t| t.name == table)
        .unwrap_or_else(|| panic!("no table {table}"))
        .decisions
        .join("\n")
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
