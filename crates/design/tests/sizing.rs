//! Placement and sizing (issue 10 §2, §4, §5) on the sizing fixture, a real
//! `pg_dump --schema-only` of tests/data/sizing/ddl.sql: point reads are not
//! salted, statics survive salting and bucketing, small tables are read
//! whole, and growth is sized at a stated horizon.

mod common;

use common::{decisions, design_fixture, fixture_in, json_query, path, query};
use cqlmodel_design::{Design, DesignInput, json, report_md};

fn fixture(name: &str) -> String {
    fixture_in("sizing", name)
}

fn sizing_with(stats: Option<&str>) -> Design {
    design_fixture("sizing", stats, None)
}

fn sizing() -> Design {
    sizing_with(Some(&fixture("stats.toml")))
}

/// The CREATE TABLE statement of `table` in schema.cql.
fn create_table(d: &Design, table: &str) -> String {
    let schema = d.schema_cql();
    let head = format!("CREATE TABLE IF NOT EXISTS sizing.{table} (");
    let start = schema
        .find(&head)
        .unwrap_or_else(|| panic!("schema.cql has no {table}:\n{schema}"));
    let rest = &schema[start..];
    rest[..rest.find(';').unwrap_or(rest.len())].to_string()
}

#[test]
fn a_point_read_by_the_full_key_is_not_routed_to_a_salted_table() {
    let d = sizing();
    // The list of a channel's members is salted (a few channels hold most members)…
    let members = query(&d, "channel_members");
    assert_eq!(members.table.as_deref(), Some("memberships_by_channel"));
    assert!(
        members
            .cql
            .as_deref()
            .is_some_and(|c| c.contains("salt = ?"))
    );
    // …but the membership check binds channel and member: one partition.
    let point = query(&d, "is_member");
    assert_eq!(
        point.cql.as_deref(),
        Some(
            "SELECT joined_at FROM sizing.memberships_by_channel_and_member WHERE channel_id = ? AND member_id = ?"
        )
    );
    assert_eq!((point.partitions, point.statements), (Some(1), 1));
    assert!(
        create_table(&d, "memberships_by_channel_and_member")
            .contains("PRIMARY KEY ((channel_id, member_id))")
    );
    assert!(
        decisions(&d, "memberships_by_channel").contains(
            "is_member reads one row by its full key: served by `memberships_by_channel_and_member` (one partition), not by this table's 64 salt buckets"
        ),
        "{}",
        decisions(&d, "memberships_by_channel")
    );
    let j = json(&d);
    assert_eq!(
        json_query(&j, "is_member")["table"],
        "memberships_by_channel_and_member"
    );
    assert!(report_md(&d).contains("serves the point read is_member"));
    assert!(d.queries_cql().contains(
        "-- @name is_member @rate 3000/s\nSELECT joined_at FROM sizing.memberships_by_channel_and_member"
    ));
}

#[test]
fn statics_leave_a_salted_or_bucketed_table_for_the_entitys_own_table() {
    let d = sizing();
    // No static in a split table: a new bucket would start without it.
    for table in ["memberships_by_channel", "channel_events_by_channel"] {
        let create = create_table(&d, table);
        assert!(!create.contains("STATIC"), "{create}");
        assert!(!create.contains("title"), "{create}");
        let why = decisions(&d, table);
        assert!(
            why.contains("kept once in the owning entity's table instead: `title` in `channel_by_id` (write fan-out: 1 statement per change"),
            "{why}"
        );
    }
    assert!(decisions(&d, "memberships_by_channel").contains("64 statements per change"));
    assert!(
        decisions(&d, "channel_events_by_channel")
            .contains("one per `hour` bucket ever written, unbounded without retention")
    );
    // The value lives once, by the channel's key.
    let own = create_table(&d, "channel_by_id");
    assert!(
        own.contains("title ") && own.contains("PRIMARY KEY (channel_id)"),
        "{own}"
    );
    let rename = path(&d, "rename_channel");
    let cqls: Vec<&str> = rename.statements.iter().map(|s| s.cql.as_str()).collect();
    assert_eq!(
        cqls,
        ["UPDATE sizing.channel_by_id SET title = ? WHERE channel_id = ?"]
    );
    // The read names the second partition it reads and counts it.
    let members = query(&d, "channel_members");
    assert!(
        members
            .notes
            .iter()
            .any(|n| n.starts_with("`title` is read from `channel_by_id` by the `channels` key")),
        "{:?}",
        members.notes
    );
    assert_eq!(members.partitions, Some(65));
    let j = json(&d);
    // 25 `hour` buckets, the channel's row and the per-key widths read first.
    assert_eq!(json_query(&j, "channel_timeline")["partitions"], 27);
}

