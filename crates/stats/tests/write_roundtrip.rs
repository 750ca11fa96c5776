//! `to_toml` writes statistics that `load_stats` reads back as the same value.

mod common;

use std::collections::BTreeMap;

use common::{schema, stats};
use cqlmodel_schema::Schema;
use cqlmodel_stats::{
    BucketUnit, ColumnStats, Distribution, QueryStats, Retention, Stats, TableStats, Thresholds,
    Volume, load_stats, to_toml,
};
use proptest::collection::{btree_map, vec};
use proptest::num::f64::{NORMAL, POSITIVE, SUBNORMAL, ZERO};
use proptest::option;
use proptest::prelude::*;
use proptest::sample::{select, subsequence};

/// Reads `text`, failing the test with the loader's errors and the text.
fn reload(text: &str, schema: &Schema) -> Stats {
    match load_stats(text, schema) {
        Ok(s) => s,
        Err(errors) => panic!("written statistics must load: {errors:#?}\n--- written:\n{text}"),
    }
}

/// Load, write, load again: the same statistics, and writing them again gives
/// the same text.
fn assert_example_round_trips(cql: &str, toml: &str) {
    let schema = schema(cql);
    let loaded = stats(&schema, toml);
    let written = to_toml(&loaded);
    let reloaded = reload(&written, &schema);
    assert_eq!(reloaded, loaded, "--- written:\n{written}");
    assert_eq!(to_toml(&reloaded), written);
}

#[test]
fn the_iot_example_round_trips() {
    assert_example_round_trips(
        include_str!("../../../examples/iot.cql"),
        include_str!("../../../examples/iot-stats.toml"),
    );
}

#[test]
fn the_orders_example_round_trips() {
    assert_example_round_trips(
        include_str!("../../../examples/orders.cql"),
        include_str!("../../../examples/orders-stats.toml"),
    );
}

const SOCIAL: &str = "
CREATE KEYSPACE social WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
CREATE TABLE social.posts_by_author (
    author_id uuid,
    day       date,
    post_id   timeuuid,
    title     text,
    tags      set<text>,
    PRIMARY KEY ((author_id, day), post_id)
) WITH CLUSTERING ORDER BY (post_id DESC);
CREATE TABLE social.post_by_id (
    post_id   timeuuid PRIMARY KEY,
    author_id uuid,
    body      text
);
CREATE TABLE social.followers (
    user_id     uuid,
    follower_id uuid,
    PRIMARY KEY (user_id, follower_id)
);
";

/// Statistics as `cqlmodel design` builds them for the tables it generates.
fn social_design_stats() -> Stats {
    let posts_by_author = TableStats {
        volume: Volume::Growth {
            rows_per_second: 2_000_000.0 / 86_400.0,
        },
        retention: Retention::Seconds(365 * 86_400),
        query_span: Some(7 * 86_400),
        request_rate: Some(1_200.5),
        columns: BTreeMap::from([
            (
                "author_id".to_string(),
                ColumnStats {
                    distinct: Some(1_000_000.0),
                    distribution: Some(Distribution::Zipf { exponent: 0.8 }),
                    ..ColumnStats::default()
                },
            ),
            (
                "day".to_string(),
                ColumnStats {
                    bucket: Some(BucketUnit::Day),
                    ..ColumnStats::default()
                },
            ),
            (
                "post_id".to_string(),
                ColumnStats {
                    distribution: Some(Distribution::Time {
                        per_second: 1.0 / 3_600.0,
                    }),
                    ..ColumnStats::default()
                },
            ),
            (
                "title".to_string(),
                ColumnStats {
                    avg_size: Some(40.0),
                    p99_size: Some(120.0),
                    max_size: Some(300.0),
                    ..ColumnStats::default()
                },
            ),
            (
                "tags".to_string(),
                ColumnStats {
                    avg_elements: Some(3.0),
                    max_elements: Some(20.0),
                    element_size: Some(10.5),
                    ..ColumnStats::default()
                },
            ),
        ]),
        ..TableStats::default()
    };
    let post_by_id = TableStats {
        volume: Volume::Fixed { rows: 50_000_000.0 },
        retention: Retention::Unbounded,
        request_rate: Some(3_000.0),
        columns: BTreeMap::from([(
            "post_id".to_string(),
            ColumnStats {
                distribution: Some(Distribution::Sequential),
                ..ColumnStats::default()
            },
        )]),
        ..TableStats::default()
    };
    let followers = TableStats {
        horizon: Some(2 * 365 * 86_400),
        columns: BTreeMap::from([(
            "user_id".to_string(),
            ColumnStats {
                distinct: Some(1_000_000.0),
                distribution: Some(Distribution::Uniform),
                ..ColumnStats::default()
            },
        )]),
        ..TableStats::default()
    };
    let query = |table: Option<&str>, rate: f64, span: Option<u64>| QueryStats {
        table: table.map(str::to_string),
        rate_per_second: Some(rate),
        span,
    };
    Stats {
        tables: BTreeMap::from([
            ("social.posts_by_author".to_string(), posts_by_author),
            ("social.post_by_id".to_string(), post_by_id),
            ("social.followers".to_string(), followers),
        ]),
        queries: BTreeMap::from([
            (
                "Q1_posts_of_author".to_string(),
                query(Some("social.posts_by_author"), 1_200.5, Some(86_400)),
            ),
            (
                "Q2_post_by_id".to_string(),
                query(Some("social.post_by_id"), 3_000.0, None),
            ),
            ("feed refresh".to_string(), query(None, 0.25, None)),
        ]),
        thresholds: Thresholds {
            partition_bytes: 100.0 * 1_048_576.0,
            partition_rows: Thresholds::DEFAULT_ROWS,
        },
    }
}

