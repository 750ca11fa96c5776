//! `hot-partition`'s second question: a partition key made of values that many
//! writers share (a tag, a service, an operation, an event type), with a time
//! bucket or bounded only by a TTL. Every writer of a busy value writes into
//! the same partition: of the current window, or of the whole TTL.

use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::types::NativeType;
use cqlmodel_schema::{Column, Table};

use super::bucketing::{DEFAULT_SALT_BUCKETS, salted_table};
use super::column_roles::{
    bounds_partition, identifies_an_entity, is_time_type, named_like_salt, names_a_person,
    names_an_emitter, native, orders_in_time, shared_by_writers, words,
};
use super::key_facts::{QueryIndex, about, column_site, partition_key_text, sets_ttl};
use super::query_facts::write_load;
use crate::context::Context;
use crate::finding::{Finding, Findings};
use crate::table_hints::ttl_hint;

/// What bounds the rows one busy value gathers in one partition.
enum Bound {
    /// A time bucket in the key: the window named by the column.
    Window(String),
    /// Only a TTL, in seconds when known (and where it comes from).
    Ttl(Option<u64>, String),
}

/// The finding for `table` when its whole partition key (apart from a time
/// bucket) is values writers share; `None` for any other key, or a salted one.
pub fn busy_shared_key(
    cx: &Context<'_>,
    index: &QueryIndex<'_>,
    table: &Table,
    out: &Findings,
) -> Option<Finding> {
    let mut shared: Vec<&Column> = Vec::new();
    // Values that are neither ids nor named like shared ones (`provider`):
    // shared only when the write rate says many writes meet in few keys.
    let mut unnamed: Vec<&Column> = Vec::new();
    let mut bucket: Option<&Column> = None;
    for c in table.partition_key() {
        if named_like_salt(c) {
            return None;
        } else if is_time_value(c) || bounds_partition(c) {
            bucket = Some(c);
        } else if shared_by_writers(c) {
            shared.push(c);
        } else if identifies_an_entity(c) || names_an_emitter(c) || names_a_person(c) {
            return None;
        } else {
            unnamed.push(c);
        }
    }
    let rate = write_load(cx, &table.qualified_name()).rate;
    let busy_by_rate = bucket.is_some() && rate >= cx.config.thresholds.high_rate_per_second;
    if !unnamed.is_empty() && !busy_by_rate {
        return membership(table, &shared, out);
    }
    shared.extend(unnamed);
    let first = shared.first()?;
    let bound = match bucket {
        Some(b) => Bound::Window(b.name.clone()),
        None => {
            // Without a bucket, only a time series bounded by a TTL is this
            // question; an unbounded one is `unbounded-partition`'s.
            if table.clustering().next().is_none_or(|c| !orders_in_time(c)) {
                return membership(table, &shared, out);
            }
            let (seconds, from) = table_ttl(cx, index, table)?;
            Bound::Ttl(seconds, from)
        }
    };
    let name = table.qualified_name();
    let key = partition_key_text(table);
    let values = shared
        .iter()
        .map(|c| format!("`{}`", c.name))
        .collect::<Vec<_>>()
        .join(", ");
    let (message, bound_note) = match &bound {
        Bound::Window(col) => (
            format!(
                "every write of a busy {values} in one `{col}` window goes to one partition of `{name}`: a write hot spot"
            ),
            format!(
                "`{col}` bounds what a partition holds to one window, not how many writers share it"
            ),
        ),
        Bound::Ttl(ttl, from) => (
            format!(
                "one partition of `{name}` per {values} receives every write of that value for the whole TTL{}: a busy value makes a hot, large partition",
                ttl.map(|t| format!(" ({})", about(t as f64)))
                    .unwrap_or_default()
            ),
            format!("the TTL ({from}) is the only bound: no time bucket, no salt in `{key}`"),
        ),
    };
    let (file, span, start) = column_site(table, first);
    let (sketch, salt) = salted_table(table, DEFAULT_SALT_BUCKETS, None);
    let evidence = if busy_by_rate {
        format!(
            "the query list writes it {}/s into one partition per {values} and window ({values} are not ids: few values share those writes); a statistics file with `distinct` decides",
            rate
        )
    } else {
        format!(
            "heuristic: {values} named like a value many writers share (a tag, a service, an operation, a type), not an id; a statistics file with `distinct` and a skewed `distribution` decides"
        )
    };
    Some(
        out.new_finding(message)
            .severity(Severity::Warning)
            .at(file, span, start, "a value many writers share")
            .table(name)
            .note(evidence)
            .note(bound_note)
            .note("a partition lives on RF replicas: a popular value's write rate lands on those nodes alone, however many the cluster has")
            .help(format!(
                "a read of one value then reads {DEFAULT_SALT_BUCKETS} partitions (`{salt} IN (0, ..., {})`, in parallel)",
                DEFAULT_SALT_BUCKETS - 1
            ))
            .fix(
                format!(
                    "salt the partition key with {DEFAULT_SALT_BUCKETS} buckets (a new table: a primary key cannot be altered)"
                ),
                Some(sketch.cql()),
            ),
    )
}

