//! Table names: `<entity>_by_<key>` and its fallbacks, within Cassandra's
//! length limit.

use super::{KeyPart, Role, TableDesign, TableKind, class_of, singular};
use crate::select::ColRef;

/// Key column names too generic to name a table by alone: `tags.name` keys
/// `videos_by_tag_name`, not `videos_by_name`.
const GENERIC: &[&str] = &["name", "id", "code", "slug", "key", "type", "kind", "value"];

/// `<entity>_by_<key>` from the partition key (`customer_id` → `customer`);
/// a counter table is `<entity>_count_by_<key>`.
pub fn default_name(t: &TableDesign) -> String {
    candidate_names(t)
        .into_iter()
        .next()
        .unwrap_or_else(|| fit_name(&t.entity))
}

/// The names a table may take, best first: a partition that is one parent row
/// with its children (the parent's attributes static) is the parent's
/// (`order_by_id` holding the order's lines); else `<entity>_by_<key>`; then,
/// when another table of the same entity and key took that, the same with the
/// first clustering column (`orders_by_customer_total`).
pub fn candidate_names(t: &TableDesign) -> Vec<String> {
    let stem = |name: &str| match name.strip_suffix("_id") {
        Some(stem) if !stem.is_empty() => stem.to_string(),
        _ => name.to_string(),
    };
    let keys: Vec<String> = t
        .partition_key
        .iter()
        .filter(|p| !matches!(p, KeyPart::Salt(_)))
        .filter_map(|p| {
            let c = t.column_for(p)?;
            let s = stem(&c.name);
            Some(match p {
                KeyPart::Attr(a) if a.entity != t.entity && GENERIC.contains(&s.as_str()) => {
                    format!("{}_{s}", singular(&a.entity))
                }
                _ => s,
            })
        })
        .collect();
    let own = singular(&t.entity);
    // The other entities of the grain tell two tables of one key apart.
    let others: Vec<String> = t
        .grain
        .iter()
        .filter(|g| **g != t.entity)
        .map(|g| singular(g))
        .collect();
    let mut out = Vec::new();
    if t.kind == TableKind::Counter {
        let base = format!("{own}_count_by_{}", keys.join("_and_"));
        out.push(fit_name(&base));
        if !others.is_empty() {
            out.push(fit_name(&format!("{base}_with_{}", others.join("_"))));
        }
        return out;
    }
    // A table read whole is every row of the entity: `all_plans`.
    if t.partition_key == [KeyPart::Whole] {
        out.push(fit_name(&format!("all_{}", t.entity)));
    }
    if let Some(parent) = static_parent(t) {
        out.push(format!("{}_by_id", singular(&parent)));
    }
    // The entity's own key reads as `device_by_id`, as the seeds name it
    // (`post_by_id`, `order_by_id`), not `devices_by_device`.
    let base = match keys.as_slice() {
        [only] if *only == own || *only == "id" => format!("{own}_by_id"),
        _ => format!("{}_by_{}", t.entity, keys.join("_and_")),
    };
    out.push(base.clone());
    if base.ends_with("_by_id") {
        let cols: Vec<String> = t
            .partition_key
            .iter()
            .filter_map(|p| t.column_for(p).map(|c| c.name.clone()))
            .collect();
        out.push(format!("{}_by_{}", t.entity, cols.join("_and_")));
    }
    let ck: Vec<String> = t
        .clustering
        .iter()
        .take(t.ordered.max(1))
        .filter_map(|(p, _)| t.column_for(p).map(|c| stem(&c.name)))
        .collect();
    if !ck.is_empty() {
        out.push(format!("{base}_{}", ck.join("_")));
    }
    let all_ck: Vec<String> = t
        .clustering
        .iter()
        .filter_map(|(p, _)| t.column_for(p).map(|c| stem(&c.name)))
        .collect();
    if all_ck.len() > ck.len() {
        out.push(format!("{base}_{}", all_ck.join("_")));
    }
    if t.clustering.first().is_some_and(|(_, desc)| *desc) {
        out.push(format!("{base}_{}_desc", all_ck.join("_")));
    }
    if !others.is_empty() {
        out.push(format!("{base}_with_{}", others.join("_")));
    }
    // A table of one entity's rows keyed by one row each: the entity's lookup.
    if t.clustering.is_empty() && t.grain == [t.entity.clone()] {
        out.push(format!("{own}_by_id"));
        out.push(format!("{own}_by_key"));
    }
    let mut seen = Vec::new();
    out.into_iter()
        .map(|n| fit_name(&n))
        .filter(|n| {
            let fresh = !seen.contains(n);
            seen.push(n.clone());
            fresh
        })
        .collect()
}

pub use crate::safe_names::MAX_NAME;

/// A name Cassandra accepts: only letters, digits and `_` (from entity names
/// such as `"Order Items"`), within 48 characters: `_and_` shortened to `_`,
/// then cut with a hash of the whole name so that two long names stay distinct.
pub fn fit_name(name: &str) -> String {
    let name = &crate::safe_names::table_name_chars(name);
    if name.len() <= MAX_NAME {
        return name.to_string();
    }
    let short = name.replace("_and_", "_");
    if short.len() <= MAX_NAME {
        return short;
    }
    // FNV-1a: stable across runs and platforms.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let head: String = short.chars().take(MAX_NAME - 9).collect();
    // `_h` + hex: a hash, never read as a collision number.
    format!("{}_h{:07x}", head.trim_end_matches('_'), hash & 0x0fff_ffff)
}

/// The entity whose key is the whole partition key and whose attributes are
/// the table's static columns, when it is not the table's row entity.
fn static_parent(t: &TableDesign) -> Option<String> {
    let statics: Vec<&ColRef> = t
        .columns
        .iter()
        .filter(|c| c.role == Role::Static)
        .filter_map(|c| match &c.part {
            KeyPart::Attr(a) => Some(a),
            _ => None,
        })
        .collect();
    let first = statics.first()?;
    let parent = class_of(&t.classes, first)
        .into_iter()
        .map(|m| m.entity)
        .find(|e| *e != t.entity)
        .unwrap_or_else(|| first.entity.clone());
    let all_parent = statics
        .iter()
        .all(|a| class_of(&t.classes, a).iter().any(|m| m.entity == parent));
    let pk_is_parent = !t.partition_key.is_empty()
        && t.partition_key.iter().all(|p| match p {
            KeyPart::Attr(a) => class_of(&t.classes, a).iter().any(|m| m.entity == parent),
            _ => false,
        });
    (parent != t.entity && all_parent && pk_is_parent).then_some(parent)
}
