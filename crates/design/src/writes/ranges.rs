//! A DELETE of a range of rows (`WHERE created_at < now() - interval '90
//! days'`, `WHERE user_id = $1 AND at < $2`): a TTL when it is a retention job
//! on the rows' time, a range delete inside one partition where the table's
//! clustering allows it, else a bounded job over the rows it names.

use cqlmodel_cql::keywords::quote_ident;

use super::WriteStatement;
use super::clauses::{statement, where_of};
use crate::derive::{KeyPart, Role, TableColumn, TableDesign, TableKind};
use crate::querylist::{MutationKind, MutationSpec};

/// The path of a range delete, or `None` when the mutation is not one.
pub(super) fn range_delete(
    keyspace: &str,
    tables: &[TableDesign],
    m: &MutationSpec,
) -> Option<(Vec<WriteStatement>, Vec<String>)> {
    if m.kind != MutationKind::Delete || m.ranges.is_empty() {
        return None;
    }
    let mine: Vec<&TableDesign> = tables
        .iter()
        .filter(|t| t.grain.contains(&m.entity) && t.kind == TableKind::Table)
        .collect();
    if m.key.is_empty() {
        let expiring: Vec<String> = mine
            .iter()
            .filter(|t| t.ttl.is_some())
            .map(|t| format!("`{}` ({} s)", t.name, t.ttl.unwrap_or(0)))
            .collect();
        if expiring.len() == mine.len() && !mine.is_empty() {
            return Some((
                Vec::new(),
                vec![format!(
                    "a retention job: every table of `{}` expires its rows by default_time_to_live instead — {}; the job is not run (a delete of every old row would scan the cluster and write a tombstone per row)",
                    m.entity,
                    expiring.join(", ")
                )],
            ));
        }
        return None;
    }
    let mut statements = Vec::new();
    let mut notes = Vec::new();
    for t in mine {
        match in_partition(keyspace, t, m) {
            Some(st) => statements.push(st),
            None => notes.push(format!(
                "`{}`: the range is not on its first clustering column under a partition the WHERE binds; a worker deletes the rows the statement names, reading their keys first from a table that holds them (one tombstone per row)",
                t.name
            )),
        }
    }
    Some((statements, notes))
}

/// `DELETE FROM t WHERE <partition> = ? AND <clustering> < ?`: one range
/// tombstone, when the WHERE binds the partition key and the range is on the
/// first clustering column.
fn in_partition(keyspace: &str, t: &TableDesign, m: &MutationSpec) -> Option<WriteStatement> {
    let holds = |c: &TableColumn, column: &str| match &c.part {
        KeyPart::Attr(a) => crate::derive::class_of(&t.classes, a)
            .iter()
            .any(|x| x.entity == m.entity && x.column == column),
        _ => false,
    };
    let pk: Vec<&TableColumn> = t
        .columns
        .iter()
        .filter(|c| c.role == Role::PartitionKey)
        .collect();
    if !pk.iter().all(|c| m.key.iter().any(|k| holds(c, k))) {
        return None;
    }
    let first = t
        .columns
        .iter()
        .find(|c| matches!(c.role, Role::ClusteringAsc | Role::ClusteringDesc))?;
    let range: Vec<String> = m
        .ranges
        .iter()
        .filter(|r| holds(first, &r.column))
        .map(|r| format!("{} {} ?", quote_ident(&first.name), r.op))
        .collect();
    if range.is_empty() {
        return None;
    }
    let table = format!("{}.{}", quote_ident(keyspace), quote_ident(&t.name));
    let mut st = statement(
        t,
        format!(
            "DELETE FROM {table} WHERE {} AND {}",
            where_of(&pk),
            range.join(" AND ")
        ),
        None,
    );
    st.reads_first = Some(
        "a range delete inside one partition: one range tombstone, however many rows it covers"
            .into(),
    );
    Some(st)
}
