//! A delete and the set table of a `count(DISTINCT x)` (one row per distinct
//! value under the key): the set keeps the deleted row's value, since other
//! rows of the key may still hold it. The count then drifts high; this says
//! by how much at most, and why the design does not recount.

use cqlmodel_stats::Stats;
use cqlmodel_stats::units::format_count;

use crate::derive::{KeyPart, TableDesign};
use crate::relational::Model;
use crate::select::ColRef;

/// The write path's note for a delete of a row whose value `t` counts.
pub(super) fn drift_note(model: &Model, stats: Option<&Stats>, t: &TableDesign) -> String {
    let value = t.clustering.iter().find_map(|(p, _)| match p {
        KeyPart::Attr(a) => Some(a),
        _ => None,
    });
    let Some(value) = value else {
        return format!(
            "`{}` holds the distinct values of a `count(DISTINCT …)`, not rows: deleting one row cannot remove a value other rows may still hold, so the set keeps it (the count is high by the values whose last row went, until a recount job removes them)",
            t.name
        );
    };
    let bound = match values_of(model, stats, value) {
        Some((n, why)) => format!(
            "at most {} per key: the values a key can ever hold ({why}), less the one a live row holds",
            format_count(n.saturating_sub(1) as f64)
        ),
        None => format!(
            "by the distinct `{}` values a key ever held and no longer holds: nothing bounds it (no statistics give `{}`'s distinct count, and no CHECK, enum or domain lists its values)",
            value.column, value.column
        ),
    };
    let expiry = t.ttl.map_or(String::new(), |ttl| {
        format!(
            "; the set's rows expire after {}, which ends the drift of a value",
            cqlmodel_stats::units::format_duration(ttl)
        )
    });
    format!(
        "`{}` holds the distinct `{}` values of a `count(DISTINCT {})`, not rows: a delete cannot tell whether another row of the key still holds its value, so the set keeps it and the count stays high by the values whose last row went: {bound}{expiry}; never low, and a value written again is counted once. Not a recount on delete: it would read the key's rows holding the value (no designed table clusters them by `{}`), and a delete of the set row after that read races an insert of the same value (the value would go while a row holds it: low, which a reader cannot detect); not a per-(key, value) reference counter: a counter cannot be decremented and tested for zero atomically, so the same race remains. A recount job (read the key's rows, rewrite its set) corrects it where exactness matters",
        t.name, value.column, value.column, value.column
    )
}

/// The number of values `column` can take, and where that comes from: its
/// declared domain (boolean, CHECK list, enum, domain), else its distinct
/// count in the statistics.
fn values_of(model: &Model, stats: Option<&Stats>, c: &ColRef) -> Option<(usize, String)> {
    let attr = model.entity(&c.entity)?.attribute(&c.column)?;
    let at = (c.entity.clone(), c.column.clone());
    if attr.cql_type == "boolean" {
        return Some((2, "boolean".into()));
    }
    if let Some((check, n)) = model.check_sizes.get(&at) {
        return Some((*n, format!("CHECK `{check}` lists {n}")));
    }
    if let Some((domain, n)) = model.domain_sizes.get(&at) {
        return Some((*n, format!("domain `{domain}` lists {n}")));
    }
    let t = attr.pg_type.trim();
    let name = t.rsplit('.').next().unwrap_or(t).trim_matches('"');
    if let Some(n) = model.enum_sizes.get(&name.to_ascii_lowercase()) {
        return Some((*n, format!("enum `{name}`: {n} values")));
    }
    let distinct = stats?
        .tables
        .get(&crate::stats_keys::entity_key(&c.entity))?
        .column(&c.column)?
        .distinct?;
    Some((
        distinct.max(1.0) as usize,
        format!(
            "stats: {} distinct `{}` in all",
            format_count(distinct),
            c.column
        ),
    ))
}
