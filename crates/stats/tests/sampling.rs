//! Key sampling for the ring analysis: real serialized keys, Murmur3 tokens,
//! reproducible draws, and the distribution claims of issue 3 point 3.

mod common;

use common::{schema, stats, table};
use cqlmodel_cql::ast::{Literal, Span, Term, TermKind};
use cqlmodel_ring::{Token, partition_key_bytes, serialize_term, token_of_key};
use cqlmodel_schema::Schema;
use cqlmodel_stats::{KeySampler, TableStats, sample_partitions};
use proptest::prelude::*;

fn literal(lit: Literal) -> Term {
    Term {
        kind: TermKind::Literal(lit),
        span: Span::default(),
    }
}

fn one_table(pk: &str, extra: &str) -> Schema {
    schema(&format!(
        "CREATE KEYSPACE ks WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}};
         CREATE TABLE ks.t ({pk}, c int, v int{extra});"
    ))
}

fn table_stats(schema: &Schema, toml: &str) -> TableStats {
    stats(schema, toml)
        .tables
        .remove("ks.t")
        .unwrap_or_default()
}

/// Which of 64 equal token ranges a token falls in.
fn range_of(token: Token) -> usize {
    ((token.0 as u64 ^ (1 << 63)) >> 58) as usize
}

/// Pearson's chi-square statistic of counts over 64 ranges against a uniform spread.
fn chi_square(tokens: impl Iterator<Item = Token>) -> (f64, [u64; 64]) {
    let mut counts = [0u64; 64];
    let mut n = 0u64;
    for t in tokens {
        counts[range_of(t)] += 1;
        n += 1;
    }
    let expected = n as f64 / 64.0;
    let chi = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    (chi, counts)
}

/// 63 degrees of freedom: mean 63, standard deviation √126 ≈ 11.2; the 99.9999th
/// percentile is about 125. A uniform spread stays under it.
const CHI_SQUARE_LIMIT: f64 = 125.0;

#[test]
fn keys_are_the_serialized_values_cassandra_hashes() {
    // A single int key: sequential ids 1..n; with one value it is always id 1.
    let s = one_table("k int", ", PRIMARY KEY (k, c)");
    let ts = table_stats(
        &s,
        "[table.t]\nrows = 10\n[table.t.column.k]\ndistinct = 1\ndistribution = \"sequential\"\n",
    );
    let drawn = sample_partitions(table(&s, "ks.t"), &ts, 3, 1).expect("sample");
    let one = serialize_term(
        &table(&s, "ks.t").columns[0].ty,
        &literal(Literal::Integer("1".into())),
    )
    .expect("int");
    assert!(
        drawn
            .iter()
            .all(|p| p.key == one && p.token == token_of_key(&one))
    );

    // A composite (text, date) key: "key-1" and the first day, 2025-01-01.
    let s = one_table("name text, day date", ", PRIMARY KEY ((name, day), c)");
    let ts = table_stats(
        &s,
        "[table.t]\nrows = 10\n[table.t.column.name]\ndistinct = 1\n[table.t.column.day]\ndistinct = 1\n",
    );
    let t = table(&s, "ks.t");
    let drawn = sample_partitions(t, &ts, 2, 9).expect("sample");
    let name =
        serialize_term(&t.columns[0].ty, &literal(Literal::String("key-1".into()))).expect("text");
    let day = serialize_term(
        &t.columns[1].ty,
        &literal(Literal::String("2025-01-01".into())),
    )
    .expect("date");
    let key = partition_key_bytes(&[&name, &day]);
    assert_eq!(drawn[0].key, key);
    assert_eq!(drawn[0].token, token_of_key(&key));
}

#[test]
fn generated_uuids_have_the_right_versions() {
    let s = one_table("a uuid, b timeuuid", ", PRIMARY KEY ((a, b), c)");
    let ts = table_stats(
        &s,
        "[table.t]\nrows = 1e6\n[table.t.column.b]\ndistribution = \"time(10/s)\"\n",
    );
    for p in sample_partitions(table(&s, "ks.t"), &ts, 100, 3).expect("sample") {
        // Composite layout: [0, 16, uuid…, 0, 0, 16, timeuuid…, 0].
        assert_eq!(p.key.len(), 2 * (2 + 16 + 1));
        assert_eq!(p.key[2 + 6] >> 4, 4, "uuid: version 4");
        assert_eq!(p.key[2 + 8] >> 6, 0b10, "uuid: RFC 4122 variant");
        assert_eq!(p.key[21 + 6] >> 4, 1, "timeuuid: version 1");
        assert_eq!(p.key[21 + 8] >> 6, 0b10, "timeuuid: RFC 4122 variant");
    }
}

