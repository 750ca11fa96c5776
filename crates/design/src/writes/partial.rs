//! Partial unique indexes (`CREATE UNIQUE INDEX … ON accounts (email) WHERE
//! deleted_at IS NULL`): PostgreSQL enforced uniqueness only among the rows
//! matching the predicate, so an UPDATE that takes a row out of that set
//! (closing an account) freed its value for another row. The design's claim
//! on the value must then be released, or the value stays taken for ever; and
//! an UPDATE that brings the row back into the set (`closed_at = NULL`, a
//! restore) must claim the value again, or two rows would hold it.

use cqlmodel_cql::keywords::quote_ident;

use super::clauses::{owner_condition, statement, where_of};
use super::kept::keyed_by;
use super::{Step, WriteStatement};
use crate::derive::{Role, TableDesign};
use crate::querylist::{MutationKind, MutationSpec};
use crate::relational::{Entity, Model, UniqueIndex};

/// For an UPDATE that sets a column of a partial unique index's predicate
/// (and not the indexed value itself, whose move releases it already): a
/// conditional delete of the claim, run when the new values leave the set.
pub(super) fn release_partial_claims(
    model: &Model,
    keyspace: &str,
    tables: &[TableDesign],
    m: &MutationSpec,
    statements: &mut Vec<WriteStatement>,
    notes: &mut Vec<String>,
) {
    if m.kind != MutationKind::Update {
        return;
    }
    let Some(e) = model.entity(&m.entity) else {
        return;
    };
    for ix in &e.unique_indexes {
        let Some(predicate) = &ix.predicate else {
            continue;
        };
        let moved: Vec<&String> = predicate_columns(e, predicate)
            .into_iter()
            .filter(|c| m.columns.contains(c))
            .collect();
        if moved.is_empty() || ix.columns.iter().any(|c| m.columns.contains(c)) {
            continue;
        }
        for t in tables.iter().filter(|t| keyed_by(t, &e.name, &ix.columns)) {
            gate_on_reclaim(statements, t, ix, predicate);
            statements.push(reclaim(keyspace, t, e, ix, predicate));
            statements.push(release(model, keyspace, t, e, ix, predicate));
            notes.push(format!(
                "partial unique index `{}` (`WHERE {predicate}`): setting {} can take the row out of the set PostgreSQL kept `{}` unique in, which freed the value: the claim in `{}` is released (DELETE … IF, only when the new values leave the set, after the other statements); or bring it back in (a restore), where PostgreSQL refused the update if another row had taken the value meanwhile: the value is claimed again first (INSERT … IF NOT EXISTS, only when the row enters the set), and the other statements run only if that claim applied",
                ix.name,
                moved.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", "),
                ix.columns.join(", "),
                t.name
            ));
        }
    }
}

fn release(
    model: &Model,
    keyspace: &str,
    t: &TableDesign,
    e: &Entity,
    ix: &UniqueIndex,
    predicate: &str,
) -> WriteStatement {
    let keys: Vec<_> = t
        .columns
        .iter()
        .filter(|c| c.role == Role::PartitionKey)
        .collect();
    let mut st = statement(
        t,
        format!(
            "DELETE FROM {}.{} WHERE {} IF {}",
            quote_ident(keyspace),
            quote_ident(&t.name),
            where_of(&keys),
            owner_condition(t, model, &e.name)
        ),
        None,
    );
    st.lwt = true;
    st.step = Step::Release;
    st.only_when = Some(format!(
        "the updated row no longer matches `WHERE {predicate}` of `{}` (the application evaluates it on the new values)",
        ix.name
    ));
    st.reads_first = Some(format!(
        "the row's `{}` (the claimed value), by {}",
        ix.columns.join("`, `"),
        e.primary_key.join(", ")
    ));
    st.reads = vec![super::ReadSource::by(&e.name, &e.primary_key)];
    st
}

/// `INSERT … IF NOT EXISTS` of the claim row, when the update brings the
/// row (back) into the index's set.
fn reclaim(
    keyspace: &str,
    t: &TableDesign,
    e: &Entity,
    ix: &UniqueIndex,
    predicate: &str,
) -> WriteStatement {
    let cols: Vec<String> = t.columns.iter().map(|c| quote_ident(&c.name)).collect();
    let mut st = statement(
        t,
        format!(
            "INSERT INTO {}.{} ({}) VALUES ({}) IF NOT EXISTS",
            quote_ident(keyspace),
            quote_ident(&t.name),
            cols.join(", "),
            crate::reads::markers(cols.len() as u64)
        ),
        None,
    );
    st.lwt = true;
    st.step = Step::Claim;
    st.only_when = Some(reenters(ix, predicate));
    st.reads_first = Some(format!(
        "the row's values (the claim row copies them) and whether it matched `WHERE {predicate}` before, by {}",
        e.primary_key.join(", ")
    ));
    st.reads = vec![super::ReadSource::by(&e.name, &e.primary_key)];
    st
}

fn reenters(ix: &UniqueIndex, predicate: &str) -> String {
    format!(
        "the updated row matches `WHERE {predicate}` of `{}` and the old one did not (a restore: the application evaluates it on the old and the new values)",
        ix.name
    )
}

/// The path's other statements run only if the re-claim, when it runs,
/// applied: else another row holds the value, and PostgreSQL's index refused
/// the update.
fn gate_on_reclaim(
    statements: &mut [WriteStatement],
    t: &TableDesign,
    ix: &UniqueIndex,
    predicate: &str,
) {
    let gate = format!(
        "when the row re-enters `WHERE {predicate}`, the re-claim of `{}` on `{}` applied (`[applied]` = true; else another row holds the value and the update is refused, as `{}` refused it)",
        ix.columns.join(", "),
        t.name,
        ix.name
    );
    for st in statements.iter_mut().filter(|s| s.step != Step::Claim) {
        st.only_when = Some(match &st.only_when {
            Some(w) => format!("{w}; and {gate}"),
            None => gate.clone(),
        });
    }
}

/// The entity's columns a predicate names (`deleted_at IS NULL` → `deleted_at`).
fn predicate_columns<'e>(e: &'e Entity, predicate: &str) -> Vec<&'e String> {
    let words: Vec<String> = predicate
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    e.attributes
        .iter()
        .map(|a| &a.name)
        .filter(|n| words.contains(n))
        .collect()
}
