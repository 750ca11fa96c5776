//! Partition sizing checked against hand-computed examples.

mod common;

use common::{HOTEL, IOT_UNBUCKETED, ORDERS, schema, stats, table};
use cqlmodel_stats::{BucketUnit, Exceeded, RecommendationKind, estimate_all, estimate_table};

/// The Cassandra docs' example: 5,000 hotels × 100 rooms × 730 nights, hotel ids of
/// 5 characters. Nv = Nr (4 − 3 − 0) + 0 = 73,000 cells; St = 5 + 0 + 73,000 × (1 + 4 + 2)
/// + 73,000 × 8 = 1,095,005 bytes ("1.1 MB" in the docs).
#[test]
fn cassandra_docs_sizing_example() {
    let schema = schema(HOTEL);
    let stats = stats(
        &schema,
        r#"
        [table.available_rooms_by_hotel_date]
        rows = 365_000_000          # 5,000 hotels × 100 rooms × 730 days
        [table.available_rooms_by_hotel_date.column.hotel_id]
        distinct = 5000
        avg_size = 5
        "#,
    );
    let t = table(&schema, "hotel.available_rooms_by_hotel_date");
    let e = estimate_table(
        t,
        &stats.tables["hotel.available_rooms_by_hotel_date"],
        &stats.thresholds,
    );
    assert_eq!(e.sizes.partitions, 5_000.0);
    assert_eq!(e.sizes.rows.mean, 73_000.0);
    assert_eq!(e.sizes.rows.max, 73_000.0);
    assert_eq!(
        e.sizes.cells.max, 73_000.0,
        "Nv = Nr (Nc − Npk − Ns) + Ns = 1 × Nr"
    );
    let hand = 5.0 + 0.0 + 73_000.0 * (1.0 + 4.0 + 2.0) + 73_000.0 * 8.0;
    assert_eq!(hand, 1_095_005.0);
    assert_eq!(e.sizes.bytes.max, hand);
    assert_eq!(e.formula.row_bytes, 7.0);
    assert!(
        e.exceeds.is_empty(),
        "73,000 rows and 1.1 MB are under both thresholds"
    );
    assert!(e.recommendation.is_none());
}

/// One reading per second per device, `PRIMARY KEY (device_id, ts)`: each partition
/// grows by 86,400 rows a day, to 31,536,000 rows in a year.
#[test]
fn iot_partition_per_device_grows_past_the_thresholds_and_a_day_bucket_fixes_it() {
    let schema = schema(IOT_UNBUCKETED);
    let stats = stats(
        &schema,
        r#"
        [table."iot.temp_by_device"]
        rows_per_second = 10000
        retention = "365d"

        [table."iot.temp_by_device".column.device_id]
        distinct = 10000
        distribution = "uniform"

        [query.Q1]
        rate_per_second = 200
        "#,
    );
    let t = table(&schema, "iot.temp_by_device");
    let e = estimate_table(t, &stats.tables["iot.temp_by_device"], &stats.thresholds);
    let rows_per_year = 86_400.0 * 365.0;
    assert_eq!(e.sizes.partitions, 10_000.0);
    assert_eq!(e.sizes.rows.max, rows_per_year);
    assert_eq!(
        e.sizes.rows.p50, rows_per_year,
        "uniform: every device alike"
    );
    // device_id text (16 B default) + Nr × (ts 8 + temp 8) + Nr × 1 cell × 8.
    assert_eq!(e.sizes.bytes.max, 16.0 + rows_per_year * 24.0);
    assert_eq!(
        e.exceeds,
        vec![Exceeded::PartitionBytes, Exceeded::PartitionRows]
    );

    let growth: Vec<(u64, f64)> = e
        .growth
        .iter()
        .map(|g| (g.age_seconds, g.sizes.rows.max))
        .collect();
    assert_eq!(
        growth,
        vec![
            (86_400, 86_400.0),
            (30 * 86_400, 2_592_000.0),
            (365 * 86_400, rows_per_year)
        ]
    );
    assert!(
        e.growth[0].exceeds.is_empty(),
        "after a day the partition is still fine"
    );

    let rec = e.recommendation.expect("a recommendation");
    assert_eq!(rec.kind, RecommendationKind::TimeBucket(BucketUnit::Day));
    assert_eq!(rec.sizes.rows.max, 86_400.0);
    assert_eq!(rec.sizes.bytes.max, 16.0 + 86_400.0 * 24.0);
    assert_eq!(rec.sizes.partitions, 10_000.0 * 365.0);
    assert_eq!(
        rec.read_fanout, 2,
        "a 24 h range over day buckets reads 2 partitions"
    );
    assert!(
        e.assumptions.iter().any(|a| a.contains("retention 1y")),
        "{:?}",
        e.assumptions
    );
}