#[test]
fn a_small_bounded_table_is_read_whole_from_one_constant_partition() {
    let d = sizing();
    let plans = query(&d, "list_plans");
    assert_eq!(
        plans.cql.as_deref(),
        Some("SELECT plan_code, title, monthly_cents FROM sizing.all_plans WHERE bucket = 0")
    );
    assert_eq!(
        (plans.partitions, plans.off_path.is_none()),
        (Some(1), true)
    );
    let create = create_table(&d, "all_plans");
    assert!(create.contains("bucket        int,"), "{create}");
    assert!(
        create.contains("PRIMARY KEY (bucket, plan_code)"),
        "{create}"
    );
    let why = decisions(&d, "all_plans");
    assert!(
        why.contains("the statistics bound it to 12 rows (at most 10000 for a table read whole)"),
        "{why}"
    );
    assert!(
        why.contains("sizing: the one partition holds every row, 12 rows")
            && why.contains("within the partition limits"),
        "{why}"
    );
    assert_eq!(
        query(&d, "list_countries").table.as_deref(),
        Some("all_countries")
    );
    // The write path keeps the whole table in step.
    let add = path(&d, "add_plan");
    assert!(
        add.statements.iter().any(|s| s
            .cql
            .starts_with("INSERT INTO sizing.all_plans (bucket, plan_code")),
        "{:#?}",
        add.statements
    );
    let j = json(&d);
    assert_eq!(json_query(&j, "list_plans")["table"], "all_plans");
    assert!(report_md(&d).contains("| list_plans | `all_plans` | 1 |"));
}

#[test]
fn without_statistics_no_bound_is_known_and_the_scan_stays_off_the_path() {
    let d = sizing_with(None);
    let plans = query(&d, "list_plans");
    assert!(plans.table.is_none());
    assert!(
        plans
            .off_path
            .as_ref()
            .is_some_and(|o| o.reason.starts_with("no equality predicate")),
        "{plans:?}"
    );
}

