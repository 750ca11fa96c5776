//! The key and size rules never panic and always point inside the reviewed text,
//! whatever the table shapes, names, types, indexes, updates and statistics.

mod common_keys;

use common_keys::{KEY_RULES, review_with};
use proptest::prelude::*;

const NAMES: &[&str] = &[
    "id",
    "user_id",
    "email",
    "status",
    "day",
    "month",
    "bucket",
    "salt",
    "ts",
    "created_at",
    "device_id",
    "country",
    "is_active",
    "payload",
    "tags",
    "events",
    "amount",
    "v",
];
const SCALARS: &[&str] = &[
    "text",
    "int",
    "bigint",
    "uuid",
    "timeuuid",
    "timestamp",
    "date",
    "boolean",
    "blob",
    "decimal",
    "tinyint",
];
const COLLECTIONS: &[&str] = &["list<text>", "set<int>", "map<text, int>"];

#[derive(Debug, Clone)]
struct Shape {
    /// (name, type, is collection)
    columns: Vec<(String, String, bool)>,
    partition: usize,
    clustering: usize,
    ttl: bool,
    index: Option<(usize, bool)>,
    update: Option<(usize, bool, u32)>,
    stats: Option<(u32, u32)>,
}

fn shape() -> impl Strategy<Value = Shape> {
    (
        proptest::sample::subsequence(NAMES.to_vec(), 2..7),
        proptest::collection::vec((0..SCALARS.len(), 0..COLLECTIONS.len(), any::<bool>()), 7),
        1usize..3,
        0usize..3,
        any::<bool>(),
        proptest::option::of((0usize..7, any::<bool>())),
        proptest::option::of((0usize..7, any::<bool>(), 1u32..5000)),
        proptest::option::of((1u32..100_000, 1u32..10_000)),
    )
        .prop_map(
            |(names, types, partition, clustering, ttl, index, update, stats)| {
                let n = names.len();
                let partition = partition.min(n - 1).max(1);
                let clustering = clustering.min(n - partition);
                let columns = names
                    .iter()
                    .zip(types)
                    .enumerate()
                    .map(|(i, (name, (s, c, coll)))| {
                        // Key columns are never collections.
                        let collection = coll && i >= partition + clustering;
                        let ty = if collection {
                            COLLECTIONS[c]
                        } else {
                            SCALARS[s]
                        };
                        ((*name).to_string(), ty.to_string(), collection)
                    })
                    .collect();
                Shape {
                    columns,
                    partition,
                    clustering,
                    ttl,
                    index,
                    update,
                    stats,
                }
            },
        )
}

fn render(shape: &Shape) -> (String, String, Option<String>) {
    let key = shape.partition + shape.clustering;
    let cols: Vec<String> = shape
        .columns
        .iter()
        .map(|(n, t, _)| format!("{n} {t}"))
        .collect();
    let pk: Vec<&str> = shape.columns[..shape.partition]
        .iter()
        .map(|c| c.0.as_str())
        .collect();
    let ck: Vec<&str> = shape.columns[shape.partition..key]
        .iter()
        .map(|c| c.0.as_str())
        .collect();
    let mut primary = format!("({})", pk.join(", "));
    for c in &ck {
        primary.push_str(", ");
        primary.push_str(c);
    }
    let mut schema = format!(
        "CREATE KEYSPACE ks WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 3}};\n\
         CREATE TABLE ks.t ({}, PRIMARY KEY ({primary})){};\n",
        cols.join(", "),
        if shape.ttl {
            " WITH default_time_to_live = 3600"
        } else {
            ""
        }
    );
    let regular: Vec<&(String, String, bool)> = shape.columns[key..].iter().collect();
    let mut queries = String::new();
    if let Some((i, sai)) = shape.index
        && let Some((name, ty, collection)) = regular.get(i % regular.len().max(1))
    {
        let sai =
            sai && !collection && matches!(ty.as_str(), "text" | "int" | "uuid" | "timestamp");
        let using = if sai { " USING 'sai'" } else { "" };
        schema.push_str(&format!("CREATE INDEX t_idx ON ks.t ({name}){using};\n"));
        if !collection {
            queries.push_str(&format!(
                "-- @name by_index @rate 10/s\nSELECT * FROM ks.t WHERE {name} = ?;\n"
            ));
        }
    }
    if let Some((i, append, rate)) = shape.update
        && let Some((name, ty, _)) = regular.get(i % regular.len().max(1))
    {
        let set = if append && ty.starts_with("list") {
            format!("{name} = {name} + ?")
        } else {
            format!("{name} = ?")
        };
        let key_eq: Vec<String> = shape.columns[..key]
            .iter()
            .map(|c| format!("{} = ?", c.0))
            .collect();
        queries.push_str(&format!(
            "-- @name change @rate {rate}/s\nUPDATE ks.t SET {set} WHERE {};\n",
            key_eq.join(" AND ")
        ));
    }
    let stats = shape.stats.map(|(rate, distinct)| {
        format!(
            "[table.\"ks.t\"]\nrows_per_second = {rate}\n[table.\"ks.t\".column.{}]\ndistinct = {distinct}\n",
            shape.columns[0].0
        )
    });
    (schema, queries, stats)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn findings_are_well_formed(shape in shape()) {
        let (schema, queries, stats) = render(&shape);
        let q = (!queries.is_empty()).then_some(queries.as_str());
        let reviewed = review_with(&schema, q, stats.as_deref(), KEY_RULES);
        for d in &reviewed.diagnostics {
            prop_assert!(d.name.as_deref().is_some_and(|n| KEY_RULES.contains(&n)));
            prop_assert!(d.table.is_some(), "every finding names its table: {d:?}");
            let label = d.primary.as_ref();
            prop_assert!(label.is_some(), "every finding points somewhere: {d:?}");
            let text_len = if d.file == Some(0) { schema.len() } else { queries.len() };
            if let Some(l) = label {
                prop_assert!(l.span.start <= l.span.end && l.span.end <= text_len, "{d:?}");
            }
            if let Some(fix) = d.fix.as_ref().and_then(|f| f.replacement.as_deref()) {
                let parsed = cqlmodel_cql::parse(fix);
                prop_assert!(parsed.errors.is_empty(), "a fix is CQL that parses:\n{fix}\n{:?}", parsed.errors);
            }
        }
    }
}
