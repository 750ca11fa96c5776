//! The number of values a column can hold when its type lists them: a
//! boolean, a `CHECK (col IN (…))`, a domain whose CHECK lists them, an
//! enum. Read by the derivation (a read whose only equalities have a
//! handful of values gets no key of its own) and by sizing (a key column
//! holding one has that many partitions at most, whatever the row count).

use crate::relational::Model;
use crate::select::ColRef;

/// The values `c` can hold, with a description of where the number comes
/// from (`` `orders.status` enum `order_status`: 4 values ``), or `None` when
/// its type does not list them.
pub(crate) fn listed_values(model: &Model, c: &ColRef) -> Option<(String, usize)> {
    let attr = model.entity(&c.entity)?.attribute(&c.column)?;
    if attr.cql_type == "boolean" {
        return Some((format!("`{}.{}` boolean: 2 values", c.entity, c.column), 2));
    }
    let at = (c.entity.clone(), c.column.clone());
    if let Some((check, n)) = model.check_sizes.get(&at) {
        return Some((
            format!(
                "`{}.{}` CHECK `{check}` lists {n} values",
                c.entity, c.column
            ),
            *n,
        ));
    }
    if let Some((domain, n)) = model.domain_sizes.get(&at) {
        return Some((
            format!(
                "`{}.{}` domain `{domain}`, its CHECK lists {n} values",
                c.entity, c.column
            ),
            *n,
        ));
    }
    let name = enum_name(&attr.pg_type);
    let n = *model.enum_sizes.get(&name)?;
    Some((
        format!("`{}.{}` enum `{name}`: {n} values", c.entity, c.column),
        n,
    ))
}

/// The type name of a column as the model keys its enums: lowercase, without
/// schema or quotes (`public."Order_Status"` → `order_status`).
fn enum_name(pg_type: &str) -> String {
    let t = pg_type.trim();
    let last = t.rsplit('.').next().unwrap_or(t);
    last.trim_matches('"').to_ascii_lowercase()
}
