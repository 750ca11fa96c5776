use crate::stats::format_count;
use crate::stats::{Distribution, RecommendationKind};
use cqlmodel_cql::ast::{Operator, RelationKind, StatementKind};
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::types::NativeType;
use cqlmodel_schema::{Column, Table};

use super::bucketing::salted_table;
use super::column_roles::{
    is_time_type, low_cardinality_by_heuristic, named_like_salt, named_like_time,
    named_like_time_bucket, native, words,
};
use super::key_facts::{QueryIndex, column_site, partition_key_text};
use super::query_facts::write_load;
use super::shared_key::busy_shared_key;
use super::table_cql::{TableSketch, derived_table_name};
use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;

declare_rule! {
    /// ## What it does
    /// Finds tables whose whole partition key has few values, or few values at any
    /// one moment:
    ///
    /// - a time value alone (a `date`, a `timestamp`, a column named like `day`,
    ///   `month`, `hour`): every write of that day (instant, hour) goes to one
    ///   partition;
    /// - a low-cardinality value alone: a `boolean`, a status, a type, a country or
    ///   region (by name), or, with a statistics file, a key whose `distinct` count is
    ///   at most `hot_partition_keys` (default 100);
    /// - a combination of only such columns (`(country, day)`);
    /// - values many writers share (`tag_name`, `service_name`, `operation_name`,
    ///   `event_type`), with a time bucket (each window's partition takes every
    ///   write of a busy value: a write hot spot) or bounded only by a TTL (a busy
    ///   value's partition holds the whole TTL of its rows).
    ///
    /// A time-valued key is a problem in proportion to its traffic: a warning
    /// when the query list's write rate fills a period's partition past
    /// `partition_rows` or reaches `high_rate_per_second`, a question (info)
    /// without rates.
    ///
    /// A key with a distributing column (an id, or an integer salt such as
    /// `bucket`) is not reported: `PRIMARY KEY ((day, bucket), ...)` is the fix.
    ///
    /// Monotonic keys whose values are unique per row are **not** reported:
    /// auto-increment ids, UUIDv1 / `timeuuid`. The belief that they create a token
    /// hot spot
    /// comes from order-preserving partitioners (`ByteOrderedPartitioner`,
    /// `OrderPreservingPartitioner`), where neighbouring keys sit on neighbouring
    /// tokens and so on one node. Cassandra's default, `Murmur3Partitioner`, hashes
    /// the serialized key: values that differ by one land on unrelated tokens, so
    /// consecutive ids and timeuuids spread evenly over the ring (`cqlmodel ring`
    /// demonstrates it). What a hash cannot spread is a key with few values: all
    /// rows of one value share one token, whatever the partitioner. That is why a
    /// bare `timestamp` key *is* reported: not for its order, but because every write
    /// of one instant (or of the period the application truncates it to) shares the
    /// value, and so the partition. The review assumes Murmur3 (the default since
    /// Cassandra 1.2).
    ///
    /// ## Evidence
    /// - Statistics (`distinct`, `distribution`, `bucket`) decide a column's role.
    /// - Without them, names and types: a low-cardinality name or a boolean as the
    ///   whole key is a warning (every row of the table lands in a few
    ///   partitions). A time-valued key (a day, an instant) is a warning only when
    ///   the query list's write `@rate` puts at least `partition_rows` rows in one
    ///   period, or reaches `high_rate_per_second`; without rates it is a question
    ///   (info).
    /// - A key made of values many writers share (a tag, a service, an operation,
    ///   an event type; not an id) is a warning when a time bucket makes one
    ///   partition per window (a write hot spot) or when only a TTL bounds a time
    ///   series under it. A salt in the key (`bucket`, `shard` integers) clears it.
    ///
    /// ## Why is this bad?
    /// A partition lives on RF replicas. A key with N values uses at most N × RF
    /// nodes' worth of the cluster however many nodes it has: adding nodes adds no
    /// capacity to it. A date key sends every write of the day to the same RF
    /// nodes while the others idle, and the day's partition grows as large as the
    /// day's traffic.
    ///
    /// ## Example
    /// ```cql
    /// CREATE TABLE shop.orders_by_day (
    ///     day      date,
    ///     user_id  text,
    ///     order_id text,
    ///     amount   decimal,
    ///     PRIMARY KEY (day, user_id, order_id)
    /// );
    /// ```
    ///
    /// ## Use instead
    /// A distributing key or salt in the partition key, with N buckets (enough for
    /// `hot_partition_keys` partitions when the statistics count the key's values,
    /// never fewer than the sizing recommends, else 16), and a second table for the
    /// lookups the salted key no longer answers in one partition:
    /// ```cql
    /// CREATE TABLE shop.orders_by_day (
    ///     day      date,
    ///     bucket   int,   -- salt: hash(user_id) % 16
    ///     user_id  text,
    ///     order_id text,
    ///     amount   decimal,
    ///     PRIMARY KEY ((day, bucket), user_id, order_id)
    /// );
    /// CREATE TABLE shop.orders_by_order_id (
    ///     order_id text PRIMARY KEY,
    ///     day      date,
    ///     user_id  text,
    ///     amount   decimal
    /// );
    /// ```
    /// Reading a whole day then reads 16 partitions (in parallel); a read that
    /// knows `user_id` computes its bucket and stays on one partition.
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Data modeling: Partitioners"
    ///   (Murmur3Partitioner vs ByteOrderedPartitioner)
    /// - DataStax, "Basic rules of Cassandra data modeling" (spread data evenly)
    /// - `docs/ring.md` (`cqlmodel ring`: sequential and timeuuid keys spread evenly)
    pub static HOT_PARTITION = {
        code: "CQL009",
        name: "hot-partition",
        severity: Warning,
        summary: "A low-cardinality or time-valued partition key concentrates load on a few partitions",
        check: check,
    };
}