#[test]
fn hour_bucket_is_chosen_when_a_day_is_too_much() {
    // 10 readings a second per device: a day is 864,000 rows, an hour 36,000.
    let schema = schema(IOT_UNBUCKETED);
    let stats = stats(
        &schema,
        r#"
        [table.temp_by_device]
        rows_per_second = 100000
        [table.temp_by_device.column.device_id]
        distinct = 10000
        "#,
    );
    let e = estimate_table(
        table(&schema, "iot.temp_by_device"),
        &stats.tables["iot.temp_by_device"],
        &stats.thresholds,
    );
    let rec = e.recommendation.expect("a recommendation");
    assert_eq!(rec.kind, RecommendationKind::TimeBucket(BucketUnit::Hour));
    assert_eq!(rec.sizes.rows.max, 36_000.0);
    assert_eq!(
        rec.read_fanout, 25,
        "a 24 h range over hour buckets reads 25 partitions"
    );
    assert!(
        e.assumptions.iter().any(|a| a.contains("sized after 1y")),
        "unbounded retention is sized at the default horizon: {:?}",
        e.assumptions
    );
}

#[test]
fn rate_can_come_from_a_time_column() {
    let schema = schema(IOT_UNBUCKETED);
    let stats = stats(
        &schema,
        r#"
        [table."iot.temp_by_device"]
        retention = "30d"
        [table."iot.temp_by_device".column.device_id]
        distinct = 500
        [table."iot.temp_by_device".column.ts]
        distribution = "time(1/s)"      # one reading per second per device
        "#,
    );
    let e = estimate_table(
        table(&schema, "iot.temp_by_device"),
        &stats.tables["iot.temp_by_device"],
        &stats.thresholds,
    );
    assert_eq!(e.sizes.total_rows, 500.0 * 30.0 * 86_400.0);
    assert_eq!(e.sizes.rows.max, 30.0 * 86_400.0);
}

#[test]
fn bucketed_table_with_ttl_passes() {
    let cql = "
    CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
    CREATE TABLE iot.temp_by_device (
        device_id text, day date, ts timestamp, temp double,
        PRIMARY KEY ((device_id, day), ts)
    ) WITH default_time_to_live = 2592000;";
    let schema = schema(cql);
    let stats = stats(
        &schema,
        r#"
        [table."iot.temp_by_device"]
        rows_per_second = 10000
        [table."iot.temp_by_device".column.device_id]
        distinct = 10000
        "#,
    );
    let e = estimate_table(
        table(&schema, "iot.temp_by_device"),
        &stats.tables["iot.temp_by_device"],
        &stats.thresholds,
    );
    // 30 days of TTL, a partition per device per day.
    assert_eq!(e.sizes.partitions, 10_000.0 * 30.0);
    assert_eq!(e.sizes.rows.max, 86_400.0);
    assert!(e.exceeds.is_empty());
    assert!(e.recommendation.is_none());
    assert!(
        e.assumptions
            .iter()
            .any(|a| a.contains("default_time_to_live")),
        "{:?}",
        e.assumptions
    );
    // Growth stops at the bucket: a day's partition is as big after a year.
    assert!(e.growth.iter().all(|g| g.sizes.rows.max <= 86_400.0));
}

