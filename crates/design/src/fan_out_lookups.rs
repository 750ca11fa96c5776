//! Lookups for writes that name many rows by columns that are not a key
//! (issue 10 §3): `DELETE FROM tokens WHERE member_id = $1`, or an
//! `UPDATE … FROM` / `DELETE … USING` whose read gives such a column. The
//! write path repeats its statements once per matching row, so a worker must
//! first list those rows; some designed table of the entity must hold them
//! under a partition key made of the bound columns (plus buckets or salts it
//! can enumerate), or the listing reads a table no key can find. When none
//! does, `<entity>_by_<columns>` lists the rows' primary keys, and the
//! entity's own write paths keep it like any other of its tables.

use crate::derive::TableDesign;
use crate::listing::lists_rows_by;
use crate::querylist::{Body, MutationKind, QuerySpec};
use crate::relational::Model;

/// Adds the missing listing table of every UPDATE or DELETE whose bound
/// columns do not cover its entity's primary key.
pub fn fan_out_lookups(model: &Model, specs: &[QuerySpec], tables: &mut Vec<TableDesign>) {
    for q in specs {
        let Body::Mutation(m) = &q.body else { continue };
        if !matches!(m.kind, MutationKind::Update | MutationKind::Delete) || m.key.is_empty() {
            continue;
        }
        let Some(e) = model.entity(&m.entity) else {
            continue;
        };
        // By primary key the write names one row (lookups_for_writes serves
        // its other key values); the inserts of no entity list nothing.
        if e.primary_key.iter().all(|k| m.key.contains(k)) || e.primary_key.is_empty() {
            continue;
        }
        if tables.iter().any(|t| lists_rows_by(t, e, &m.key)) {
            continue;
        }
        let verb = if m.kind == MutationKind::Delete {
            "deletes"
        } else {
            "updates"
        };
        let why = format!(
            "`{}` {verb} every `{}` row with a given `{}`, and no other table finds them by it",
            q.name,
            e.name,
            m.key.join(", ")
        );
        crate::lookups::add_children_lookup(model, e, &m.key, &why, tables);
    }
}