pub use super::bucketing::DEFAULT_SALT_BUCKETS;

/// What a partition-key column contributes to spreading the table.
#[derive(Debug, Clone, PartialEq)]
enum Role {
    /// A time: every write of one period shares the value. The string names the
    /// period ("day", "instant").
    Time(String, String),
    /// Few distinct values: (why, distinct count when the statistics give it).
    Few(String, Option<f64>),
    /// Many values, or a salt: spreads partitions.
    Spreads,
}

fn period_of(column: &Column) -> String {
    let w = words(&column.name);
    for unit in ["minute", "hour", "day", "week", "month", "quarter", "year"] {
        if w.iter().any(|x| x == unit) {
            return unit.to_string();
        }
    }
    match native(&column.ty) {
        Some(NativeType::Date) => "day".into(),
        _ if w.iter().any(|x| x == "date") => "day".into(),
        _ => "instant".into(),
    }
}

fn classify(cx: &Context<'_>, table: &Table, column: &Column) -> Role {
    let stats = cx.table_stats(table).and_then(|s| s.column(&column.name));
    let period = || period_of(column);
    if let Some(s) = stats {
        if let Some(unit) = s.bucket {
            return Role::Time(
                unit.name().to_string(),
                format!("statistics: `{}` is a {} bucket", column.name, unit.name()),
            );
        }
        match s.distribution {
            Some(Distribution::Time { .. }) => {
                return Role::Time(
                    period(),
                    format!("statistics: `{}` is time-based", column.name),
                );
            }
            // Consecutive ids hash to unrelated tokens under Murmur3.
            Some(Distribution::Sequential) => return Role::Spreads,
            _ => {}
        }
    }
    if native(&column.ty) == Some(NativeType::Timeuuid) || named_like_salt(column) {
        return Role::Spreads;
    }
    if is_time_type(&column.ty) {
        return Role::Time(period(), format!("`{}` is a {}", column.name, column.ty));
    }
    if named_like_time_bucket(column) || named_like_time(&column.name) {
        return Role::Time(
            period(),
            format!("heuristic: `{}` is named like a time", column.name),
        );
    }
    let threshold = cx.config.thresholds.hot_partition_keys as f64;
    if let Some(d) = stats.and_then(|s| s.distinct) {
        return if d <= threshold {
            Role::Few(
                format!(
                    "statistics: `{}` has {d} distinct values (at most {threshold})",
                    column.name
                ),
                Some(d),
            )
        } else {
            Role::Spreads
        };
    }
    if native(&column.ty) == Some(NativeType::Boolean) {
        return Role::Few(
            format!("`{}` is a boolean: 2 values", column.name),
            Some(2.0),
        );
    }
    if low_cardinality_by_heuristic(column) {
        return Role::Few(
            format!(
                "heuristic: `{}` is named like a status, type or region (few distinct values); a statistics file with `distinct` decides",
                column.name
            ),
            None,
        );
    }
    Role::Spreads
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    let threshold = cx.config.thresholds.hot_partition_keys as f64;
    let index = &cx.index;
    for table in cx.tables().filter(|t| !t.is_view()) {
        let roles: Vec<(&Column, Role)> = table
            .partition_key()
            .map(|c| (c, classify(cx, table, c)))
            .collect();
        if roles.is_empty() || roles.iter().any(|(_, r)| *r == Role::Spreads) {
            if let Some(f) = busy_shared_key(cx, index, table, out) {
                out.push(f);
            }
            continue;
        }
        let time: Vec<&(&Column, Role)> = roles
            .iter()
            .filter(|(_, r)| matches!(r, Role::Time(..)))
            .collect();
        // Few-valued columns whose statistics multiply past the threshold spread well enough.
        let counts: Vec<Option<f64>> = roles
            .iter()
            .filter_map(|(_, r)| match r {
                Role::Few(_, d) => Some(*d),
                _ => None,
            })
            .collect();
        if time.is_empty()
            && counts.iter().all(Option::is_some)
            && counts.iter().flatten().product::<f64>() > threshold
        {
            continue;
        }
        report(cx, index, table, &roles, out);
    }
}

