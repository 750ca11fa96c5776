//! One horizon for the whole design (issue 10 §5): a cascade's children per
//! parent grow over the same age the tables are sized at (3 years by
//! default, `--horizon`, or the entity's own `horizon`), and the text says
//! which horizon and why. The write paths once fell back to the statistics
//! crate's 1-year default when the statistics gave no horizon.

mod common;

use common::{design_fixture, path};

/// Posts are a fixed catalogue; favorites grow with no retention.
const STATS: &str = "[table.posts]\nrows = 1000000\n\n[table.favorites]\nrows_per_second = 20\n";

/// The repeat of `delete_post`'s statement on `favorites_by_user_and_post`:
/// the cascade into the favorites of the deleted post.
fn cascade(d: &cqlmodel_design::Design) -> String {
    let p = path(d, "delete_post");
    p.statements
        .iter()
        .find(|s| s.table == "favorites_by_user_and_post")
        .and_then(|s| s.repeat.clone())
        .unwrap_or_else(|| panic!("{:#?}", p.statements))
}

#[test]
fn a_cascade_grows_its_children_over_the_designs_default_horizon() {
    let d = design_fixture("blog", Some(STATS), None);
    let r = cascade(&d);
    // 20/s × 3 × 365 days over 1M posts.
    assert!(
        r.contains("at most 1.89k rows per `posts` (stats: 20/s over 3y (no retention: the design's horizon, default);"),
        "{r}"
    );
}

#[test]
fn a_given_horizon_or_the_entitys_own_is_named() {
    let five_years = 5 * 365 * 86_400;
    let r = cascade(&design_fixture("blog", Some(STATS), Some(five_years)));
    assert!(
        r.contains("(stats: 20/s over 5y (no retention: the design's horizon, --horizon);"),
        "{r}"
    );
    let own = format!("{STATS}horizon = \"365d\"\n");
    let r = cascade(&design_fixture("blog", Some(&own), Some(five_years)));
    assert!(
        r.contains("at most 631 rows per `posts` (stats: 20/s over 1y (no retention: the statistics' `horizon`);"),
        "{r}"
    );
}

/// The write-path stage called with statistics that give no horizon (not
/// loaded by the design, which fills it in): the design's horizon still
/// bounds the cascade, not a default of its own.
#[test]
fn the_write_stage_sizes_at_the_horizon_it_is_given() {
    let d = design_fixture("blog", Some(STATS), None);
    let mut stats = d.entity_stats.clone().unwrap_or_default();
    for t in stats.tables.values_mut() {
        t.horizon = None;
    }
    let (mut model, mut specs) = (d.model.clone(), d.specs.clone());
    let meaning = cqlmodel_design::meaning::decide(&mut model, &mut specs);
    let paths = cqlmodel_design::writes::write_paths(
        &model,
        &specs,
        &meaning,
        &d.tables,
        "blog",
        (Some(&stats), &d.horizon),
        &mut Vec::new(),
    );
    let r = cascade(&cqlmodel_design::Design {
        write_paths: paths,
        ..d
    });
    assert!(
        r.contains("at most 1.89k rows per `posts` (stats: 20/s over 3y"),
        "{r}"
    );
}