/// Table-name words of a membership list: the rows are the members of the key.
const MEMBERSHIP_WORDS: &[&str] = &[
    "subscribers",
    "subscriptions",
    "followers",
    "members",
    "fans",
    "watchers",
    "recipients",
    "participants",
    "audience",
    "listeners",
];

/// A membership list under a shared value (`topic_subscribers` keyed by
/// `topic`, clustered by `user_id`): a popular value's members all land in one
/// partition, which grows with its popularity.
fn membership(table: &Table, shared: &[&Column], out: &Findings) -> Option<Finding> {
    let first = shared.first()?;
    if shared.len() != table.partition_key().count() {
        return None;
    }
    let member = table
        .clustering()
        .next()
        .filter(|c| identifies_an_entity(c))?;
    let list = words(&table.name)
        .into_iter()
        .find(|w| MEMBERSHIP_WORDS.contains(&w.as_str()))?;
    let name = table.qualified_name();
    let (file, span, start) = column_site(table, first);
    let (sketch, salt) = salted_table(table, DEFAULT_SALT_BUCKETS, Some(&member.name));
    Some(
        out.new_finding(format!(
            "every {} of a popular `{}` lands in one partition of `{name}`: it grows with the value's popularity, without bound",
            list.trim_end_matches('s'),
            first.name
        ))
        .severity(Severity::Warning)
        .at(file, span, start, "a value whose members share one partition")
        .table(name)
        .note(format!(
            "heuristic: `{}` is named like a value many share (not an id), and `{}` lists its {list} by `{}`; a statistics file with `distinct` and a skewed `distribution` sizes the largest",
            first.name, table.name, member.name
        ))
        .note("a list of millions of members is a partition of hundreds of MB: read, compacted and repaired whole, on RF replicas")
        .help(format!(
            "reading all members then reads {DEFAULT_SALT_BUCKETS} partitions (`{salt} IN (0, ..., {})`); a membership check computes its bucket from `{}`",
            DEFAULT_SALT_BUCKETS - 1,
            member.name
        ))
        .fix(
            format!(
                "salt the partition key with {DEFAULT_SALT_BUCKETS} buckets by hash of `{}` (a new table: a primary key cannot be altered)",
                member.name
            ),
            Some(sketch.cql()),
        ),
    )
}

/// A `date` or `timestamp` (a `timeuuid` identifies a row, it buckets nothing).
fn is_time_value(column: &Column) -> bool {
    is_time_type(&column.ty) && native(&column.ty) != Some(NativeType::Timeuuid)
}

/// The TTL that ends the table's rows: its default, a hint, or `USING TTL` on
/// every write of the query list.
fn table_ttl(
    cx: &Context<'_>,
    index: &QueryIndex<'_>,
    table: &Table,
) -> Option<(Option<u64>, String)> {
    if let Some(t) = table.options.default_time_to_live.filter(|t| *t > 0) {
        return Some((Some(t), "default_time_to_live".to_string()));
    }
    if let Some((t, from)) = ttl_hint(cx.config, cx.sources, table) {
        return Some((Some(t), from));
    }
    let writes = index.writes_to(&table.qualified_name());
    (!writes.is_empty() && writes.iter().all(|(_, s)| sets_ttl(s)))
        .then(|| (None, "`USING TTL` on every write".to_string()))
}
