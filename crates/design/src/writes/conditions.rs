//! What PostgreSQL checked for a write, checked again by Cassandra: the
//! compare-and-set of an UPDATE or DELETE with a condition beyond its key, and
//! the claim of a primary key the application supplies. Both are lightweight
//! transactions on the row of record; every other statement of the path runs
//! only when it applied.

use cqlmodel_cql::keywords::quote_ident;

use super::{Step, WriteStatement};
use crate::derive::TableDesign;
use crate::meaning::Meaning;
use crate::querylist::{Conflict, MutationKind, MutationSpec};

/// Turns the statement on the row of record into the lightweight transaction
/// (compare-and-set, or claim) and makes every other statement wait for
/// `[applied]`. Returns a note when the path cannot carry the condition.
/// `record` is the table holding the entity's row of record (its rows, keyed
/// by its primary key alone, unsalted), looked up by the caller's index.
pub(super) fn apply(
    record: Option<&TableDesign>,
    m: &MutationSpec,
    meaning: &Meaning,
    statements: &mut [WriteStatement],
) -> Option<String> {
    let claims = m.kind == MutationKind::Insert
        && meaning.claims_primary_key(&m.entity)
        && m.on_conflict != Some(Conflict::DoUpdate);
    let guarded = m.kind != MutationKind::Insert && meaning.claims_primary_key(&m.entity);
    if m.conditions.is_empty() && !claims && !guarded {
        return None;
    }
    let Some(record) = record else {
        return Some(format!(
            "no table holds `{}` rows by its primary key: the condition is not checked",
            m.entity
        ));
    };
    if m.conditions.is_empty() && !statements.iter().any(|s| s.table == record.name) {
        // The path does not touch the row of record (an increment of a
        // counter): there is nothing to claim or guard.
        return None;
    }
    let clause = match clause(record, m, claims) {
        Ok(c) => c,
        Err(note) => return Some(note),
    };
    let step = step_of(m, claims);
    let mut found = false;
    for st in statements.iter_mut() {
        if st.table == record.name && st.step == Step::Plain && !st.counter {
            conditional_cql(st, &clause);
            st.lwt = true;
            st.step = step;
            found = true;
        }
    }
    if !found {
        return Some(format!(
            "no statement of this path writes `{}`, the row of record: the condition is not checked",
            record.name
        ));
    }
    // A release runs last, after the other tables: nothing waits for it.
    if step == Step::Release {
        return None;
    }
    let gate = gate(step, &record.name);
    for st in statements
        .iter_mut()
        .filter(|s| s.table != record.name && s.step != Step::Release)
    {
        st.only_when = Some(match &st.only_when {
            Some(w) => format!("{gate}, and {w}"),
            None => gate.clone(),
        });
    }
    None
}

/// The condition of the row of record's statement: the compare-and-set's
/// columns, a claim, or the row's existence. Err: the note when the record
/// table does not hold every condition column.
fn clause(record: &TableDesign, m: &MutationSpec, claims: bool) -> Result<String, String> {
    if !m.conditions.is_empty() {
        let cond: Vec<String> = m
            .conditions
            .iter()
            .filter_map(|c| {
                let col = record.column_of(&crate::select::ColRef {
                    entity: m.entity.clone(),
                    column: c.column.clone(),
                })?;
                Some(format!("{} {} ?", quote_ident(&col.name), c.op))
            })
            .collect();
        if cond.len() != m.conditions.len() {
            return Err(format!(
                "the compare-and-set's condition is not carried: `{}` does not hold every condition column",
                record.name
            ));
        }
        Ok(format!("IF {}", cond.join(" AND ")))
    } else if claims {
        Ok("IF NOT EXISTS".to_string())
    } else {
        Ok("IF EXISTS".to_string())
    }
}

/// The role of the row of record's statement among the path's.
fn step_of(m: &MutationSpec, claims: bool) -> Step {
    if !m.conditions.is_empty() {
        Step::CompareAndSet
    } else if claims {
        Step::Claim
    } else if m.kind == MutationKind::Delete {
        Step::Release
    } else {
        Step::Conditional
    }
}

