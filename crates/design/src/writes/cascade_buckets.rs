//! `ON DELETE CASCADE` into a table that spreads one parent's children over
//! several partitions: salt values and time buckets of the child's own time.
//! A parent's children are then not one partition but one per (bucket, salt):
//! the delete path names which buckets can hold them, why no other can, and
//! how many partition deletes that is at most.

use cqlmodel_stats::BucketUnit;
use cqlmodel_stats::units::{format_count, format_duration};

use super::ReadSource;
use super::context::Context;
use crate::derive::{KeyPart, TableDesign};
use crate::relational::{Attribute, Entity};
use crate::select::ColRef;

/// How a table partitioned by a child's reference spreads one parent's
/// children: over salt values, over time buckets of a child column, or both.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Spread<'t> {
    pub(super) salt: Option<u32>,
    /// The child's bucketed column and the bucket unit (`week`).
    pub(super) bucket: Option<(&'t ColRef, &'t str)>,
}

/// When the table's partition key is the child's reference `fk`, plus salt
/// and time-bucket parts sizing added: how it spreads one parent's children.
pub(super) fn keyed_by_reference<'t>(
    t: &'t TableDesign,
    child: &Entity,
    fk: &[String],
) -> Option<Spread<'t>> {
    let mut spread = Spread::default();
    let mut attrs = 0;
    for p in &t.partition_key {
        match p {
            KeyPart::Attr(a) if a.entity == child.name && fk.contains(&a.column) => attrs += 1,
            KeyPart::Salt(n) => spread.salt = Some(*n),
            KeyPart::Bucket(a, unit) if a.entity == child.name && spread.bucket.is_none() => {
                spread.bucket = Some((a, unit.as_str()));
            }
            _ => return None,
        }
    }
    (attrs == fk.len()).then_some(spread)
}

/// The partitions of one parent's children the delete reaches, and what the
/// application reads to name them.
pub(super) struct Reach {
    /// The statement's `repeat`: which partitions, why no other, how many.
    pub(super) repeat: Option<String>,
    /// What is read first (the parent's creation time), when a bucket range
    /// starts from it.
    pub(super) reads_first: Option<(String, ReadSource)>,
}

/// Which (bucket, salt) partitions a cascade deletes for one parent.
pub(super) fn reach(ctx: &Context<'_>, parent: &str, child: &Entity, spread: Spread<'_>) -> Reach {
    let salts = spread.salt.map(|n| format!(" × every salt value (0..{n})"));
    let Some((column, unit)) = spread.bucket else {
        return Reach {
            repeat: spread.salt.map(|n| {
                format!("once per salt bucket ({n}): the salt is part of the partition key")
            }),
            reads_first: None,
        };
    };
    let parent_entity = ctx.model.entity(parent);
    let created = parent_entity.and_then(creation_column);
    let (start, reads_first, age_basis) = match (created, parent_entity) {
        (Some(a), Some(p)) => (
            format!(
                "from the deleted `{parent}`'s `{}` bucket to now: a `{}` row is written after its `{parent}`, so no older bucket holds it (a child backdated before its parent would be missed)",
                a.name, child.name
            ),
            Some((
                format!(
                    "the deleted `{parent}`'s `{}`, by {}: the first `{unit}` bucket that can hold its `{}` rows",
                    a.name,
                    p.primary_key.join(", "),
                    child.name
                ),
                ReadSource::by(parent, &p.primary_key),
            )),
            format!("the `{parent}` row's age"),
        ),
        _ => (
            format!(
                "over every bucket that can hold rows: `{parent}` has no creation time to start the range from"
            ),
            None,
            "the oldest row kept".to_string(),
        ),
    };
    let per_salt = spread.salt.unwrap_or(1) as u64;
    let count = match (age_bound(ctx, child), BucketUnit::parse(unit)) {
        (Some((age, why)), Some(u)) => {
            let buckets = age.div_ceil(u.seconds().max(1)) + 1;
            format!(
                "at most {} `{unit}` buckets ({age_basis}, up to {} ({why}), / 1 {unit}, + the current one){}: at most {} partition deletes per `{parent}`",
                format_count(buckets as f64),
                format_duration(age),
                salts.as_deref().unwrap_or_default(),
                format_count((buckets * per_salt) as f64)
            )
        }
        _ => format!(
            "({age_basis} / 1 {unit}){} partition deletes per `{parent}`: unbounded as far as the design knows (no statistics give `{}`'s retention or horizon)",
            salts.as_deref().unwrap_or_default(),
            child.name
        ),
    };
    Reach {
        repeat: Some(format!(
            "once per `{unit}` bucket of `{}` {start}{}; {count}",
            column.column,
            salts.as_deref().unwrap_or_default()
        )),
        reads_first,
    }
}

/// The parent's creation time: a timestamp PostgreSQL filled with `now()`,
/// else one named like a creation time.
fn creation_column(parent: &Entity) -> Option<&Attribute> {
    let timestamp = |a: &&Attribute| {
        let t = a.pg_type.to_ascii_lowercase();
        t.starts_with("timestamp") || t == "date"
    };
    let by_default = parent.attributes.iter().filter(timestamp).find(|a| {
        a.default.as_deref().is_some_and(|d| {
            let d = d.to_ascii_lowercase();
            d.contains("now()") || d.contains("current_timestamp") || d.contains("current_date")
        })
    });
    by_default.or_else(|| {
        parent.attributes.iter().filter(timestamp).find(|a| {
            matches!(
                a.name.as_str(),
                "created_at" | "created" | "created_on" | "inserted_at" | "creation_time"
            )
        })
    })
}

/// How old a child row can be, from its statistics: its retention, else the
/// design's horizon.
fn age_bound(ctx: &Context<'_>, child: &Entity) -> Option<(u64, String)> {
    let es = ctx
        .stats?
        .tables
        .get(&crate::stats_keys::entity_key(&child.name))?;
    ctx.horizon.age_of(es)
}
