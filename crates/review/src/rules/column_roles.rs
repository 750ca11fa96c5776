//! What a column probably holds, judged by its name and type when no statistics
//! say: a time, a time bucket, a salt, a low- or high-cardinality value, a person
//! or a machine, an attribute the application changes.
//!
//! Names are split into `_`-separated words (`reading_date` → `reading`, `date`)
//! and matched word by word, so that `update_count` is not taken for `date`.
//! Every finding built on these guesses says "heuristic" in a note.

use cqlmodel_schema::Column;
use cqlmodel_schema::types::{CqlType, NativeType};

/// The `_`-separated words of a column name, lower-cased.
pub fn words(name: &str) -> Vec<String> {
    name.split(['_', '-', ' '])
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

fn has_word(name: &str, list: &[&str]) -> bool {
    words(name).iter().any(|w| list.contains(&w.as_str()))
}

fn last_word_in(name: &str, list: &[&str]) -> bool {
    words(name)
        .last()
        .is_some_and(|w| list.contains(&w.as_str()))
}

pub fn native(ty: &CqlType) -> Option<NativeType> {
    match ty {
        CqlType::Native(n) => Some(*n),
        _ => None,
    }
}

/// `timestamp`, `timeuuid`, `date`: values that order rows in time.
pub fn is_time_type(ty: &CqlType) -> bool {
    matches!(
        native(ty),
        Some(NativeType::Timestamp | NativeType::Timeuuid | NativeType::Date)
    )
}

pub fn is_integer_type(ty: &CqlType) -> bool {
    matches!(
        native(ty),
        Some(
            NativeType::Tinyint
                | NativeType::Smallint
                | NativeType::Int
                | NativeType::Bigint
                | NativeType::Varint
        )
    )
}

const TIME_WORDS: &[&str] = &["ts", "time", "timestamp", "datetime", "at", "when"];

/// A column whose name says it holds a point in time (`ts`, `created_at`,
/// `event_time`), whatever its type (epoch numbers are common).
pub fn named_like_time(name: &str) -> bool {
    last_word_in(name, TIME_WORDS)
        || matches!(
            name.to_ascii_lowercase().as_str(),
            "created" | "updated" | "modified" | "occurred" | "inserted"
        )
}

/// A clustering column that orders rows in time: a temporal type or a time-like name.
pub fn orders_in_time(column: &Column) -> bool {
    is_time_type(&column.ty) || named_like_time(&column.name)
}

/// The first clustering column of `table` that orders rows in time.
pub fn time_clustering(table: &cqlmodel_schema::Table) -> Option<&Column> {
    table.clustering().find(|c| orders_in_time(c))
}

const BUCKET_WORDS: &[&str] = &[
    "day", "date", "week", "month", "year", "hour", "minute", "bucket", "period", "window",
    "yyyymm", "yyyymmdd", "epoch", "quarter",
];

/// A partition-key column that cuts time into buckets: a `date`, or a name such as
/// `day`, `month`, `reading_date`, `bucket`, `hour` (text, integer or truncated timestamp).
pub fn named_like_time_bucket(column: &Column) -> bool {
    native(&column.ty) == Some(NativeType::Date) || has_word(&column.name, BUCKET_WORDS)
}

/// Names of partition-key columns that cut one logical key into numbered
/// partitions (`partition`, `partition_nr`, `timebucket`): by time or by count,
/// they bound what one partition receives. Checked with [`named_like_time_bucket`]
/// by `unbounded-partition` only (a constant `partition = 'services'` is not a
/// time value for `hot-partition`).
const SPLIT_WORDS: &[&str] = &["partition", "timebucket", "tbucket", "chunk", "segment"];

/// A partition-key column that bounds partition growth: a time bucket, or a
/// partition number (`partition`, `partition_nr`, `timebucket`).
pub fn bounds_partition(column: &Column) -> bool {
    named_like_time_bucket(column) || has_word(&column.name, SPLIT_WORDS)
}

const SALT_WORDS: &[&str] = &[
    "salt",
    "shard",
    "bucket",
    "slot",
    "partition",
    "vnode",
    "hash",
];

/// An integer column named as a salt (`salt`, `bucket`, `shard`): it spreads one
/// logical key over several partitions.
pub fn named_like_salt(column: &Column) -> bool {
    is_integer_type(&column.ty) && has_word(&column.name, SALT_WORDS)
}

const LOW_CARDINALITY_WORDS: &[&str] = &[
    "status",
    "state",
    "type",
    "kind",
    "category",
    "country",
    "region",
    "continent",
    "gender",
    "sex",
    "flag",
    "priority",
    "tier",
    "role",
    "language",
    "lang",
    "locale",
    "currency",
    "active",
    "enabled",
    "deleted",
    "visible",
    "valid",
    "datacenter",
    "dc",
    "rack",
    "zone",
    "level",
    "severity",
];

/// A column whose values are few: `boolean`, or a status-, type- or country-like
/// name (`status`, `order_type`, `country`, `is_active`).
pub fn low_cardinality_by_heuristic(column: &Column) -> bool {
    if named_like_salt(column) {
        return false;
    }
    let w = words(&column.name);
    native(&column.ty) == Some(NativeType::Boolean)
        || w.last()
            .is_some_and(|l| LOW_CARDINALITY_WORDS.contains(&l.as_str()))
        || w.first().is_some_and(|f| f == "is" || f == "has")
}

const HIGH_CARDINALITY_WORDS: &[&str] = &[
    "id", "uuid", "email", "mail", "username", "login", "phone", "mobile", "token", "session",
    "ssn", "isbn", "sku", "serial", "hash", "url", "uri", "ip", "imei", "mac", "iban", "handle",
];

/// A column with (nearly) one value per row: `uuid`/`timeuuid`/`timestamp` types, or
/// id-, email- or token-like names (`email`, `user_id`, `session_token`).
pub fn high_cardinality_by_heuristic(column: &Column) -> bool {
    matches!(
        native(&column.ty),
        Some(NativeType::Uuid | NativeType::Timeuuid | NativeType::Timestamp)
    ) || last_word_in(&column.name, HIGH_CARDINALITY_WORDS)
}

/// Values that identify one entity (`email`, `username`): an index lookup by them
/// returns one row, so a lookup table keyed by them maps one value to one key.
pub fn unique_like(column: &Column) -> bool {
    last_word_in(
        &column.name,
        &[
            "email", "mail", "username", "login", "phone", "mobile", "handle", "ssn", "token",
        ],
    )
}

const PERSON_WORDS: &[&str] = &[
    "user",
    "customer",
    "account",
    "member",
    "author",
    "owner",
    "player",
    "person",
    "profile",
    "subscriber",
    "follower",
    "patient",
    "student",
    "employee",
    "buyer",
    "seller",
    "client",
    "viewer",
    "reader",
    "recipient",
    "sender",
    "contact",
    "uid",
];

/// A key naming a person or account (`user_id`, `customer_id`): rows arrive at the
/// pace of that person's activity.
pub fn names_a_person(column: &Column) -> bool {
    has_word(&column.name, PERSON_WORDS)
}

const EMITTER_WORDS: &[&str] = &[
    "device",
    "sensor",
    "host",
    "machine",
    "meter",
    "vehicle",
    "server",
    "instance",
    "agent",
    "probe",
    "station",
    "thing",
    "asset",
    "source",
    "stream",
    "metric",
    "series",
    "node",
    "container",
    "pod",
    "tracker",
    "car",
    "truck",
    "robot",
];

/// A key naming something that emits events continuously (`device_id`,
/// `sensor`, `host`, `metric`): its partition receives a stream, not a list.
pub fn names_an_emitter(column: &Column) -> bool {
    has_word(&column.name, EMITTER_WORDS)
}

/// An identifier of one entity (`workflow_id`, `entity_uuid`, a `uuid` or
/// `timeuuid`): rows under it describe that entity, whose life is finite.
pub fn identifies_an_entity(column: &Column) -> bool {
    matches!(
        native(&column.ty),
        Some(NativeType::Uuid | NativeType::Timeuuid)
    ) || last_word_in(&column.name, &["id", "uuid"])
}

const SHARED_WORDS: &[&str] = &[
    "tag",
    "tags",
    "label",
    "topic",
    "service",
    "operation",
    "endpoint",
    "route",
    "event",
    "category",
    "type",
    "kind",
    "status",
    "hashtag",
    "keyword",
];

/// A value many writers share (`tag_name`, `service_name`, `operation_name`,
/// `event_type`): one partition per value receives every writer's rows.
pub fn shared_by_writers(column: &Column) -> bool {
    !identifies_an_entity(column)
        && (has_word(&column.name, SHARED_WORDS) || low_cardinality_by_heuristic(column))
}

const MUTABLE_WORDS: &[&str] = &[
    "email", "mail", "phone", "mobile", "status", "state", "balance", "score", "rank", "rating",
    "price", "quantity", "stock", "points", "karma", "nickname", "username", "address", "location",
];

/// An attribute applications change (`email`, `status`, `balance`, `updated_at`,
/// `last_login`).
pub fn named_like_mutable_attribute(column: &Column) -> bool {
    let w = words(&column.name);
    let last = w.last().map(String::as_str);
    last.is_some_and(|l| MUTABLE_WORDS.contains(&l))
        || matches!(w.first().map(String::as_str), Some("last" | "current"))
        || matches!(
            column.name.to_ascii_lowercase().as_str(),
            "updated_at" | "modified_at" | "updated" | "modified" | "display_name" | "last_seen"
        )
}

/// The time bucket units, coarsest first, as column definitions of a fix: the
/// column's name, its type, and how the application computes it.
pub fn bucket_column(
    unit: crate::stats::BucketUnit,
    time_column: &str,
) -> (&'static str, &'static str, String) {
    use crate::stats::BucketUnit as U;
    match unit {
        U::Year => ("year", "int", format!("year of {time_column}")),
        U::Month => ("month", "text", format!("'YYYY-MM' of {time_column}")),
        U::Week => (
            "week",
            "date",
            format!("first day of the week of {time_column}"),
        ),
        U::Day => ("day", "date", format!("date of {time_column}")),
        U::Hour => (
            "hour",
            "timestamp",
            format!("{time_column} truncated to the hour"),
        ),
        U::Minute => (
            "minute",
            "timestamp",
            format!("{time_column} truncated to the minute"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqlmodel_schema::{ColumnKind, Origin};

    fn col(name: &str, ty: NativeType) -> Column {
        Column {
            name: name.into(),
            ty: CqlType::Native(ty),
            kind: ColumnKind::Regular,
            masked: false,
            origin: Origin::default(),
        }
    }

    #[test]
    fn names_are_matched_word_by_word() {
        assert!(named_like_time_bucket(&col(
            "reading_date",
            NativeType::Text
        )));
        assert!(named_like_time_bucket(&col("month", NativeType::Text)));
        assert!(!named_like_time_bucket(&col(
            "update_count",
            NativeType::Int
        )));
        assert!(named_like_time("created_at"));
        assert!(named_like_time("ts"));
        assert!(!named_like_time("status"));
        assert!(!named_like_time("attempts"));
    }

    #[test]
    fn salts_are_integers_named_so() {
        assert!(named_like_salt(&col("salt", NativeType::Int)));
        assert!(named_like_salt(&col("bucket", NativeType::Tinyint)));
        assert!(!named_like_salt(&col("bucket", NativeType::Timestamp)));
        assert!(!low_cardinality_by_heuristic(&col(
            "bucket",
            NativeType::Tinyint
        )));
    }

    #[test]
    fn cardinality_guesses() {
        assert!(low_cardinality_by_heuristic(&col(
            "status",
            NativeType::Text
        )));
        assert!(low_cardinality_by_heuristic(&col(
            "is_active",
            NativeType::Text
        )));
        assert!(low_cardinality_by_heuristic(&col(
            "flagged",
            NativeType::Boolean
        )));
        assert!(!low_cardinality_by_heuristic(&col(
            "user_id",
            NativeType::Uuid
        )));
        assert!(high_cardinality_by_heuristic(&col(
            "email",
            NativeType::Text
        )));
        assert!(high_cardinality_by_heuristic(&col(
            "author_id",
            NativeType::Text
        )));
        assert!(high_cardinality_by_heuristic(&col(
            "anything",
            NativeType::Timeuuid
        )));
        assert!(!high_cardinality_by_heuristic(&col(
            "artist",
            NativeType::Text
        )));
    }

    #[test]
    fn mutable_attributes() {
        assert!(named_like_mutable_attribute(&col(
            "email",
            NativeType::Text
        )));
        assert!(named_like_mutable_attribute(&col(
            "last_login",
            NativeType::Timestamp
        )));
        assert!(named_like_mutable_attribute(&col(
            "order_status",
            NativeType::Text
        )));
        assert!(!named_like_mutable_attribute(&col(
            "user_id",
            NativeType::Uuid
        )));
        assert!(!named_like_mutable_attribute(&col(
            "ts",
            NativeType::Timestamp
        )));
    }
}
