//! Which INSERTs of an insert path write a new row: those whose table keys the
//! row by an identifier the write has just made (a column PostgreSQL filled,
//! or a uuid the application generates). queries.cql marks them `@new-row`,
//! so that a review does not take the new row's values for a read-modify-write
//! of a row some read returned (CQL019): a display read of `order_by_id`
//! selecting `total` is not where a new order's `total` comes from. An INSERT
//! keyed by something else (a parent's id, a natural key, a line number) may
//! replace a row that exists, and is not marked.

use super::WriteStatement;
use super::context::Context;
use crate::chebotko::Role;
use crate::querylist::{MutationKind, MutationSpec};
use crate::relational::Entity;
use crate::select::ColRef;

/// Marks `new_row` on each INSERT of the path that writes under a fresh key.
pub(super) fn mark_new_rows(
    ctx: &Context<'_>,
    m: &MutationSpec,
    statements: &mut [WriteStatement],
) {
    if m.kind != MutationKind::Insert {
        return;
    }
    let Some(e) = ctx.model.entity(&m.entity) else {
        return;
    };
    let fresh = fresh_key_columns(e, m);
    if fresh.is_empty() {
        return;
    }
    for st in statements.iter_mut() {
        if !st.cql.starts_with("INSERT ") || st.lwt || st.counter {
            continue;
        }
        let Some(t) = ctx.named(&st.table).next() else {
            continue;
        };
        st.new_row = fresh.iter().any(|c| {
            t.column_of(&ColRef {
                entity: e.name.clone(),
                column: (*c).to_string(),
            })
            .is_some_and(|col| {
                matches!(
                    col.role,
                    Role::PartitionKey | Role::ClusteringAsc | Role::ClusteringDesc
                )
            })
        });
    }
}

/// The entity's primary-key columns the insert makes: left to PostgreSQL (a
/// sequence, an identity, a default), or a uuid it supplies that no foreign
/// key copies from a parent.
fn fresh_key_columns<'e>(e: &'e Entity, m: &MutationSpec) -> Vec<&'e str> {
    e.primary_key
        .iter()
        .filter(|c| {
            let supplied = m.columns.contains(c);
            let uuid = e
                .attribute(c)
                .is_some_and(|a| matches!(a.cql_type.as_str(), "uuid" | "timeuuid"));
            let copied = e.foreign_keys.iter().any(|f| f.columns.contains(c));
            !copied && (!supplied || uuid)
        })
        .map(String::as_str)
        .collect()
}
