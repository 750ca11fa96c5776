//! What a column means for a key: its time role, its cardinality, whether it may be one.

use cqlmodel_schema::Column;
use cqlmodel_schema::types::{CqlType, NativeType};

/// Below this many distinct values (from statistics) a partition-key column is low-cardinality.
pub const LOW_CARDINALITY_MAX_DISTINCT: u64 = 1_000;

/// How a column relates to time, for bucketing decisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeKind {
    /// A point in time (`timestamp`, `timeuuid`): a clustering column, never a partition by itself.
    Instant,
    /// A time bucket (`date`, or a column named like `day`, `month`, `hour`): one value per period.
    Bucket,
}

/// The time role of a column, by type, then by name (`month text` in seed 004's `events_monthly`).
pub fn time_kind(column: &Column) -> Option<TimeKind> {
    match &column.ty {
        CqlType::Native(NativeType::Timestamp | NativeType::Timeuuid) => Some(TimeKind::Instant),
        CqlType::Native(NativeType::Date) => Some(TimeKind::Bucket),
        CqlType::Native(
            NativeType::Text
            | NativeType::Ascii
            | NativeType::Int
            | NativeType::Smallint
            | NativeType::Bigint,
        ) if is_bucket_name(&column.name) => Some(TimeKind::Bucket),
        _ => None,
    }
}

fn is_bucket_name(name: &str) -> bool {
    const PERIODS: [&str; 7] = ["minute", "hour", "day", "date", "week", "month", "year"];
    PERIODS.iter().any(|p| {
        name == *p || name.ends_with(&format!("_{p}")) || name.starts_with(&format!("{p}_"))
    })
}

/// Why a column makes a poor partition key on its own: few distinct values.
/// `distinct_from_stats` is the column's cardinality from the statistics file when
/// given (the hook for `crates/stats`); without it the type and name decide.
pub fn low_cardinality_reason(column: &Column, distinct_from_stats: Option<u64>) -> Option<String> {
    if let Some(distinct) = distinct_from_stats {
        return (distinct < LOW_CARDINALITY_MAX_DISTINCT).then(|| {
            format!(
                "statistics: `{}` has {distinct} distinct values",
                column.name
            )
        });
    }
    if matches!(column.ty, CqlType::Native(NativeType::Boolean)) {
        return Some(format!(
            "heuristic: `{}` is a boolean (two values)",
            column.name
        ));
    }
    const NAMES: [&str; 14] = [
        "status", "state", "type", "kind", "category", "country", "region", "gender", "level",
        "priority", "flag", "enabled", "active", "currency",
    ];
    let name = column.name.as_str();
    let hit = NAMES.iter().any(|n| {
        name == *n
            || name.ends_with(&format!("_{n}"))
            || (name.ends_with("_code") && name.starts_with(n))
    }) || name.starts_with("is_")
        || name.starts_with("has_");
    hit.then(|| format!("heuristic: `{name}` names a low-cardinality attribute"))
}

/// Whether a column may be part of a primary key.
pub fn key_eligible(column: &Column) -> bool {
    !column.ty.is_multi_cell() && !column.ty.is_counter() && !column.ty.references_duration()
}