#[test]
fn growth_with_no_retention_is_sized_at_a_stated_horizon() {
    let d = sizing();
    assert_eq!(d.horizon.seconds, cqlmodel_design::DEFAULT_HORIZON);
    let why = decisions(&d, "channel_events_by_channel");
    assert!(
        why.contains(
            "sizing: partitions exceed partition-bytes, partition-rows, at the 3y (default) horizon"
        ),
        "{why}"
    );
    assert!(
        report_md(&d).contains("Growth with no retention is sized at a horizon of 3y (default)")
    );
    let j = json(&d);
    assert_eq!(j["horizon"]["text"], "3y");
    assert_eq!(j["horizon"]["source"], "default");
    // A fixed-size entity is not aged.
    assert!(!decisions(&d, "all_plans").contains("horizon"));

    let (model, queries, stats) = (
        fixture("model.sql"),
        fixture("queries.sql"),
        fixture("stats.toml"),
    );
    let input = DesignInput {
        keyspace: "sizing",
        model_sql: &model,
        queries_sql: Some(&queries),
        stats_toml: Some(&stats),
    };
    let one_year = 365 * 86_400;
    let short = cqlmodel_design::design_with(
        &input,
        &cqlmodel_design::DesignOptions {
            horizon: Some(one_year),
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        decisions(&short, "channel_events_by_channel").contains("at the 1y (--horizon) horizon"),
        "{}",
        decisions(&short, "channel_events_by_channel")
    );
    assert_eq!(json(&short)["horizon"]["source"], "--horizon");
    // The designed stats.toml carries the horizon to `review --stats` and `size`.
    let carried = short
        .table_stats
        .tables
        .get("sizing.channel_events_by_channel")
        .and_then(|t| t.horizon);
    assert_eq!(carried, Some(one_year));
}

#[test]
fn each_read_costs_the_typical_and_the_hottest_key() {
    let d = sizing();
    let cost = |name: &str| {
        d.key_costs
            .iter()
            .find(|c| c.query == name)
            .unwrap_or_else(|| panic!("no cost for {name}"))
    };
    // The hour bucket fits the hottest channel; one width would make a
    // typical channel walk many nearly empty buckets to fill the same page
    // of 50, so the channel gets a width per key: a cold channel reads the
    // widths and its one partition.
    let timeline = cost("channel_timeline");
    assert!(timeline.skew > 100.0, "{timeline:?}");
    assert_eq!(timeline.typical.partitions, 2, "{timeline:?}");
    assert_eq!(timeline.hottest.rows_read, 50.0);
    assert!(
        timeline
            .note
            .starts_with("a width per key (built), a range"),
        "{}",
        timeline.note
    );
    // A point read costs one row for every key.
    let point = cost("is_member");
    assert_eq!(
        (point.typical.rows_read, point.hottest.rows_read),
        (1.0, 1.0)
    );
    assert_eq!(
        point.note,
        "one row per partition: every key costs the same"
    );
    let j = json(&d);
    let members = &json_query(&j, "channel_members")["cost"];
    assert!(
        members["hottest"]["rows_per_partition"].as_f64()
            > members["typical"]["rows_per_partition"].as_f64(),
        "{members}"
    );
    let md = report_md(&d);
    assert!(md.contains("## Cost per key: typical and hottest"));
    assert!(
        md.contains("| is_member | `memberships_by_channel_and_member` | 1, 1, 1 | 1, 1, 1 | 1× |"),
        "{md}"
    );
    // Without statistics nothing is sized and no cost is claimed.
    let bare = sizing_with(None);
    assert!(bare.key_costs.is_empty());
    assert!(json(&bare)["queries"][0]["cost"].is_null());
}

/// The video example's likes concentrate on a few videos: the largest need
/// more salt buckets than the cap. The need the warning states is the fewest
/// salt whose partitions fit, counted here from the size command's estimate
/// of the capped table (a salt of 64 splits each key's rows evenly).
#[test]
fn a_salt_need_is_the_fewest_that_fits_not_the_next_power_of_two() {
    let d = common::design_example("video");
    let schema_text = d.schema_cql();
    let schema =
        cqlmodel_schema::build_schema(0, &cqlmodel_cql::parse(&schema_text).statements).schema;
    let table = schema
        .table("video", "video_likes_by_video")
        .unwrap_or_else(|| panic!("{schema_text}"));
    let ts = &d.table_stats.tables["video.video_likes_by_video"];
    let e = cqlmodel_stats::estimate_table(table, ts, &d.table_stats.thresholds);
    let (limits, per_key) = (e.thresholds, e.sizes.rows.max * 64.0);
    let fits = |n: u32| {
        let rows = per_key / f64::from(n);
        rows <= limits.partition_rows && e.formula.bytes(rows) <= limits.partition_bytes
    };
    let need = (2..=1 << 20).find(|n| fits(*n)).unwrap_or(0);
    assert!(need > 64 && !need.is_power_of_two(), "{need}");
    let said = format!(
        "video_likes_by_video: the largest keys need {need} salt buckets; the salt is capped at 64"
    );
    assert!(
        d.warnings.iter().any(|w| w.starts_with(&said)),
        "{said}\n{:?}",
        d.warnings
    );
}