#[test]
fn same_seed_same_sample_and_a_different_seed_differs() {
    let s = one_table("k bigint", ", PRIMARY KEY (k, c)");
    let ts = table_stats(
        &s,
        "[table.t]\nrows = 1e7\n[table.t.column.k]\ndistinct = 1e6\n",
    );
    let t = table(&s, "ks.t");
    let a = sample_partitions(t, &ts, 1000, 42).expect("sample");
    let b = sample_partitions(t, &ts, 1000, 42).expect("sample");
    let c = sample_partitions(t, &ts, 1000, 43).expect("sample");
    assert_eq!(a, b);
    assert_ne!(a, c);
}

/// Under Murmur3 a monotonically increasing key spreads evenly over the ring: the
/// "hot spot" of sequential ids only exists for order-preserving partitioners.
#[test]
fn sequential_ids_spread_evenly_over_the_ring() {
    for pk in ["k bigint", "k int", "k text"] {
        let s = one_table(pk, ", PRIMARY KEY (k, c)");
        let ts = table_stats(
            &s,
            "[table.t]\nrows = 1e8\n[table.t.column.k]\ndistinct = 1e7\ndistribution = \"sequential\"\n",
        );
        let mut sampler = KeySampler::new(table(&s, "ks.t"), &ts, 7).expect("sampler");
        let mut tokens = Vec::new();
        sampler.for_each(200_000, |t, _, _| tokens.push(t));
        let (chi, counts) = chi_square(tokens.into_iter());
        assert!(
            chi < CHI_SQUARE_LIMIT,
            "{pk}: chi² = {chi}, counts {counts:?}"
        );
    }
}

/// Consecutive ids 1..64,000 — every one, in order, not a random sample — also spread.
#[test]
fn every_consecutive_id_spreads_evenly() {
    let ty = cqlmodel_schema::types::CqlType::native(cqlmodel_cql::ast::NativeType::Bigint);
    let tokens = (1..=64_000u32).map(|i| {
        let bytes =
            serialize_term(&ty, &literal(Literal::Integer(i.to_string()))).unwrap_or_default();
        token_of_key(&bytes)
    });
    let (chi, counts) = chi_square(tokens);
    assert!(chi < CHI_SQUARE_LIMIT, "chi² = {chi}, counts {counts:?}");
}

#[test]
fn timeuuids_spread_evenly_over_the_ring() {
    let s = one_table("id timeuuid PRIMARY KEY", "");
    let ts = table_stats(
        &s,
        "[table.t]\n[table.t.column.id]\ndistribution = \"time(1000/s)\"\n",
    );
    let mut sampler = KeySampler::new(table(&s, "ks.t"), &ts, 5).expect("sampler");
    let mut tokens = Vec::new();
    sampler.for_each(200_000, |t, _, _| tokens.push(t));
    let (chi, counts) = chi_square(tokens.into_iter());
    assert!(chi < CHI_SQUARE_LIMIT, "chi² = {chi}, counts {counts:?}");
}

/// A low-cardinality key — a date, a status — puts all the data in a few
/// partitions whatever the hash: 7 days' worth of keys land in at most 7 of the
/// 64 token ranges, and one range holds at least a seventh of everything.
#[test]
fn a_date_or_status_key_concentrates_data_in_a_few_partitions() {
    for (pk, key, toml) in [
        (
            "day date",
            "day",
            "[table.t]\nrows = 1e7\n[table.t.column.day]\ndistinct = 7\n",
        ),
        (
            "status text",
            "status",
            "[table.t]\nrows = 1e7\n[table.t.column.status]\ndistinct = 4\n",
        ),
    ] {
        let s = one_table(pk, &format!(", PRIMARY KEY ({key}, c)"));
        let ts = table_stats(&s, toml);
        let t = table(&s, "ks.t");
        let mut sampler = KeySampler::new(t, &ts, 11).expect("sampler");
        let values = sampler.partitions();
        let mut tokens = std::collections::BTreeSet::new();
        let mut ranges = [0.0f64; 64];
        let mut total = 0.0;
        sampler.for_each(100_000, |tok, data, _| {
            tokens.insert(tok);
            ranges[range_of(tok)] += data;
            total += data;
        });
        assert_eq!(tokens.len() as f64, values, "{pk}: one token per value");
        let used = ranges.iter().filter(|r| **r > 0.0).count();
        assert!(used as f64 <= values, "{pk}: {used} ranges used");
        let top = ranges.iter().copied().fold(0.0, f64::max) / total;
        assert!(
            top >= 1.0 / values - 0.01,
            "{pk}: hottest range holds {top}"
        );
        assert!(
            (total - 1e7).abs() / 1e7 < 1e-9,
            "data weights add up to the rows"
        );
    }
}