#[test]
fn a_written_design_file_reads_back_as_what_was_written() {
    let stats = social_design_stats();
    let written = to_toml(&stats);
    insta::assert_snapshot!(written);
    assert_eq!(reload(&written, &schema(SOCIAL)), stats);
}

#[test]
fn values_the_file_cannot_hold_are_left_out_and_the_rest_still_loads() {
    let mut stats = social_design_stats();
    stats.thresholds.partition_rows = f64::NAN;
    if let Some(t) = stats.tables.get_mut("social.posts_by_author") {
        t.volume = Volume::Fixed { rows: -1.0 };
        t.retention = Retention::Seconds(0);
        t.columns.insert(
            "author_id".into(),
            ColumnStats {
                distinct: Some(0.5),
                distribution: Some(Distribution::Zipf { exponent: 20.0 }),
                avg_size: Some(f64::INFINITY),
                ..ColumnStats::default()
            },
        );
        t.columns.insert(
            "post_id".into(),
            ColumnStats {
                distribution: Some(Distribution::Time { per_second: 0.0 }),
                ..ColumnStats::default()
            },
        );
    }
    let written = to_toml(&stats);
    for left_out in [
        "partition_rows",
        "rows = -",
        "retention = 0",
        "distinct = 0",
        "zipf",
        "inf",
        "NaN",
        "time(",
    ] {
        assert!(
            !written.contains(left_out),
            "`{left_out}` must be left out:\n{written}"
        );
    }
    let reloaded = reload(&written, &schema(SOCIAL));
    let t = &reloaded.tables["social.posts_by_author"];
    assert_eq!(t.volume, Volume::Unspecified);
    assert_eq!(t.retention, Retention::TableDefault);
    assert_eq!(t.columns["author_id"], ColumnStats::default());
    assert_eq!(reloaded.thresholds.partition_rows, Thresholds::DEFAULT_ROWS);
}

#[test]
fn request_rates_come_back_from_the_queries_not_from_a_field() {
    let mut stats = social_design_stats();
    let written = to_toml(&stats);
    assert!(!written.contains("request_rate"), "{written}");
    // A request rate no query accounts for has no spelling in the file.
    if let Some(t) = stats.tables.get_mut("social.followers") {
        t.request_rate = Some(10.0);
    }
    let reloaded = reload(&to_toml(&stats), &schema(SOCIAL));
    assert_eq!(reloaded.tables["social.followers"].request_rate, None);
    assert_eq!(
        reloaded.tables["social.posts_by_author"].request_rate,
        Some(1_200.5)
    );
}

