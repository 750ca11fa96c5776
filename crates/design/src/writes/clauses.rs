//! The pieces of a write statement: its record, and the WHERE, SET and IF
//! clauses of its CQL.

use cqlmodel_cql::keywords::quote_ident;

use super::WriteStatement;
use super::presence::holds_any;
use crate::derive::{Role, TableColumn, TableDesign, TableKind};
use crate::querylist::MutationSpec;
use crate::relational::Model;
use crate::select::ColRef;

pub(super) fn statement(t: &TableDesign, cql: String, repeat: Option<String>) -> WriteStatement {
    WriteStatement {
        table: t.name.clone(),
        cql,
        repeat,
        reads_first: None,
        reads: Vec::new(),
        counter: t.kind == TableKind::Counter,
        lwt: false,
        hybrid: false,
        only_when: None,
        step: super::Step::Plain,
        new_row: false,
        mechanism: String::new(),
        reason: String::new(),
    }
}

pub(super) fn where_of(cols: &[&TableColumn]) -> String {
    cols.iter()
        .map(|c| format!("{} = ?", quote_ident(&c.name)))
        .collect::<Vec<_>>()
        .join(" AND ")
}

/// `col = ?` for every non-key column holding an attribute the mutation sets.
pub(super) fn set_of(t: &TableDesign, m: &MutationSpec) -> Vec<String> {
    t.columns
        .iter()
        .filter(|c| matches!(c.role, Role::Static | Role::Regular))
        .filter(|c| holds_any(t, c, &m.entity, &m.columns))
        .map(|c| format!("{} = ?", quote_ident(&c.name)))
        .collect()
}

/// A partition claimed with a lightweight transaction is written only with
/// conditions (`… IF user_id = ?`): LWT and plain writes on one partition do not
/// order safely (Paxos ballots against client timestamps).
pub(super) fn guard_claim(
    st: &mut WriteStatement,
    step: super::Step,
    t: &TableDesign,
    model: &Model,
    entity: &str,
) {
    let condition = owner_condition(t, model, entity);
    if !condition.is_empty() {
        st.cql = format!("{} IF {condition}", st.cql);
        st.lwt = true;
        st.step = step;
    }
}

/// `DELETE FROM t USING TIMESTAMP ? WHERE …`: the first half of a key move.
pub(super) fn timestamped_delete(table: &str, keys: &[&TableColumn]) -> String {
    format!(
        "DELETE FROM {table} USING TIMESTAMP ? WHERE {}",
        where_of(keys)
    )
}

/// `customer_id = ?`: the entity's primary key columns held in the table, the
/// condition that the claimed value is still this row's.
pub(super) fn owner_condition(t: &TableDesign, model: &Model, entity: &str) -> String {
    let Some(e) = model.entity(entity) else {
        return "EXISTS".into();
    };
    let condition = e
        .primary_key
        .iter()
        .filter_map(|c| {
            t.column_of(&ColRef {
                entity: entity.to_string(),
                column: c.clone(),
            })
        })
        // A key column cannot carry a condition (the row's key then names the
        // owner already), and a static one would turn the statement into a
        // static-only write: the row then only has to exist.
        .filter(|c| c.role == Role::Regular)
        .map(|c| format!("{} = ?", quote_ident(&c.name)))
        .collect::<Vec<_>>()
        .join(" AND ");
    if condition.is_empty() {
        "EXISTS".into()
    } else {
        condition
    }
}
