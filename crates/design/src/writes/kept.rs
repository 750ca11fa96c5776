//! What the SQL meant that the CQL text alone does not say, written on the
//! statements that carry it: a patch column (`coalesce($1, col)`) is bound
//! UNSET when the application has no value, and a unique key PostgreSQL
//! compared normalized (`lower(email)`, `citext`, a nondeterministic
//! collation) is claimed by its normalized value.

use super::WriteStatement;
use crate::derive::{KeyPart, TableDesign};
use crate::querylist::MutationSpec;
use crate::relational::Model;

/// The statements writing a patch column say how it is bound.
pub(super) fn patches(m: &MutationSpec, statements: &mut [WriteStatement]) {
    for st in statements.iter_mut() {
        let written: Vec<String> = m
            .patch
            .iter()
            .filter(|c| writes_column(&st.cql, c))
            .map(|c| format!("`{c}`"))
            .collect();
        if written.is_empty() {
            continue;
        }
        st.reason.push_str(&format!(
            "; patch: {} {} when the application gives none (`coalesce($n, col)` in SQL): bind UNSET for an absent value (native protocol v4+, no cell is written), never null (a null deletes the cell: the column would be lost); on protocol v3 run one statement per given column",
            written.join(", "),
            if written.len() == 1 { "keeps its value" } else { "keep their value" }
        ));
    }
}

/// `col = ?` in an UPDATE's SET, or `col` in an INSERT's column list.
fn writes_column(cql: &str, column: &str) -> bool {
    let quoted = cqlmodel_cql::keywords::quote_ident(column);
    if cql.starts_with("INSERT ") {
        let list = cql.split(" VALUES ").next().unwrap_or_default();
        return list
            .split(['(', ')', ',', ' '])
            .any(|w| w == quoted.as_str());
    }
    let set = cql
        .split(" SET ")
        .nth(1)
        .and_then(|r| r.split(" WHERE ").next())
        .unwrap_or_default();
    set.split(',')
        .any(|a| a.trim().starts_with(&format!("{quoted} = ")))
}

/// The statements on a table keyed by a normalized unique key bind the
/// normalized value; a partial unique index says which rows it covers.
pub(super) fn normalized_keys(
    model: &Model,
    tables: &[TableDesign],
    m: &MutationSpec,
    statements: &mut [WriteStatement],
    notes: &mut Vec<String>,
) {
    let Some(e) = model.entity(&m.entity) else {
        return;
    };
    for key in &e.uniques {
        let partial = e
            .unique_indexes
            .iter()
            .find(|ix| ix.columns == *key)
            .and_then(|ix| ix.predicate.clone());
        let how = crate::relational::normalization(e, key);
        if how.is_none() && partial.is_none() {
            continue;
        }
        let keyed: Vec<&str> = tables
            .iter()
            .filter(|t| keyed_by(t, &e.name, key))
            .map(|t| t.name.as_str())
            .collect();
        for st in statements
            .iter_mut()
            .filter(|s| keyed.contains(&s.table.as_str()))
        {
            if let Some(how) = &how {
                st.reason.push_str(&format!(
                    "; {how}: the application binds the normalized value (lower-cased) here and in every read of this table, so that `Alice@x` and `alice@x` claim one partition"
                ));
            }
            if let Some(p) = &partial {
                st.reason.push_str(&format!(
                    "; the unique index is partial (`WHERE {p}`): the value is claimed only while the row matches it, and released when an update takes the row out"
                ));
            }
        }
        if let Some(how) = &how
            && m.kind == crate::querylist::MutationKind::Insert
            && key.iter().all(|c| m.columns.contains(c))
        {
            notes.push(format!(
                "unique ({}) as PostgreSQL compared it: {how}; the claim is on the normalized value, computed by the application",
                key.join(", ")
            ));
        }
    }
}