// ---- Generated schemas and statistics -------------------------------------------

/// Where a generated table lives: two keyspaces sharing a table name (so only the
/// qualified names written are unambiguous) and a case-sensitive (quoted) name.
const PLACES: [(&str, &str); 4] = [
    ("app", "events"),
    ("app", "users"),
    ("logs", "events"),
    ("logs", "DailyTotals"),
];
const PARTITION_TYPES: [&str; 6] = ["text", "int", "bigint", "date", "timestamp", "uuid"];
const CLUSTERING_TYPES: [&str; 4] = ["timestamp", "timeuuid", "int", "text"];
const REGULAR_TYPES: [&str; 5] = ["text", "double", "list<text>", "map<text, int>", "blob"];
const QUERY_NAMES: [&str; 5] = ["Q1", "Q2_by_day", "ingest", "last 24h", "q-3"];

#[derive(Debug, Clone)]
struct ColumnSpec {
    name: String,
    cql_type: &'static str,
    partition_key: bool,
}

#[derive(Debug, Clone)]
struct TableSpec {
    keyspace: &'static str,
    name: &'static str,
    partition: Vec<ColumnSpec>,
    clustering: Vec<ColumnSpec>,
    regular: Vec<ColumnSpec>,
}

impl TableSpec {
    fn qualified(&self) -> String {
        format!("{}.{}", self.keyspace, self.name)
    }

    fn columns(&self) -> impl Iterator<Item = &ColumnSpec> {
        self.partition
            .iter()
            .chain(&self.clustering)
            .chain(&self.regular)
    }

