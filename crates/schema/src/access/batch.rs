//! BATCH: `BatchStatement`'s checks on the mix of statements, and the partitions
//! and tables a batch spans.

use cqlmodel_cql::ast::{Batch, BatchKind, Span, Term, UsingParam};

use super::modification::{Write, prepare_write};
use super::{AccessKind, AccessPath, Analyzer, QueryError, StatementType};

/// Cassandra's default `unlogged_batch_across_partitions_warn_threshold`.
const UNLOGGED_PARTITIONS_WARN: u64 = 10;

pub(super) fn analyze(cx: &Analyzer<'_>, b: &Batch, span: Span) -> AccessPath {
    let mut writes: Vec<Write<'_>> = Vec::with_capacity(b.statements.len());
    for st in &b.statements {
        match prepare_write(cx, &st.kind) {
            Ok(w) => writes.push(w),
            Err(mut e) => {
                if e.span == Span::default() {
                    e.span = st.span;
                }
                return AccessPath::invalid(StatementType::Batch, None, e);
            }
        }
    }
    let mut tables: Vec<String> = Vec::new();
    for w in &writes {
        let name = w.table.qualified_name();
        if !tables.contains(&name) {
            tables.push(name);
        }
    }
    let table = tables.first().cloned();
    if let Err(e) = validate(b, &writes, span) {
        return AccessPath {
            tables,
            ..AccessPath::invalid(StatementType::Batch, table, e)
        };
    }
    let partitions = count_partitions(&writes);
    let conditional = writes.iter().any(|w| w.has_conditions);
    if conditional && tables.len() > 1 {
        return AccessPath {
            tables,
            ..AccessPath::invalid(
                StatementType::Batch,
                table,
                QueryError {
                    message: "Batch with conditions cannot span multiple tables".into(),
                    span,
                },
            )
        };
    }
    if conditional && partitions.is_some_and(|p| p > 1) {
        return AccessPath {
            tables,
            ..AccessPath::invalid(
                StatementType::Batch,
                table,
                QueryError {
                    message: "Batch with conditions cannot span multiple partitions".into(),
                    span,
                },
            )
        };
    }
    let mut warnings = Vec::new();
    if b.kind == BatchKind::Unlogged
        && let Some(p) = partitions
        && p > UNLOGGED_PARTITIONS_WARN
    {
        let s = if tables.len() > 1 { "s" } else { "" };
        warnings.push(format!(
            "Unlogged batch covering {p} partitions detected against table{s} [{}]. You should use a logged batch for atomicity, or asynchronous writes for performance.",
            tables.join(", ")
        ));
    }
    let kind = match partitions {
        Some(1) => AccessKind::SinglePartition,
        _ => AccessKind::MultiPartition,
    };
    AccessPath {
        table,
        kind,
        partitions,
        tables,
        warnings,
        ..AccessPath::new(StatementType::Batch)
    }
}

fn validate(b: &Batch, writes: &[Write<'_>], span: Span) -> Result<(), QueryError> {
    let err = |m: &str| QueryError {
        message: m.into(),
        span,
    };
    let has_counters = writes.iter().any(|w| w.is_counter);
    let has_non_counters = writes.iter().any(|w| !w.is_counter);
    match b.kind {
        BatchKind::Logged if has_counters => return Err(err("Cannot include a counter statement in a logged batch")),
        BatchKind::Counter if has_non_counters => {
            return Err(err("Cannot include non-counter statement in a counter batch"));
        }
        BatchKind::Unlogged if has_counters && has_non_counters => {
            return Err(err("Counter and non-counter mutations cannot exist in the same batch"));
        }
        _ => {}
    }
    let batch_timestamp = b.using.iter().any(|u| matches!(u, UsingParam::Timestamp(_)));
    if batch_timestamp && writes.iter().any(|w| w.has_timestamp) {
        return Err(err("Timestamp must be set either on BATCH or individual statements"));
    }
    if b.using.iter().any(|u| matches!(u, UsingParam::Ttl(_))) {
        return Err(err("Global TTL on the BATCH statement is not supported."));
    }
    if batch_timestamp && writes.iter().any(|w| w.has_conditions) {
        return Err(err("Cannot provide custom timestamp for conditional BATCH"));
    }
    Ok(())
}

/// Distinct (table, partition key) pairs written; `None` when a key is unknown.
fn count_partitions(writes: &[Write<'_>]) -> Option<u64> {
    let mut seen: Vec<(String, &Vec<Term>)> = Vec::new();
    for w in writes {
        let keys = w.keys.as_ref()?;
        let name = w.table.qualified_name();
        for k in keys {
            if !seen.iter().any(|(t, key)| *t == name && *key == k) {
                seen.push((name.clone(), k));
            }
        }
    }
    Some(seen.len() as u64)
}