fn report(
    cx: &Context<'_>,
    index: &QueryIndex<'_>,
    table: &Table,
    roles: &[(&Column, Role)],
    out: &mut Findings,
) {
    let name = table.qualified_name();
    let key = partition_key_text(table);
    let period = roles.iter().find_map(|(_, r)| match r {
        Role::Time(p, _) => Some(p.clone()),
        _ => None,
    });
    let message = match (&period, roles.len()) {
        (Some(p), 1) => format!(
            "the partition key of `{name}` is a time value alone (`{key}`): every write of {} goes to one partition",
            an(p)
        ),
        (Some(p), _) => format!(
            "the partition key of `{name}` (`{key}`) has few values at any moment: every write of {} goes to the few partitions of that {p}",
            an(p)
        ),
        (None, _) => format!(
            "the partition key of `{name}` has few distinct values (`{key}`): a handful of partitions take all its data and requests"
        ),
    };
    let (file, span, start) = match roles.first() {
        Some((c, _)) => column_site(table, c),
        None => (
            table.origin.file,
            table.origin.span.range(),
            table.origin.span.start,
        ),
    };
    let mut f = out
        .new_finding(message)
        .at(file, span, start, "few partitions, or one per period")
        .table(name.clone());
    // A time key is a problem in proportion to the traffic of one period: without
    // statistics, the query list's rates decide; without them it is a question.
    if let Some(p) = period
        .as_deref()
        .filter(|_| cx.table_stats(table).is_none())
    {
        let (severity, why) = time_key_load(cx, &name, p);
        f = f.severity(severity).note(why);
    }
    for (_, role) in roles {
        match role {
            Role::Time(_, why) | Role::Few(why, _) => f = f.note(why.clone()),
            Role::Spreads => {}
        }
    }
    f = f.note(
        "a partition lives on RF replicas: N partitions use at most N × RF nodes' worth of the cluster, however many nodes it has; the hash spreads distinct keys, never the rows of one key",
    );

    let (buckets, basis) = salt_buckets(cx, table, roles);
    let spreading: Vec<&Column> = table
        .clustering()
        .filter(|c| classify(cx, table, c) == Role::Spreads)
        .collect();
    let source = spreading.first().map(|c| c.name.as_str());
    let (mut salted, salt) = salted_table(table, buckets, source);
    salted.header = Some(format!("{buckets} salt buckets: {basis}"));
    let mut cql = salted.cql();

    f = f.help(salting_help(index, &name, &key, buckets, &salt, source));

    // The rows' own identifier: a lookup by it alone needs a table keyed by it.
    let description = match spreading.last().copied() {
        Some(id) => {
            cql.push_str("\n\n");
            cql.push_str(&lookup_table_cql(table, id, &key));
            format!(
                "salt the partition key with {buckets} buckets, and keep a second table keyed by `{}` (write both)",
                id.name
            )
        }
        None => format!("salt the partition key with {buckets} buckets"),
    };
    f = f.fix(description, Some(cql));
    out.push(f);
}

/// How reads change once the key is salted: which stay on one partition (they
/// restrict the bucket's `source` column) and which fan out to every bucket.
fn salting_help(
    index: &QueryIndex<'_>,
    name: &str,
    key: &str,
    buckets: u32,
    salt: &str,
    source: Option<&str>,
) -> String {
    let mut help = format!(
        "reading a whole `{key}` now reads {buckets} partitions (`{salt} IN (0, ..., {})`, or {buckets} concurrent reads)",
        buckets.saturating_sub(1)
    );
    if let Some(src) = source {
        help.push_str(&format!(
            "; a read that knows `{src}` computes its bucket and stays on one partition"
        ));
        let keeps: Vec<&str> = index
            .reads_of(name)
            .iter()
            .filter(|q| restricts_by_eq(q, src))
            .map(|q| q.name.as_str())
            .collect();
        if !keeps.is_empty() {
            help.push_str(&format!(" ({})", crate::listing::capped(&keeps)));
        }
    }
    let fanned: Vec<&str> = index
        .reads_of(name)
        .iter()
        .filter(|q| source.is_none_or(|src| !restricts_by_eq(q, src)))
        .map(|q| q.name.as_str())
        .collect();
    if !fanned.is_empty() {
        help.push_str(&format!(
            "; reads that fan out: {}",
            crate::listing::capped(&fanned)
        ));
    }
    help
}

