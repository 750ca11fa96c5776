//! The write paths as queries.cql gives them. The statements a path keeps in
//! step by a logged batch are written as one `BEGIN BATCH … APPLY BATCH`, the
//! others one by one, each under its own `@name`: the file then says what the
//! application sends, and a review of it sees the batch (before, the batch's
//! statements stood apart and the design's own review warned, falsely, that
//! the copies were written without one).

use super::hybrid;
use super::per_key::PerKeyPlan;
use crate::writes::{WritePath, WriteStatement};

/// The mechanism `writes::mechanisms` gives the statements of a logged batch.
const LOGGED_BATCH: &str = "logged batch";

/// One statement of queries.cql: its `@name`, `@rate`, `@cl` and CQL.
pub(super) struct WriteCql {
    pub name: String,
    pub rate: Option<f64>,
    pub consistency: Option<String>,
    /// Every INSERT of it writes a new row (`@new-row`).
    pub new_row: bool,
    pub cql: String,
}

/// The statements of one write path, in its order; a batch stands where its
/// first statement stands. A path of one statement (or one batch) keeps the
/// path's name; otherwise each gets `<path>_<n>`.
pub(super) fn write_path_cql(w: &WritePath, per_key: &[PerKeyPlan]) -> Vec<WriteCql> {
    let batched: Vec<&WriteStatement> = w
        .statements
        .iter()
        .filter(|s| s.mechanism == LOGGED_BATCH)
        .collect();
    let mut units: Vec<(&WriteStatement, String, bool)> = Vec::new();
    let mut batch_written = false;
    for st in &w.statements {
        if st.mechanism != LOGGED_BATCH || batched.len() < 2 {
            units.push((st, st.cql.clone(), st.new_row));
        } else if !batch_written {
            let new_row = batched.iter().all(|s| s.new_row);
            units.push((st, batch_cql(&batched), new_row));
            batch_written = true;
        }
    }
    let single = units.len() == 1;
    units
        .into_iter()
        .enumerate()
        .map(|(i, (first, cql, new_row))| WriteCql {
            name: if single {
                w.name.clone()
            } else {
                format!("{}_{}", w.name, i + 1)
            },
            rate: hybrid::statement_rate(per_key, first).unwrap_or(w.rate),
            consistency: w.consistency.clone(),
            new_row,
            cql,
        })
        .collect()
}

fn batch_cql(statements: &[&WriteStatement]) -> String {
    let mut s = String::from("BEGIN BATCH\n");
    for st in statements {
        s.push_str("    ");
        s.push_str(&st.cql);
        s.push_str(";\n");
    }
    s.push_str("APPLY BATCH");
    s
}
