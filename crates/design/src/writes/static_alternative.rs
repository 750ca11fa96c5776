//! Statics under a bucket or a salt, seen from the write path. Sizing keeps a
//! parent's attribute that a bucketed (or salted) table's reads need once, in
//! the parent's own table, instead of as a static of every bucket (see
//! plan/bucket_statics.rs). The update path of that attribute states both
//! options with their numbers: the write fan-out of the static per bucket
//! against the one statement it writes, and the partition each read adds.

use cqlmodel_stats::BucketUnit;
use cqlmodel_stats::units::{format_count, format_duration};

use super::context::Context;
use crate::derive::{KeyPart, TableDesign};
use crate::querylist::{Body, MutationKind, MutationSpec};
use crate::relational::Entity;
use crate::select::ColRef;

/// The notes of an update of `m.entity`'s attributes that split tables read
/// with their rows but do not hold.
pub(super) fn static_alternatives(
    ctx: &Context<'_>,
    m: &MutationSpec,
    rate: Option<f64>,
    holder: Option<&str>,
) -> Vec<String> {
    let Some(e) = ctx.model.entity(&m.entity) else {
        return Vec::new();
    };
    if m.kind != MutationKind::Update {
        return Vec::new();
    }
    let mut out = Vec::new();
    for t in ctx.split_tables().filter(|t| split_under(t, e)) {
        let read: Vec<String> = m
            .columns
            .iter()
            .filter(|c| !e.primary_key.contains(c))
            .filter(|c| {
                let a = ColRef {
                    entity: e.name.clone(),
                    column: (*c).clone(),
                };
                t.column_of(&a).is_none() && read_with(ctx, t, &a)
            })
            .map(|c| format!("`{c}`"))
            .collect();
        if read.is_empty() {
            continue;
        }
        let (split, fan_out) = fan_out(ctx, t);
        let per_second = match (rate, fan_out.1) {
            (Some(r), Some(n)) => format!(
                ", {} statements a second at this path's {}",
                format_count((r * n).ceil()),
                crate::numbers::rate_text(r)
            ),
            _ => String::new(),
        };
        out.push(format!(
            "{} of `{}`, read with `{}`'s rows, {} kept once in `{}`, not as a static of `{}` ({split}): a static in every bucket would write each change to {}{per_second}, and every write opening a new bucket would copy the value (read first); chosen: 1 statement per change, and each read of `{}` reads the `{}` partition too",
            read.join(", "),
            e.name,
            t.name,
            if read.len() == 1 { "is" } else { "are" },
            holder.unwrap_or("the entity's own table"),
            t.name,
            fan_out.0,
            t.name,
            holder.unwrap_or("owner's"),
        ));
    }
    out
}

/// A plain table of another entity's rows partitioned by `e`'s primary key
/// plus a time bucket or a salt; `t` is one of the context's split tables
/// (bucketed or salted, plain), found once for every update.
fn split_under(t: &TableDesign, e: &Entity) -> bool {
    if t.grain.contains(&e.name) {
        return false;
    }
    let mut split = false;
    let mut keyed: Vec<String> = Vec::new();
    for p in &t.partition_key {
        match p {
            KeyPart::Bucket(..) | KeyPart::Salt(_) => split = true,
            KeyPart::Attr(a) => {
                let Some(k) = crate::derive::class_of(&t.classes, a)
                    .into_iter()
                    .chain(std::iter::once(a.clone()))
                    .find(|x| x.entity == e.name && e.primary_key.contains(&x.column))
                else {
                    return false;
                };
                keyed.push(k.column);
            }
            _ => return false,
        }
    }
    split && keyed.len() == e.primary_key.len() && e.primary_key.iter().all(|k| keyed.contains(k))
}

/// A read `t` serves that selects the attribute.
fn read_with(ctx: &Context<'_>, t: &TableDesign, a: &ColRef) -> bool {
    ctx.specs.iter().any(|q| {
        t.queries.contains(&q.name)
            && matches!(&q.body, Body::Select(s) if s.projection.contains(a))
    })
}

/// The split in words, and the partitions a change would be written to (in
/// words, and as a number when the statistics bound it).
fn fan_out(ctx: &Context<'_>, t: &TableDesign) -> (String, (String, Option<f64>)) {
    for p in &t.partition_key {
        match p {
            KeyPart::Salt(n) => {
                return (
                    format!("salt {n}"),
                    (
                        format!("{n} partitions (one per salt value)"),
                        Some(*n as f64),
                    ),
                );
            }
            KeyPart::Bucket(src, unit) => {
                let split = format!("a `{unit}` bucket of `{}`", src.column);
                let age = ctx
                    .stats
                    .and_then(|s| s.tables.get(&crate::stats_keys::entity_key(&t.entity)))
                    .and_then(|es| ctx.horizon.age_of(es));
                let bound = match (age, BucketUnit::parse(unit)) {
                    (Some((age, why)), Some(u)) => {
                        let n = age.div_ceil(u.seconds().max(1)) + 1;
                        (
                            format!(
                                "up to {} partitions (the `{unit}` buckets in {} ({why}))",
                                format_count(n as f64),
                                format_duration(age)
                            ),
                            Some(n as f64),
                        )
                    }
                    _ => (
                        format!(
                            "one partition per `{unit}` bucket ever written (unbounded as far as the design knows: no statistics give `{}`'s retention or horizon)",
                            t.entity
                        ),
                        None,
                    ),
                };
                return (split, bound);
            }
            _ => {}
        }
    }
    (String::new(), (String::new(), None))
}