/// The CQL of a second table keyed by the rows' identifier `id` alone.
fn lookup_table_cql(table: &Table, id: &Column, key: &str) -> String {
    let mut second = TableSketch::new(&table.keyspace, &derived_table_name(&table.name, &id.name));
    second.header = Some(format!(
        "the lookup by `{}` alone, one partition per row (the salted key needs `{key}` and the bucket)",
        id.name
    ));
    second.copy_column(table, &id.name);
    for c in table.columns.iter().filter(|c| c.name != id.name) {
        second.copy_column(table, &c.name);
    }
    second.partition_key = vec![id.name.clone()];
    second.cql()
}

/// How many salt buckets: enough for `hot_partition_keys` partitions when the
/// statistics count the key's values, the default otherwise, and never fewer than
/// the sizing recommends.
fn salt_buckets(cx: &Context<'_>, table: &Table, roles: &[(&Column, Role)]) -> (u32, String) {
    let threshold = cx.config.thresholds.hot_partition_keys as f64;
    let counted: Option<f64> = roles
        .iter()
        .map(|(_, r)| match r {
            Role::Few(_, d) => *d,
            _ => None,
        })
        .product();
    let (spread, mut basis) = match counted {
        Some(d) if d > 0.0 => {
            let n = (threshold / d).ceil().clamp(2.0, f64::from(u32::MAX)) as u32;
            (
                n,
                format!(
                    "{d} key values × {n} buckets make at least {threshold} partitions (`hot_partition_keys`)"
                ),
            )
        }
        _ => (
            DEFAULT_SALT_BUCKETS,
            "the default; raise it until one bucket's share of the writes is small next to a node's capacity".to_string(),
        ),
    };
    let sized = cx
        .estimate(table)
        .and_then(|e| e.recommendation.as_ref())
        .and_then(|r| match r.kind {
            RecommendationKind::Salt(n) => Some(n),
            RecommendationKind::TimeBucket(_) => None,
        });
    match sized {
        Some(n) if n > spread => {
            basis =
                "the sizing's recommendation, which keeps partitions within the size limits".into();
            (n, basis)
        }
        _ => (spread, basis),
    }
}

/// Seconds in a period of a time key ("instant": none to multiply by).
fn period_seconds(period: &str) -> Option<f64> {
    let day = 86_400.0;
    Some(match period {
        "minute" => 60.0,
        "hour" => 3_600.0,
        "day" => day,
        "week" => 7.0 * day,
        "month" => 30.0 * day,
        "quarter" => 91.0 * day,
        "year" => 365.0 * day,
        _ => return None,
    })
}

/// The severity of a time-valued key from the write rate the query list gives.
fn time_key_load(cx: &Context<'_>, table: &str, period: &str) -> (Severity, String) {
    let writes = write_load(cx, table);
    let high = cx.config.thresholds.high_rate_per_second;
    let rows_limit = cx.config.thresholds.partition_rows as f64;
    if writes.rate <= 0.0 {
        return (
            Severity::Info,
            format!(
                "a question, not a finding: how many writes {} takes decides it (at 1 write/s a day's partition holds 86,400 rows); `@rate` on the writes of a query list, or a statistics file, would decide it",
                an(period)
            ),
        );
    }
    let per_period = period_seconds(period).map(|s| writes.rate * s);
    let heavy = writes.rate >= high || per_period.is_some_and(|n| n >= rows_limit);
    let numbers = match per_period {
        Some(n) => format!(
            "the query list writes it {}/s: {} rows per {period} in one partition",
            writes.rate,
            format_count(n)
        ),
        None => format!("the query list writes it {}/s", writes.rate),
    };
    if heavy {
        (Severity::Warning, numbers)
    } else {
        (
            Severity::Info,
            format!(
                "{numbers}: below {} rows and {high}/s, a question rather than a finding",
                format_count(rows_limit)
            ),
        )
    }
}

fn an(period: &str) -> String {
    match period {
        "instant" => "an instant".into(),
        "hour" => "an hour".into(),
        p => format!("a {p}"),
    }
}

fn restricts_by_eq(q: &crate::query::Query, column: &str) -> bool {
    let StatementKind::Select(select) = &q.statement.kind else {
        return false;
    };
    select.where_clause.iter().any(|r| {
        matches!(&r.kind, RelationKind::Column { column: c, op: Operator::Eq, .. } if c.value == column)
    })
}
