//! Stored generated columns (`total GENERATED ALWAYS AS (subtotal + tax)
//! STORED`): PostgreSQL computes them on every write and no statement names
//! them; Cassandra computes nothing. The path writes them like a column the
//! statement assigns (every table storing one gets its value, the application
//! computing the expression), or a read returns null, or a stale value, where
//! PostgreSQL returned the current one.

use crate::querylist::{MutationKind, MutationSpec};
use crate::relational::{Entity, Model};

/// A generated column the mutation writes, and its expression.
pub(super) struct Generated {
    column: String,
    expr: String,
}

/// Adds to the mutation's columns every generated column it changes: all of
/// them on an insert, those whose inputs it assigns on an update.
pub(super) fn assign_generated(model: &Model, m: &mut MutationSpec) -> Vec<Generated> {
    let Some(e) = model.entity(&m.entity) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for a in &e.attributes {
        let Some(expr) = &a.generated else { continue };
        if m.columns.contains(&a.name) {
            continue;
        }
        let changes = match m.kind {
            MutationKind::Insert => true,
            MutationKind::Update => inputs_of(e, expr).iter().any(|c| m.columns.contains(c)),
            MutationKind::Delete => false,
        };
        if changes {
            m.columns.push(a.name.clone());
            out.push(Generated {
                column: a.name.clone(),
                expr: expr.clone(),
            });
        }
    }
    out
}

/// The entity's columns the expression reads.
fn inputs_of(e: &Entity, expr: &str) -> Vec<String> {
    let words: Vec<&str> = expr
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    e.attributes
        .iter()
        .filter(|x| x.generated.is_none() && words.contains(&x.name.as_str()))
        .map(|x| x.name.clone())
        .collect()
}

/// What the path says of each generated column it writes: who computes it.
pub(super) fn generated_notes(kind: MutationKind, generated: &[Generated]) -> Vec<String> {
    generated
        .iter()
        .map(|g| {
            format!(
                "`{}` is a generated column (`{}`): PostgreSQL computes it on every {}; Cassandra computes nothing: the application computes it {} and binds it wherever the column is stored",
                g.column,
                g.expr,
                kind.verb(),
                if kind == MutationKind::Update {
                    "from the new values and the row's other inputs (read first)"
                } else {
                    "from the row's values"
                },
            )
        })
        .collect()
}
