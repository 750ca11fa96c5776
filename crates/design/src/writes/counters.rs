//! The counter table of attributes only ever incremented (`views = views + 1`):
//! an increment adds without reading, an insert adds the initial value, a
//! delete removes the counters.

use cqlmodel_cql::keywords::quote_ident;

use super::clauses::{statement, where_of};
use super::{Step, WriteStatement};
use crate::derive::{KeyPart, Role, TableColumn, TableDesign, TableKind};
use crate::querylist::{MutationKind, MutationSpec};

/// True for a counter table of attributes (not the `count` of rows).
pub(super) fn holds_counters(t: &TableDesign) -> bool {
    t.kind == TableKind::Counter
        && t.columns
            .iter()
            .any(|c| c.cql_type == "counter" && matches!(c.part, KeyPart::Attr(_)))
}

pub(super) fn counter_statements(
    table: &str,
    t: &TableDesign,
    m: &MutationSpec,
) -> Vec<WriteStatement> {
    let pk: Vec<&TableColumn> = t
        .columns
        .iter()
        .filter(|c| c.role == Role::PartitionKey)
        .collect();
    let counted: Vec<&TableColumn> = t
        .columns
        .iter()
        .filter(|c| c.cql_type == "counter")
        .filter(|c| matches!(&c.part, KeyPart::Attr(a) if a.entity == m.entity && m.columns.contains(&a.column)))
        .collect();
    let add = |cols: &[&TableColumn]| {
        let set: Vec<String> = cols
            .iter()
            .map(|c| {
                let n = quote_ident(&c.name);
                format!("{n} = {n} + ?")
            })
            .collect();
        format!(
            "UPDATE {table} SET {} WHERE {}",
            set.join(", "),
            where_of(&pk)
        )
    };
    match m.kind {
        MutationKind::Update if !counted.is_empty() => {
            let mut st = statement(t, add(&counted), None);
            st.step = Step::Increment;
            st.reads_first = Some(
                "bind the step (negated for `n - x`): the counter adds it without reading".into(),
            );
            vec![st]
        }
        MutationKind::Insert if !counted.is_empty() => {
            let mut st = statement(t, add(&counted), None);
            st.step = Step::Increment;
            st.reads_first = Some(
                "the inserted value is the new counter's first increment (a counter starts at 0)"
                    .into(),
            );
            vec![st]
        }
        MutationKind::Delete if m.key.is_empty() || !m.ranges.is_empty() => Vec::new(),
        MutationKind::Delete => {
            let mut st = statement(
                t,
                format!("DELETE FROM {table} WHERE {}", where_of(&pk)),
                None,
            );
            st.reads_first = Some(
                "a deleted counter cannot be used again reliably: the key must not come back"
                    .into(),
            );
            vec![st]
        }
        _ => Vec::new(),
    }
}

/// `count = count + 1, sum_total = sum_total + ?`: the SET of a counter table
/// of aggregates when a counted row comes (`+`) or goes (`-`).
pub(super) fn aggregate_set(t: &TableDesign, sign: &str) -> String {
    t.columns
        .iter()
        .filter_map(|c| {
            let n = quote_ident(&c.name);
            match &c.part {
                KeyPart::Counter => Some(format!("{n} = {n} {sign} 1")),
                KeyPart::Sum(_) => Some(format!("{n} = {n} {sign} ?")),
                _ => None,
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `sum_total = sum_total + ?` for the summed attributes an UPDATE assigns.
pub(super) fn sums_changed(t: &TableDesign, m: &MutationSpec) -> Vec<String> {
    t.columns
        .iter()
        .filter(|c| matches!(&c.part, KeyPart::Sum(a) if a.entity == m.entity && m.columns.contains(&a.column)))
        .map(|c| {
            let n = quote_ident(&c.name);
            format!("{n} = {n} + ?")
        })
        .collect()
}