/// What every other statement of the path waits for.
fn gate(step: Step, record: &str) -> String {
    match step {
        Step::CompareAndSet => format!(
            "the compare-and-set on `{}` applied (`[applied]` = true)",
            record
        ),
        Step::Claim => format!("the claim on `{}` applied (`[applied]` = true)", record),
        _ => format!("the row still exists in `{}` (`[applied]` = true)", record),
    }
}

/// Makes `st` conditional. Cassandra refuses a custom timestamp on a conditional
/// write ("Cannot provide custom timestamp for conditional updates": Paxos
/// orders them), so a key move's `USING TIMESTAMP ?` goes; an INSERT takes no
/// condition but `IF NOT EXISTS` (the moved row must not exist yet), and the
/// path's condition stays on its DELETE or UPDATE.
fn conditional_cql(st: &mut WriteStatement, clause: &str) {
    let cql = st
        .cql
        .replace(" USING TIMESTAMP ? ", " ")
        .replace(" USING TIMESTAMP ?", "");
    let clause = if cql.starts_with("INSERT ") {
        "IF NOT EXISTS"
    } else {
        clause
    };
    st.cql = if cql.ends_with(clause) {
        cql
    } else {
        format!("{cql} {clause}")
    };
}

/// A path that claims UNIQUE values writes nothing else until every claim
/// applied: the plain statements say so.
pub(super) fn gate_on_claims(statements: &mut [WriteStatement]) {
    let claims: Vec<String> = statements
        .iter()
        .filter(|s| s.step == Step::Claim)
        .map(|s| format!("`{}`", s.table))
        .collect();
    if claims.is_empty() {
        return;
    }
    let gate = format!(
        "the claim{} on {} applied (`[applied]` = true)",
        if claims.len() == 1 { "" } else { "s" },
        claims.join(" and ")
    );
    for st in statements.iter_mut().filter(|s| {
        !s.lwt
            && !s
                .only_when
                .as_deref()
                .is_some_and(|w| w.contains("[applied]"))
    }) {
        st.only_when = Some(match &st.only_when {
            Some(w) => format!("{gate}, and {w}"),
            None => gate.clone(),
        });
    }
}

/// The mechanism and cost of the path's own lightweight transaction.
pub(super) fn explain(
    statements: &mut [WriteStatement],
    m: &MutationSpec,
    rate: Option<f64>,
    record: Option<&str>,
) {
    let at_rate = rate.map_or(
        "; each a Paxos round: four round trips to a quorum of replicas instead of one write".to_string(),
        |r| {
            format!(
                "; at {} that is {} Paxos rounds per second, each four round trips to a quorum of replicas instead of one write",
                crate::numbers::rate_text(r),
                crate::numbers::trim_float(r)
            )
        },
    );
    for st in statements.iter_mut() {
        if Some(st.table.as_str()) != record {
            continue;
        }
        match st.step {
            Step::CompareAndSet => {
                let cond: Vec<String> = m
                    .conditions
                    .iter()
                    .map(|c| format!("`{} {} ?`", c.column, c.op))
                    .collect();
                st.mechanism = "lightweight transaction (compare-and-set), first".into();
                st.reason = format!(
                    "PostgreSQL {} the row only where {}: Cassandra checks it with Paxos (LOCAL_SERIAL){at_rate}; when `[applied]` is false nothing else is written: the application re-reads and retries, or reports the conflict",
                    if m.kind == MutationKind::Delete {
                        "deleted"
                    } else {
                        "changed"
                    },
                    cond.join(" and ")
                );
            }
            Step::Claim if m.kind == MutationKind::Insert => {
                st.mechanism = "lightweight transaction (claim), first".into();
                st.reason = format!(
                    "claims the primary key (Paxos, LOCAL_SERIAL){at_rate}; when `[applied]` is false the key is taken and nothing else is written; a retry that finds the key claimed by this same insert has succeeded"
                );
            }
            Step::Conditional | Step::Release => {
                st.mechanism = format!(
                    "lightweight transaction, {}",
                    if st.step == Step::Release {
                        "last"
                    } else {
                        "first"
                    }
                );
                st.reason = "the row was claimed with a lightweight transaction: it is written only with conditions (`IF EXISTS`), LWT and plain writes on one partition do not order safely".into();
            }
            _ => {}
        }
    }
}
