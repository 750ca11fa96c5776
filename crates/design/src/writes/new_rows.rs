//! Which INSERTs of an insert path write a new row: those whose table keys the
//! row by an identifier generated per row (a sequence's or identity's number,
//! a uuid that is the row's own key). queries.cql marks them `@new-row`,
//! so that a review does not take the new row's values for a read-modify-write
//! of a row some read returned (CQL019): a display read of `order_by_id`
//! selecting `total` is not where a new order's `total` comes from. An INSERT
//! keyed by something else (a parent's id, a natural key, a line number) may
//! replace a row that exists, and is not marked.

use super::WriteStatement;
use super::context::Context;
use crate::chebotko::Role;
use crate::identifiers::generated_identifier;
use crate::querylist::{MutationKind, MutationSpec};
use crate::relational::{Entity, Model};
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
    let fresh = fresh_key_columns(ctx.model, e);
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

/// The entity's primary-key columns that hold an identifier generated per
/// row (`crate::identifiers`, as the sizing counts them): a sequence's or
/// identity's number, a uuid that is its row's own key; never a parent's.
fn fresh_key_columns<'e>(model: &Model, e: &'e Entity) -> Vec<&'e str> {
    e.primary_key
        .iter()
        .filter(|c| {
            generated_identifier(
                model,
                &ColRef {
                    entity: e.name.clone(),
                    column: (*c).clone(),
                },
            )
            .is_some()
        })
        .map(String::as_str)
        .collect()
}
