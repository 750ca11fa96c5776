//! Which designed table lists an entity's rows by columns that are not its
//! key (a fan-out write's "read their keys first"): a leaf shared by the
//! stage that adds a missing listing (fan_out_lookups) and the write paths
//! that read it, so neither imports the other.

use crate::derive::{KeyPart, TableDesign, TableKind, class_of};
use crate::relational::Entity;

/// The words a statement's read-first text gains: the listing table, and
/// the partitions a listing walks (its buckets and salts enumerated).
pub(crate) fn listing_text(t: &TableDesign, key: &[String]) -> String {
    let walk: Vec<String> = t
        .partition_key
        .iter()
        .filter_map(|p| match p {
            KeyPart::Bucket(_, unit) => Some(format!("each `{unit}` bucket that can hold rows")),
            KeyPart::Salt(n) => Some(format!("each of its {n} salt buckets")),
            _ => None,
        })
        .collect();
    if walk.is_empty() {
        format!(
            "; the rows are listed from `{}` (one partition per {})",
            t.name,
            key.join(", ")
        )
    } else {
        format!(
            "; the rows are listed from `{}`, the {}'s partitions: {}",
            t.name,
            key.join(", "),
            walk.join(" and ")
        )
    }
}

/// A table of `e`'s own rows whose partition key a write binding `key` can
/// fill (its attributes among `key`, its buckets, salts and constants
/// enumerable) and whose key holds `e`'s primary key: one listing per
/// partition finds every row the write names.
pub(crate) fn lists_rows_by(t: &TableDesign, e: &Entity, key: &[String]) -> bool {
    if t.kind != TableKind::Table || t.grain != [e.name.clone()] {
        return false;
    }
    let own = |a: &crate::select::ColRef| -> Option<String> {
        class_of(&t.classes, a)
            .iter()
            .chain(std::iter::once(a))
            .find(|x| x.entity == e.name)
            .map(|x| x.column.clone())
    };
    let bound = t.partition_key.iter().all(|p| match p {
        KeyPart::Attr(a) => own(a).is_some_and(|c| key.contains(&c)),
        KeyPart::Bucket(..) | KeyPart::Salt(_) | KeyPart::Whole => true,
        KeyPart::Counter | KeyPart::Sum(_) => false,
    });
    let by_attr = |p: &KeyPart| match p {
        KeyPart::Attr(a) => own(a),
        _ => None,
    };
    bound
        && t.partition_key
            .iter()
            .any(|p| matches!(p, KeyPart::Attr(_)))
        && e.primary_key.iter().all(|k| {
            t.partition_key
                .iter()
                .chain(t.clustering.iter().map(|(p, _)| p))
                .any(|p| by_attr(p).as_ref() == Some(k))
        })
}
