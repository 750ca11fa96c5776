//! pgvector's nearest-neighbour reads (`ORDER BY embedding <-> $1 LIMIT k`)
//! as Cassandra 5.0's `ORDER BY embedding ANN OF ? LIMIT k`, served by an SAI
//! index on the vector column. The operator picks the index's similarity
//! function, which is one per column: every read of the column ranks by it.
//!
//! Cassandra's rules (StatementRestrictions and StorageAttachedIndex, 5.0):
//! an ANN ordering needs an SAI index on the column, no other ordering, and a
//! LIMIT of at most 1,000; any other restricted column must be indexed too, so
//! the design keeps ANN reads to equalities on the partition key.

use crate::querylist::{Body, QuerySpec};
use crate::relational::{Model, unquote};
use crate::select::{ColRef, SelectSpec};

/// Cassandra refuses an ANN read with a larger LIMIT (or none).
pub const ANN_MAX_LIMIT: u64 = 1000;

/// The SAI similarity function for a pgvector distance operator, and why.
pub fn similarity_of(operator: &str) -> Option<(&'static str, &'static str)> {
    Some(match operator {
        "<->" => ("euclidean", "`<->` is pgvector's L2 distance"),
        "<=>" => ("cosine", "`<=>` is pgvector's cosine distance"),
        "<#>" => (
            "dot_product",
            "`<#>` is pgvector's negative inner product; SAI's dot_product expects unit-length vectors, so the application normalizes them",
        ),
        _ => return None,
    })
}

/// Turns each read's pgvector ORDER BY into an ANN ordering (`spec.ann`) and
/// records each vector column's similarity function in the model; a read
/// Cassandra would refuse keeps its ad-hoc term, with the reason, and stays
/// off the OLTP path.
pub fn ann_orders(model: &mut Model, specs: &mut [QuerySpec]) {
    for q in specs.iter_mut() {
        let Body::Select(spec) = &mut q.body else {
            continue;
        };
        let Some((i, column, operator)) = distance_order(model, spec) else {
            continue;
        };
        let Some((function, _)) = similarity_of(&operator) else {
            continue;
        };
        if let Some(problem) = refusal(spec) {
            if let Some(text) = spec.ad_hoc.get_mut(i) {
                text.push_str(&format!(" ({problem})"));
            }
            continue;
        }
        let key = (column.entity.clone(), column.column.clone());
        if let Some(chosen) = model.vector_similarity.get(&key)
            && chosen != function
        {
            if let Some(text) = spec.ad_hoc.get_mut(i) {
                text.push_str(&format!(
                    " (the SAI index on `{}.{}` ranks by {chosen}, chosen by an earlier read; one index has one similarity function)",
                    column.entity, column.column
                ));
            }
            continue;
        }
        model.vector_similarity.insert(key, function.to_string());
        spec.ad_hoc.remove(i);
        spec.ann = Some(Box::new(column));
    }
}

/// The note of an ANN read: the operator, the similarity function and the bound.
pub fn read_note(column: &str, function: &str, limit: u64) -> String {
    let (operator, why) = ["<->", "<=>", "<#>"]
        .iter()
        .find_map(|op| {
            similarity_of(op)
                .filter(|(f, _)| *f == function)
                .map(|(_, w)| (*op, w))
        })
        .unwrap_or(("<->", "the column's index"));
    format!(
        "nearest neighbours: pgvector's `ORDER BY {column} {operator} $n LIMIT {limit}` is `ORDER BY {column} ANN OF ? LIMIT {limit}` on the SAI index of `{column}` with similarity_function '{function}' ({why}); Cassandra allows a LIMIT of at most {ANN_MAX_LIMIT} and no other ordering, and the ranking is approximate (PostgreSQL's was exact without an index)"
    )
}

/// Why Cassandra would refuse the read as an ANN query, if it would.
fn refusal(spec: &SelectSpec) -> Option<String> {
    match spec.limit {
        None => return Some("Cassandra's ANN OF needs a LIMIT".into()),
        Some(k) if k > ANN_MAX_LIMIT => {
            return Some(format!(
                "Cassandra's ANN OF takes a LIMIT of at most {ANN_MAX_LIMIT}, not {k}"
            ));
        }
        Some(_) => {}
    }
    if !spec.order.is_empty() {
        return Some("an ANN ordering allows no other ORDER BY term".into());
    }
    if !spec.ranges.is_empty() || spec.keyset.is_some() || spec.ad_hoc.len() > 1 {
        return Some(
            "an ANN read may restrict the partition key only (other restricted columns need an index of their own)".into(),
        );
    }
    if !spec.aggregates.is_empty() || !spec.group_by.is_empty() {
        return Some("an ANN read returns rows, not aggregates".into());
    }
    None
}

/// The ad-hoc term `ORDER BY <vector column> <op> <parameter>`: its index,
/// the column and the operator.
fn distance_order(model: &Model, spec: &SelectSpec) -> Option<(usize, ColRef, String)> {
    spec.ad_hoc.iter().enumerate().find_map(|(i, text)| {
        let rest = text.strip_prefix("ORDER BY ")?;
        let words: Vec<&str> = rest.split_whitespace().collect();
        let [col, op, param] = words.as_slice() else {
            return None;
        };
        if !param.starts_with('$') || similarity_of(op).is_none() {
            return None;
        }
        let name = unquote(col.rsplit('.').next().unwrap_or(col));
        let entity = spec.entities.iter().find(|e| {
            model
                .entity(e)
                .and_then(|e| e.attribute(&name))
                .is_some_and(|a| a.cql_type.starts_with("vector<"))
        })?;
        Some((
            i,
            ColRef {
                entity: entity.clone(),
                column: name,
            },
            (*op).to_string(),
        ))
    })
}