/// A fixed orders table where a few customers hold a large share: under Zipf(1.1)
/// over 100,000 customers the hottest holds 1/H(100000, 1.1) of the 50 M orders.
#[test]
fn zipf_skewed_orders_recommend_salt() {
    let schema = schema(ORDERS);
    let stats = stats(
        &schema,
        r#"
        [table.orders_by_customer]
        rows = 50_000_000
        [table.orders_by_customer.column.customer_id]
        distinct = 100_000
        distribution = "zipf(1.1)"
        avg_size = 10
        [table.orders_by_customer.column.order_id]
        avg_size = 12
        [table.orders_by_customer.column.status]
        avg_size = 8
        "#,
    );
    let e = estimate_table(
        table(&schema, "shop.orders_by_customer"),
        &stats.tables["shop.orders_by_customer"],
        &stats.thresholds,
    );
    // H(100000, 1.1) summed directly, smallest terms first.
    let h: f64 = (1..=100_000u32)
        .rev()
        .map(|k| f64::from(k).powf(-1.1))
        .sum();
    let hottest = 50e6 / h;
    assert!(
        (e.sizes.rows.max - hottest).abs() / hottest < 1e-9,
        "{} vs {hottest}",
        e.sizes.rows.max
    );
    assert_eq!(e.sizes.rows.mean, 500.0, "the mean hides the skew");
    assert!(
        e.sizes.rows.p50 < 100.0,
        "the median customer is small: {}",
        e.sizes.rows.p50
    );
    // 6.7 M rows of 49 bytes (order_id 12 + amount 13 + status 8 + 2 cells × 8): 330 MB.
    assert_eq!(
        e.exceeds,
        vec![Exceeded::PartitionBytes, Exceeded::PartitionRows]
    );

    let rec = e.recommendation.expect("a recommendation");
    let expected_salt = (hottest / 100_000.0).ceil() as u32;
    assert_eq!(rec.kind, RecommendationKind::Salt(expected_salt));
    assert_eq!(rec.read_fanout, u64::from(expected_salt));
    assert!(rec.sizes.rows.max <= 100_000.0 && rec.sizes.rows.p99 <= 100_000.0);
    // One fewer salt bucket would not do.
    assert!(hottest / f64::from(expected_salt - 1) > 100_000.0);
}

#[test]
fn thresholds_are_configurable() {
    let schema = schema(HOTEL);
    let text = |rows: u32| {
        format!(
            r#"
            [thresholds]
            partition_rows = {rows}
            partition_bytes = "1MB"
            [table.available_rooms_by_hotel_date]
            rows = 365_000_000
            [table.available_rooms_by_hotel_date.column.hotel_id]
            distinct = 5000
            avg_size = 5
            "#
        )
    };
    let strict = stats(&schema, &text(50_000));
    let e = &estimate_all(&schema, &strict)[0];
    assert_eq!(
        e.exceeds,
        vec![Exceeded::PartitionBytes, Exceeded::PartitionRows]
    );
    let rec = e.recommendation.as_ref().expect("salt");
    // 73,000 rows at 15 B/row: two salt buckets give 36,500 rows and 547,505 bytes.
    assert_eq!(rec.kind, RecommendationKind::Salt(2));
    assert_eq!(rec.sizes.bytes.max, 5.0 + 36_500.0 * 15.0);
    let loose = stats(&schema, &text(80_000));
    assert_eq!(
        estimate_all(&schema, &loose)[0].exceeds,
        vec![Exceeded::PartitionBytes]
    );
}

#[test]
fn statics_and_collections_count_their_cells() {
    let cql = "
    CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
    CREATE TABLE ks.t (
        k int, c int, s text static, tags list<text>, v bigint,
        PRIMARY KEY (k, c)
    );";
    let schema = schema(cql);
    let stats = stats(
        &schema,
        r#"
        [table."ks.t"]
        rows = 1000
        [table."ks.t".column.k]
        distinct = 10
        [table."ks.t".column.s]
        avg_size = 20
        [table."ks.t".column.tags]
        avg_elements = 3
        element_size = 6
        "#,
    );
    let e = &estimate_all(&schema, &stats)[0];
    // Nr = 100. Cells: each row has v (1) and 3 list elements; plus 1 static cell.
    assert_eq!(e.sizes.rows.max, 100.0);
    assert_eq!(e.sizes.cells.max, 100.0 * 4.0 + 1.0);
    // St = k 4 + s 20 + 100 × (c 4 + tags 18 + v 8) + 401 × 8.
    assert_eq!(e.sizes.bytes.max, 4.0 + 20.0 + 100.0 * 30.0 + 401.0 * 8.0);
}