pub(super) fn keyed_by(t: &TableDesign, entity: &str, key: &[String]) -> bool {
    let cols: Vec<&str> = t
        .partition_key
        .iter()
        .filter_map(|p| match p {
            KeyPart::Attr(a) if a.entity == entity => Some(a.column.as_str()),
            _ => None,
        })
        .collect();
    cols.len() == t.partition_key.len()
        && cols.len() == key.len()
        && key.iter().all(|k| cols.contains(&k.as_str()))
}

/// An insert that increments a count of its rows is a set insert: PostgreSQL's
/// primary key refused the second identical row, Cassandra's INSERT is an
/// upsert, so an unguarded increment counts a repeated row twice. The row of
/// record is inserted `IF NOT EXISTS` and the counts run only when it applied.
pub(super) fn guard_set_counts(
    model: &Model,
    tables: &[TableDesign],
    m: &MutationSpec,
    rate: Option<f64>,
    statements: &mut [WriteStatement],
    notes: &mut Vec<String>,
) {
    if m.kind != crate::querylist::MutationKind::Insert
        || m.on_conflict == Some(crate::querylist::Conflict::DoUpdate)
    {
        return;
    }
    let Some(e) = model.entity(&m.entity) else {
        return;
    };
    // A set: every primary-key column refers to another entity (a member
    // of a playlist, a follow, a star). An entity with its own generated id
    // is not a set: a repeat of its insert is a retry, stated by the counter.
    let is_set = e
        .primary_key
        .iter()
        .all(|c| e.foreign_keys.iter().any(|f| f.columns.contains(c)));
    if !is_set {
        return;
    }
    // The table whose key is the primary key and nothing else: only there
    // does `IF NOT EXISTS` see the same row again.
    let Some(record) = tables
        .iter()
        .find(|t| {
            t.rows_by_primary_key(e)
                && t.partition_key.len() + t.clustering.len() == e.primary_key.len()
        })
        .map(|t| t.name.as_str())
    else {
        return;
    };
    let counts = statements
        .iter()
        .any(|s| s.counter && s.cql.contains("+ 1"));
    let guarded = statements.iter().any(|s| s.lwt);
    if !counts || guarded {
        return;
    }
    // The review's high rate: a guard there would be a lightweight
    // transaction on a hot path, which the design's own review flags.
    let high = cqlmodel_review::Thresholds::default().high_rate_per_second;
    if let Some(r) = rate.filter(|r| *r > high) {
        notes.push(format!(
            "counted set at {}: guarding the count with `IF NOT EXISTS` would put a lightweight transaction on a path over {}/s; the count is not guarded, so a repeated insert of the same row counts twice: the application checks the row first (a read of `{record}`) or the exact number is the set partition's row count",
            crate::numbers::rate_text(r),
            crate::numbers::trim_float(high)
        ));
        return;
    }
    let Some(st) = statements
        .iter_mut()
        .find(|s| s.table == record && s.cql.starts_with("INSERT ") && !s.counter)
    else {
        return;
    };
    st.cql.push_str(" IF NOT EXISTS");
    st.lwt = true;
    st.step = super::Step::Claim;
    st.mechanism = "lightweight transaction (set insert), first".into();
    st.reason = "the row is counted: inserted only if new (Paxos, LOCAL_SERIAL), so that a repeated insert (an upsert in Cassandra, refused by PostgreSQL's primary key) is not counted twice".into();
    let gate = format!("the insert into `{record}` applied (`[applied]` = true)");
    for s in statements.iter_mut().filter(|s| s.counter) {
        s.only_when = Some(match &s.only_when {
            Some(w) => format!("{gate}, and {w}"),
            None => gate.clone(),
        });
    }
    notes.push(format!(
        "counted set: the insert adds a row that a count counts; it is `INSERT … IF NOT EXISTS` on `{record}` and the count is incremented only when it applied (adding the same row twice counts once, as in PostgreSQL)"
    ));
}
