//! The hybrid's not-built path where no real input reaches it today: sizing
//! makes a per-key plan only where one time bucket alone joins the key, so
//! a salt or a second bucket in the partition key is built here by hand.

use super::*;
use crate::plan::per_key::KeyWidth;

fn attr(column: &str) -> ColRef {
    ColRef {
        entity: "plays".into(),
        column: column.into(),
    }
}

fn column(name: &str, cql_type: &str, role: Role, part: KeyPart) -> TableColumn {
    TableColumn {
        name: name.into(),
        cql_type: cql_type.into(),
        role,
        part,
    }
}

/// `plays_by_episode` with `extra` after its key and its `minute` bucket.
fn table(extra: Option<KeyPart>) -> TableDesign {
    let bucket = KeyPart::Bucket(attr("played_at"), "minute".into());
    let mut partition_key = vec![KeyPart::Attr(attr("episode_id")), bucket.clone()];
    let mut columns = vec![
        column(
            "episode_id",
            "uuid",
            Role::PartitionKey,
            KeyPart::Attr(attr("episode_id")),
        ),
        column("minute", "timestamp", Role::PartitionKey, bucket),
        column(
            "played_at",
            "timestamp",
            Role::ClusteringDesc,
            KeyPart::Attr(attr("played_at")),
        ),
    ];
    if let Some(part) = extra {
        partition_key.push(part.clone());
        columns.insert(0, column("salt", "int", Role::PartitionKey, part));
    }
    TableDesign {
        name: "plays_by_episode".into(),
        entity: "plays".into(),
        grain: vec!["plays".into()],
        kind: TableKind::Table,
        purpose: TablePurpose::Data,
        partition_key,
        clustering: vec![(KeyPart::Attr(attr("played_at")), true)],
        columns,
        queries: vec!["plays_of_episode".into()],
        decisions: vec![
            "sizing, per key: one width for every key, the hottest key's `minute`".into(),
        ],
        compaction: "SizeTieredCompactionStrategy".into(),
        compaction_reason: String::new(),
        ttl: None,
        classes: Vec::new(),
        ordered: 1,
        ann: Vec::new(),
        value_set: false,
    }
}

fn side(rows: f64, own_width: &str) -> KeyWidth {
    KeyWidth {
        rows,
        rows_per_bucket: rows / 1_000.0,
        statements_one_width: 1_000,
        own_width: own_width.into(),
        statements_own_width: 1,
    }
}

fn plan(typical_width: &str) -> PerKeyPlan {
    PerKeyPlan {
        table: "plays_by_episode".into(),
        width: "minute".into(),
        page: 100,
        threshold_rows: 100_000.0,
        hot_keys: Some(40.0),
        hot_share: Some(0.7),
        typical: side(36.0, typical_width),
        hottest: side(5e8, "minute"),
        live: 94_608_000,
        one_width: "one width for every key".into(),
        chosen: "one width for every key".into(),
        hybrid: "a width per key".into(),
        built: None,
        not_built: None,
    }
}

/// prepare, then build, as the design runs them; the plan and the tables.
fn run(p: PerKeyPlan, t: TableDesign) -> (PerKeyPlan, Vec<TableDesign>) {
    let mut plans = vec![p];
    let mut tables = vec![t];
    let mut stats = cqlmodel_stats::Stats::default();
    let prepared = prepare("ks", &plans, &mut tables, &mut stats);
    build(
        &BuildInput {
            keyspace: "ks",
            prepared: &prepared,
        },
        &mut plans,
        &mut tables,
        &mut stats,
        &mut [],
        &mut [],
        &mut [],
    );
    (plans.remove(0), tables)
}

fn assert_not_built(p: &PerKeyPlan, tables: &[TableDesign], why: &str) {
    assert!(p.built.is_none(), "{p:?}");
    let said = p.not_built.as_deref().unwrap_or_default();
    assert!(said.starts_with(why), "{said}");
    // Only the bucketed table: no bookkeeping, its bucket column unrenamed.
    assert_eq!(tables.len(), 1, "{tables:?}");
    assert!(tables[0].columns.iter().any(|c| c.name == "minute"));
    assert!(tables[0].purpose.hybrid_of().is_none());
    // The table's decision says what was chosen and why the hybrid was not.
    let decision = tables[0]
        .decisions
        .iter()
        .find(|d| d.starts_with("sizing, per key:"))
        .unwrap_or_else(|| panic!("{:?}", tables[0].decisions));
    assert!(
        decision.starts_with("sizing, per key: the design chooses one width for every key. The alternative: a width per key. not built:")
            && decision.contains(why),
        "{decision}"
    );
}

#[test]
fn a_salted_table_keeps_one_width_and_says_why() {
    let (p, tables) = run(plan("none"), table(Some(KeyPart::Salt(4))));
    assert_not_built(
        &p,
        &tables,
        "not built: the table's partition key holds a salt or more than one bucket",
    );
}

#[test]
fn a_second_bucket_keeps_one_width_and_says_why() {
    let second = KeyPart::Bucket(attr("played_at"), "day".into());
    let (p, tables) = run(plan("none"), table(Some(second)));
    assert_not_built(
        &p,
        &tables,
        "not built: the table's partition key holds a salt or more than one bucket",
    );
}

#[test]
fn a_typical_key_needing_its_own_width_keeps_one_width_and_says_why() {
    let (p, tables) = run(plan("month"), table(None));
    assert_not_built(
        &p,
        &tables,
        "not built: the typical key itself needs a `month` width",
    );
}

#[test]
fn the_same_table_without_salt_is_built() {
    let (p, tables) = run(plan("none"), table(None));
    assert!(p.built.is_some(), "{:?}", p.not_built);
    let purposes: Vec<_> = tables.iter().map(|t| t.purpose.clone()).collect();
    assert_eq!(
        purposes,
        [
            TablePurpose::Data,
            TablePurpose::HybridWidths {
                of: "plays_by_episode".into()
            },
            TablePurpose::HybridKeyRows {
                of: "plays_by_episode".into()
            },
        ]
    );
}