#[test]
fn table_without_clustering_has_one_row_per_partition() {
    let cql = "
    CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
    CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);";
    let schema = schema(cql);
    let stats = stats(&schema, "[table.users]\nrows = 2e6\n");
    let e = &estimate_all(&schema, &stats)[0];
    assert_eq!(e.sizes.partitions, 2e6);
    assert_eq!(e.sizes.rows.max, 1.0);
    assert!(e.exceeds.is_empty());
}

#[test]
fn every_table_gets_defaults_when_the_file_names_none() {
    let schema = schema(&format!("{IOT_UNBUCKETED}{ORDERS}"));
    let stats = stats(&schema, "[thresholds]\npartition_rows = 1000\n");
    let all = estimate_all(&schema, &stats);
    assert_eq!(all.len(), 2);
    for e in &all {
        assert!(
            e.assumptions.iter().any(|a| a.contains("default")),
            "{:?}",
            e.assumptions
        );
        // 1,000,000 default rows over 1,000 default keys.
        assert_eq!(e.sizes.rows.max, 1_000.0);
    }
}

mod no_panics {
    use super::common::{ORDERS, schema, table};
    use cqlmodel_stats::{
        ColumnStats, Distribution, Retention, TableStats, Thresholds, Volume, estimate_table,
    };
    use proptest::prelude::*;

    fn volume() -> impl Strategy<Value = Volume> {
        prop_oneof![
            Just(Volume::Unspecified),
            (0.0f64..1e18).prop_map(|rows| Volume::Fixed { rows }),
            (0.0f64..1e9).prop_map(|rows_per_second| Volume::Growth { rows_per_second }),
        ]
    }

    fn distribution() -> impl Strategy<Value = Distribution> {
        prop_oneof![
            Just(Distribution::Uniform),
            Just(Distribution::Sequential),
            (0.05f64..8.0).prop_map(|exponent| Distribution::Zipf { exponent }),
            (1e-3f64..1e6).prop_map(|per_second| Distribution::Time { per_second }),
        ]
    }

    proptest! {
        /// Whatever the numbers, the estimate is finite, ordered and never panics.
        #[test]
        fn estimates_are_ordered_and_finite(
            volume in volume(),
            distinct in 1.0f64..1e15,
            dist in distribution(),
            retention in prop_oneof![Just(Retention::TableDefault), Just(Retention::Unbounded), (1u64..10_000_000_000).prop_map(Retention::Seconds)],
            avg in 0.0f64..1e7,
        ) {
            let s = schema(ORDERS);
            let t = table(&s, "shop.orders_by_customer");
            let mut ts = TableStats { volume, retention, ..TableStats::default() };
            ts.columns.insert("customer_id".into(), ColumnStats {
                distinct: Some(distinct),
                distribution: Some(dist),
                avg_size: Some(avg),
                ..ColumnStats::default()
            });
            let e = estimate_table(t, &ts, &Thresholds::default());
            for q in [e.sizes.rows, e.sizes.bytes, e.sizes.cells] {
                let v = [q.p50, q.p75, q.p95, q.p98, q.p99, q.max];
                prop_assert!(v.iter().all(|x| !x.is_nan() && *x >= 0.0), "{q:?}");
                prop_assert!(v.windows(2).all(|w| w[0] <= w[1] * (1.0 + 1e-12)), "{q:?}");
            }
            if let Some(r) = &e.recommendation {
                prop_assert!(r.sizes.rows.max <= 100_000.0 && r.sizes.bytes.max <= 1e8);
            }
        }
    }
}
