//! Which columns hold an identifier generated per row of their entity (a
//! sequence's or identity's number, a uuid that is its row's own key): read
//! by the sizing (such a column has one value per row) and by the write
//! paths (an INSERT keyed by one writes a new row). A leaf, so that both
//! read it without importing each other.

use crate::relational::Model;
use crate::select::ColRef;

pub(crate) fn is_foreign_key(model: &Model, c: &ColRef) -> bool {
    model
        .entity(&c.entity)
        .is_some_and(|e| e.foreign_keys.iter().any(|f| f.columns.contains(&c.column)))
}

/// Why a column holds an identifier generated per row of its entity, or
/// `None` when it does not: a foreign key copies its parent's values, and a
/// uuid that is part of a composite key (`batch` of `(batch, line_no)`) is
/// shared by the rows the key tells apart. A sequence's or identity's
/// number is new for every row wherever it stands in a key.
pub(crate) fn generated_identifier(model: &Model, c: &ColRef) -> Option<&'static str> {
    let e = model.entity(&c.entity)?;
    if is_foreign_key(model, c) {
        return None;
    }
    let col = &c.column;
    let a = e.attribute(col)?;
    let identity = model
        .identities
        .iter()
        .any(|(t, x)| *t == c.entity && x == col);
    let own_key = e.keys().any(|k| k.as_slice() == std::slice::from_ref(col));
    let shared = e.keys().any(|k| k.len() > 1 && k.contains(col));
    if identity {
        Some("an identity number")
    } else if a.default.as_deref().is_some_and(|d| d.contains("nextval(")) {
        Some("a serial number")
    } else if matches!(a.cql_type.as_str(), "uuid" | "timeuuid") && (own_key || !shared) {
        Some("a uuid")
    } else {
        None
    }
}