    fn cql(&self) -> String {
        let columns: Vec<String> = self
            .columns()
            .map(|c| format!("{} {}", ident(&c.name), c.cql_type))
            .collect();
        let names = |cs: &[ColumnSpec]| {
            cs.iter()
                .map(|c| ident(&c.name))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut key = format!("({})", names(&self.partition));
        if !self.clustering.is_empty() {
            key = format!("{key}, {}", names(&self.clustering));
        }
        format!(
            "CREATE TABLE {}.{} ({}, PRIMARY KEY ({key}));\n",
            self.keyspace,
            ident(self.name),
            columns.join(", ")
        )
    }
}

/// A CQL identifier: quoted unless it is a plain lower-case name.
fn ident(name: &str) -> String {
    let plain = name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if plain {
        name.to_string()
    } else {
        format!("\"{}\"", name.replace('"', "\"\""))
    }
}

fn schema_cql(tables: &[TableSpec]) -> String {
    let mut cql = String::new();
    for ks in ["app", "logs"] {
        cql.push_str(&format!(
            "CREATE KEYSPACE {ks} WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}};\n"
        ));
    }
    for t in tables {
        cql.push_str(&t.cql());
    }
    cql
}

fn column_specs(prefix: &str, types: Vec<&'static str>, partition_key: bool) -> Vec<ColumnSpec> {
    types
        .into_iter()
        .enumerate()
        .map(|(i, cql_type)| ColumnSpec {
            // One regular column with a name that must be quoted in CQL and TOML.
            name: if prefix == "r" && i == 1 {
                "Mixed Case".to_string()
            } else {
                format!("{prefix}{i}")
            },
            cql_type,
            partition_key,
        })
        .collect()
}

fn table_specs() -> impl Strategy<Value = Vec<TableSpec>> {
    let shape = (
        vec(select(&PARTITION_TYPES[..]), 1..=2),
        vec(select(&CLUSTERING_TYPES[..]), 0..=2),
        vec(select(&REGULAR_TYPES[..]), 0..=3),
    );
    (
        subsequence(PLACES.to_vec(), 1..=PLACES.len()),
        vec(shape, PLACES.len()),
    )
        .prop_map(|(places, shapes)| {
            places
                .into_iter()
                .zip(shapes)
                .map(|((keyspace, name), (p, c, r))| TableSpec {
                    keyspace,
                    name,
                    partition: column_specs("p", p, true),
                    clustering: column_specs("c", c, false),
                    regular: column_specs("r", r, false),
                })
                .collect()
        })
}

/// Finite, non-negative: small integers, fractions, and anything an f64 holds
/// up to the loader's cap of 1e18 (subnormals included; 1e300 is refused).
fn non_negative() -> impl Strategy<Value = f64> {
    prop_oneof![
        (0u64..2_000_000).prop_map(|v| v as f64),
        0.0f64..1e6,
        (POSITIVE | ZERO | NORMAL | SUBNORMAL).prop_filter("at most 1e18", |v| *v <= 1e18),
    ]
}

fn positive() -> impl Strategy<Value = f64> {
    prop_oneof![
        (1u64..2_000_000).prop_map(|v| v as f64),
        (POSITIVE | NORMAL | SUBNORMAL).prop_filter("at most 1e18", |v| *v <= 1e18),
    ]
}

fn at_least_one() -> impl Strategy<Value = f64> {
    prop_oneof![
        (1u64..2_000_000).prop_map(|v| v as f64),
        (POSITIVE | NORMAL)
            .prop_filter("at least 1, at most 1e18", |v| { (1.0..=1e18).contains(v) }),
    ]
}

/// Seconds as the loader gives them: whole units, any whole number an f64 holds
/// exactly, and `u64::MAX` (a huge number of seconds saturates).
fn duration() -> impl Strategy<Value = u64> {
    prop_oneof![
        (
            1u64..1_000,
            select(&[1u64, 60, 3_600, 86_400, 604_800, 31_536_000][..])
        )
            .prop_map(|(n, unit)| n * unit),
        1u64..(1 << 53),
        (1.0f64..1e19).prop_map(|f| f.round() as u64),
        Just(u64::MAX),
    ]
}

fn distribution() -> impl Strategy<Value = Distribution> {
    prop_oneof![
        Just(Distribution::Uniform),
        Just(Distribution::Sequential),
        prop_oneof![
            (1u32..=100).prop_map(|k| f64::from(k) / 10.0),
            (POSITIVE | NORMAL | SUBNORMAL).prop_filter("(0, 10]", |s| *s <= 10.0),
        ]
        .prop_map(|exponent| Distribution::Zipf { exponent }),
        prop_oneof![
            Just(1.0),
            (1u32..=1_000, select(&[1.0, 60.0, 3_600.0, 86_400.0][..]))
                .prop_map(|(n, unit)| f64::from(n) / unit),
            positive(),
        ]
        .prop_map(|per_second| Distribution::Time { per_second }),
    ]
}

fn volume() -> impl Strategy<Value = Volume> {
    prop_oneof![
        Just(Volume::Unspecified),
        non_negative().prop_map(|rows| Volume::Fixed { rows }),
        non_negative().prop_map(|rows_per_second| Volume::Growth { rows_per_second }),
        // As `rows_per_day` reads.
        non_negative().prop_map(|per_day| Volume::Growth {
            rows_per_second: per_day / 86_400.0
        }),
    ]
}

fn retention() -> impl Strategy<Value = Retention> {
    prop_oneof![
        Just(Retention::TableDefault),
        Just(Retention::Unbounded),
        duration().prop_map(Retention::Seconds),
    ]
}

fn column_stats(partition_key: bool) -> impl Strategy<Value = ColumnStats> {
    let bucket = if partition_key {
        option::of(select(&BucketUnit::COARSEST_FIRST[..])).boxed()
    } else {
        Just(None).boxed()
    };
    (
        option::of(at_least_one()),
        option::of(distribution()),
        [
            option::of(non_negative()),
            option::of(non_negative()),
            option::of(non_negative()),
            option::of(non_negative()),
            option::of(non_negative()),
            option::of(non_negative()),
        ],
        bucket,
    )
        .prop_map(|(distinct, distribution, sizes, bucket)| {
            let [
                avg_size,
                p99_size,
                max_size,
                avg_elements,
                max_elements,
                element_size,
            ] = sizes;
            // The loader refuses an average or p99 above the maximum.
            let below = |v: Option<f64>, max: Option<f64>| match (v, max) {
                (Some(v), Some(max)) => Some(v.min(max)),
                (v, _) => v,
            };
            ColumnStats {
                distinct,
                distribution,
                avg_size: below(avg_size, max_size),
                p99_size: below(p99_size, max_size),
                max_size,
                avg_elements: below(avg_elements, max_elements),
                max_elements,
                element_size,
                bucket,
            }
        })
}

fn table_stats(spec: &TableSpec) -> impl Strategy<Value = TableStats> + use<> {
    let columns: Vec<_> = spec
        .columns()
        .map(|c| {
            let name = c.name.clone();
            option::weighted(0.7, column_stats(c.partition_key))
                .prop_map(move |stats| stats.map(|s| (name.clone(), s)))
        })
        .collect();
    (
        volume(),
        retention(),
        option::of(duration()),
        option::of(duration()),
        columns,
    )
        .prop_map(|(volume, retention, horizon, query_span, columns)| {
            let mut columns: BTreeMap<String, ColumnStats> =
                columns.into_iter().flatten().collect();
            // The loader refuses more distinct values than a fixed table has rows.
            if let Volume::Fixed { rows } = volume {
                for c in columns.values_mut() {
                    c.distinct = c.distinct.map(|d| d.min(rows)).filter(|d| *d >= 1.0);
                }
            }
            TableStats {
                volume,
                retention,
                horizon,
                query_span,
                columns,
                ..TableStats::default()
            }
        })
}

fn thresholds() -> impl Strategy<Value = Thresholds> {
    let bytes = prop_oneof![
        Just(Thresholds::DEFAULT_BYTES),
        Just(100.0 * 1_048_576.0),
        (1u32..1_000).prop_map(|mb| f64::from(mb) * 1e6),
        positive(),
    ];
    let rows = prop_oneof![Just(Thresholds::DEFAULT_ROWS), positive()];
    (bytes, rows).prop_map(|(partition_bytes, partition_rows)| Thresholds {
        partition_bytes,
        partition_rows,
    })
}

fn queries(tables: Vec<String>) -> impl Strategy<Value = BTreeMap<String, QueryStats>> {
    let table = if tables.is_empty() {
        Just(None).boxed()
    } else {
        option::of(select(tables)).boxed()
    };
    let query = (option::of(non_negative()), table, option::of(duration())).prop_map(
        |(rate_per_second, table, span)| QueryStats {
            rate_per_second,
            table,
            span,
        },
    );
    btree_map(
        select(&QUERY_NAMES[..]).prop_map(str::to_string),
        query,
        0..=4,
    )
}

/// What the loader adds from the queries: each table a query names gets the sum of
/// their rates (in name order, as the loader adds them) and the widest span.
fn with_queries_attached(mut stats: Stats) -> Stats {
    for query in stats.queries.values() {
        if let Some(table) = &query.table {
            let entry = stats.tables.entry(table.clone()).or_default();
            if let Some(rate) = query.rate_per_second {
                entry.request_rate = Some(entry.request_rate.unwrap_or(0.0) + rate);
            }
            if let Some(span) = query.span {
                entry.query_span = Some(entry.query_span.map_or(span, |s| s.max(span)));
            }
        }
    }
    stats
}

fn schema_and_stats() -> impl Strategy<Value = (String, Stats)> {
    table_specs().prop_flat_map(|specs| {
        let tables: Vec<_> = specs
            .iter()
            .map(|spec| {
                let name = spec.qualified();
                option::weighted(0.8, table_stats(spec))
                    .prop_map(move |t| t.map(|t| (name.clone(), t)))
            })
            .collect();
        let names = specs.iter().map(TableSpec::qualified).collect();
        (
            Just(schema_cql(&specs)),
            tables,
            queries(names),
            thresholds(),
        )
            .prop_map(|(cql, tables, queries, thresholds)| {
                let stats = Stats {
                    tables: tables.into_iter().flatten().collect(),
                    queries,
                    thresholds,
                };
                (cql, with_queries_attached(stats))
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn generated_statistics_round_trip((cql, stats) in schema_and_stats()) {
        let schema = schema(&cql);
        let written = to_toml(&stats);
        let reloaded = reload(&written, &schema);
        prop_assert_eq!(&reloaded, &stats, "--- written:\n{}", written);
        prop_assert_eq!(to_toml(&reloaded), written);
    }
}
