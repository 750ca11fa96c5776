//! pgvector's nearest-neighbour reads (`ORDER BY embedding <-> $1 LIMIT k`)
//! as Cassandra 5.0's `ORDER BY embedding ANN OF ? LIMIT k`, served by an SAI
//! index on the vector column. The operator picks the index's similarity
//! function, which is one per column: every read of the column ranks by it.
//!
//! Cassandra's rules (StatementRestrictions, SelectStatement and
//! StorageAttachedIndex, 5.0): an ANN ordering needs an SAI index on the
//! column, no other ordering, and a LIMIT of at most 1,000 (else
//! [`ann_limit_error`]); any other restricted column must be indexed too, so
//! the design keeps ANN reads to equalities on the partition key. A top-K read
//! is not paged: a page size under the LIMIT is raised to it, with a client
//! warning ([`page_size_warning`]), and CQL has no OFFSET, so a pgvector
//! `OFFSET` (a second page of neighbours) has no counterpart. Serial
//! consistency is refused, and any level but ONE / LOCAL_ONE is downgraded.

use crate::querylist::{Body, QuerySpec};
use crate::relational::{Model, unquote};
use crate::select::{ColRef, SelectSpec};

/// Cassandra refuses an ANN read with a larger LIMIT (or none).
pub const ANN_MAX_LIMIT: u64 = 1000;

/// Cassandra's message for an ANN read without a LIMIT (`None`) or over
/// [`ANN_MAX_LIMIT`] (StorageAttachedIndex's ANN_LIMIT_ERROR).
pub fn ann_limit_error(limit: Option<u64>) -> String {
    format!(
        "Use of ANN OF in an ORDER BY clause requires a LIMIT that is not greater than {ANN_MAX_LIMIT}. LIMIT was {}",
        limit.map_or("NO LIMIT".to_string(), |l| l.to_string())
    )
}

/// Cassandra's client warning when a top-K read's page size is under its
/// LIMIT (SelectStatement's TOPK_PAGE_SIZE_WARNING): it reads one page of
/// LIMIT rows instead.
pub fn page_size_warning(page: u64, limit: u64) -> String {
    format!(
        "Top-K queries do not support paging and the page size is set to {page}, which is less than LIMIT {limit}. The page size has been set to {limit} to match the LIMIT."
    )
}

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
        if let Some(problem) = refusal(spec, q.consistency.as_deref()) {
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

/// The note of an ANN read: the operator, the similarity function and the
/// bound; with what Cassandra does to its page size and consistency level.
pub fn read_note(
    column: &str,
    function: &str,
    limit: u64,
    (page, consistency): (Option<u64>, Option<&str>),
) -> String {
    let mut note = ranking_note(column, function, limit);
    if let Some(p) = page.filter(|p| *p < limit) {
        note.push_str(&format!(
            "; not paged: `@page {p}` is under the LIMIT, so Cassandra reads the {limit} rows in one page and warns \"{}\" (set the driver's page size to at least {limit} for this statement)",
            page_size_warning(p, limit)
        ));
    }
    if let Some(cl) = consistency
        .map(str::to_ascii_uppercase)
        .filter(|c| !matches!(c.as_str(), "ONE" | "LOCAL_ONE" | "NODE_LOCAL"))
    {
        let to = if cl.starts_with("LOCAL_") {
            "LOCAL_ONE"
        } else {
            "ONE"
        };
        note.push_str(&format!(
            "; `@cl {cl}` is downgraded: a top-K read runs at {to}, with the warning \"Top-K queries can only be run with consistency level ONE / LOCAL_ONE / NODE_LOCAL. Consistency level {cl} was requested. Downgrading the consistency level to {to}.\""
        ));
    }
    note
}

fn ranking_note(column: &str, function: &str, limit: u64) -> String {
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
fn refusal(spec: &SelectSpec, consistency: Option<&str>) -> Option<String> {
    match spec.limit {
        None => {
            return Some(format!(
                "Cassandra's ANN OF needs a LIMIT: \"{}\"",
                ann_limit_error(None)
            ));
        }
        Some(k) if k > ANN_MAX_LIMIT => {
            return Some(format!(
                "Cassandra refuses the LIMIT: \"{}\"",
                ann_limit_error(Some(k))
            ));
        }
        Some(_) => {}
    }
    if spec.ad_hoc.iter().any(|t| t.starts_with("OFFSET")) {
        return Some(format!(
            "OFFSET: an ANN read is not paged (Cassandra returns the nearest LIMIT rows in one page) and CQL has no OFFSET; read LIMIT offset + k (at most {ANN_MAX_LIMIT} in all) and skip the first offset rows in the application"
        ));
    }
    if let Some(cl) = consistency.filter(|c| c.to_ascii_uppercase().ends_with("SERIAL")) {
        return Some(format!(
            "@cl {cl}: Cassandra refuses a top-K read at a serial level: \"Top-K queries can only be run with consistency level ONE/LOCAL_ONE. Consistency level {} was used.\"",
            cl.to_ascii_uppercase()
        ));
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