#[test]
fn zipf_keys_come_up_in_proportion_to_their_share() {
    let s = one_table("customer text", ", PRIMARY KEY (customer, c)");
    let ts = table_stats(
        &s,
        "[table.t]\nrows = 1e8\n[table.t.column.customer]\ndistinct = 100000\ndistribution = \"zipf(1.1)\"\n",
    );
    let mut sampler = KeySampler::new(table(&s, "ks.t"), &ts, 3).expect("sampler");
    let hottest = token_of_key(b"key-1");
    let n = 400_000;
    let mut hits = 0u32;
    sampler.for_each(n, |t, _, _| hits += u32::from(t == hottest));
    let h: f64 = (1..=100_000u32)
        .rev()
        .map(|k| f64::from(k).powf(-1.1))
        .sum();
    let expected = f64::from(n as u32) / h;
    let sd = (expected * (1.0 - 1.0 / h)).sqrt();
    assert!(
        (f64::from(hits) - expected).abs() < 5.0 * sd,
        "{hits} hits, expected {expected}"
    );
}

/// A time-bucketed key: rows spread over all buckets, requests go to the current one.
#[test]
fn requests_go_to_the_current_time_bucket() {
    let s = schema(
        "CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
         CREATE TABLE iot.r (device_id text, day date, ts timestamp, temp double,
                             PRIMARY KEY ((device_id, day), ts));",
    );
    let st = stats(
        &s,
        r#"
        [table."iot.r"]
        rows_per_second = 100
        retention = "10d"
        [table."iot.r".column.device_id]
        distinct = 1
        [query.Q1]
        table = "iot.r"
        rate_per_second = 200
        "#,
    );
    let ts = &st.tables["iot.r"];
    let drawn = sample_partitions(table(&s, "iot.r"), ts, 100_000, 1).expect("sample");
    let mut data = std::collections::BTreeMap::<Token, f64>::new();
    let mut requests = std::collections::BTreeMap::<Token, f64>::new();
    for p in &drawn {
        *data.entry(p.token).or_default() += p.data_weight;
        *requests.entry(p.token).or_default() += p.request_weight;
    }
    assert_eq!(data.len(), 10, "one device × 10 day buckets");
    let total_rows: f64 = data.values().sum();
    let rows = 100.0 * 10.0 * 86_400.0;
    assert!((total_rows - rows).abs() / rows < 0.02, "{total_rows}");
    for d in data.values() {
        assert!(
            (d / rows - 0.1).abs() < 0.01,
            "each day holds a tenth: {}",
            d / rows
        );
    }
    let busy: Vec<f64> = requests.values().copied().filter(|r| *r > 0.0).collect();
    assert_eq!(busy.len(), 1, "only today's bucket is read and written");
    // An importance-sampled estimate: within a few percent of the 200 requests/s.
    assert!((busy[0] - 200.0).abs() < 4.0, "{busy:?}");
}

#[test]
fn unsupported_key_types_are_refused_not_guessed() {
    let s = one_table("k frozen<list<int>>", ", PRIMARY KEY (k, c)");
    let err = KeySampler::new(table(&s, "ks.t"), &TableStats::default(), 1).expect_err("refused");
    assert_eq!(
        err.to_string(),
        "cannot sample keys of `ks.t`: partition-key column `k` has type frozen<list<int>>, which has no generated values"
    );
}

proptest! {
    /// Whatever the seed and cardinality, each key's token is the Murmur3 token of
    /// its bytes, and single-int keys are ids within 1..=distinct.
    #[test]
    fn tokens_are_the_hash_of_the_keys(seed in any::<u64>(), distinct in 1u32..1_000_000) {
        let s = one_table("k int", ", PRIMARY KEY (k, c)");
        let ts = table_stats(&s, &format!("[table.t]\nrows = 1e9\n[table.t.column.k]\ndistinct = {distinct}\n"));
        for p in sample_partitions(table(&s, "ks.t"), &ts, 50, seed).expect("sample") {
            prop_assert_eq!(p.token, token_of_key(&p.key));
            let id = i32::from_be_bytes([p.key[0], p.key[1], p.key[2], p.key[3]]);
            prop_assert!(id >= 1 && id as u32 <= distinct);
        }
    }
}
