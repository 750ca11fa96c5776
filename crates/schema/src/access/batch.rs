//! BATCH: every statement is prepared first (in order), then
//! `BatchStatement.validate` checks the mix (BAT-1 … BAT-12, in Cassandra's
//! order), then each statement's own `validate`, then what execution would
//! refuse (BAT-E*, CND-E*, EXE-*, DEL-2) and the client warnings.

use cqlmodel_cql::ast::{Batch, BatchKind, Span, UsingParam};

use super::modification::{Write, prepare_write};
use super::{AccessKind, AccessPath, Analyzer, QueryError, StatementType};

/// Cassandra's default `unlogged_batch_across_partitions_warn_threshold`.
const UNLOGGED_PARTITIONS_WARN: usize = 10;

pub(super) fn analyze(cx: &Analyzer<'_>, b: &Batch, span: Span) -> AccessPath {
    let mut writes: Vec<Write<'_>> = Vec::with_capacity(b.statements.len());
    for st in &b.statements {
        match prepare_write(cx, st) {
            Ok(w) => writes.push(w),
            Err(mut e) => {
                if e.span.is_empty() {
                    e.span = st.span;
                }
                return AccessPath::invalid(StatementType::Batch, None, e);
            }
        }
    }
    // In first-written order, deduplicated through a set (a batch may touch
    // a thousand tables in 100,000 statements).
    let mut tables: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for w in &writes {
        let name = w.table.qualified_name();
        if seen.insert(name.clone()) {
            tables.push(name);
        }
    }
    let table = tables.first().cloned();
    let invalid = |e: QueryError, tables: Vec<String>| AccessPath {
        tables,
        ..AccessPath::invalid(StatementType::Batch, table.clone(), e)
    };
    if let Err(e) = validate(b, &writes, span) {
        return invalid(e, tables);
    }
    if let Some(e) = writes.iter().find_map(|w| w.validate_error.clone()) {
        return invalid(e, tables);
    }
    let conditional = writes.iter().any(|w| w.has_conditions);
    let execution = if conditional {
        execute_with_conditions(&writes)
    } else {
        writes.iter().find_map(|w| {
            w.ttl_error
                .clone()
                .or_else(|| w.range_deletion_error.clone())
        })
    };
    if let Some(e) = execution {
        return invalid(e, tables);
    }
    let partitions = count_partitions(&writes);
    let warnings = if conditional {
        Vec::new()
    } else {
        warnings(b.kind, &writes, &tables)
    };
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

/// `BatchStatement.validate()`, in its order.
fn validate(b: &Batch, writes: &[Write<'_>], span: Span) -> Result<(), QueryError> {
    let err = |m: &str| QueryError {
        message: m.into(),
        span,
    };
    if b.using.iter().any(|u| matches!(u, UsingParam::Ttl(_))) {
        return Err(err("Global TTL on the BATCH statement is not supported."));
    }
    let timestamp = b
        .using
        .iter()
        .any(|u| matches!(u, UsingParam::Timestamp(_)));
    let conditional = writes.iter().any(|w| w.has_conditions);
    if timestamp && conditional {
        return Err(err("Cannot provide custom timestamp for conditional BATCH"));
    }
    if timestamp && b.kind == BatchKind::Counter {
        return Err(err("Cannot provide custom timestamp for counter BATCH"));
    }
    if let Some(w) = writes.iter().find(|w| timestamp && w.has_timestamp) {
        return Err(QueryError {
            message: "Timestamp must be set either on BATCH or individual statements".into(),
            span: w.span,
        });
    }
    let has_counters = writes.iter().any(|w| w.is_counter);
    let has_non_counters = writes.iter().any(|w| !w.is_counter);
    if timestamp && has_counters {
        return Err(err(
            "Cannot provide custom timestamp for a BATCH containing counters",
        ));
    }
    if b.kind == BatchKind::Counter && has_non_counters {
        return Err(err(
            "Cannot include non-counter statement in a counter batch",
        ));
    }
    if has_counters && has_non_counters {
        return Err(err(
            "Counter and non-counter mutations cannot exist in the same batch",
        ));
    }
    if b.kind == BatchKind::Logged && has_counters {
        return Err(err("Cannot include a counter statement in a logged batch"));
    }
    if conditional
        && let Some(first) = writes.first()
        && writes
            .iter()
            .any(|w| w.table.qualified_name() != first.table.qualified_name())
    {
        return Err(err("Batch with conditions cannot span multiple tables"));
    }
    Ok(())
}

/// `BatchStatement.makeCasRequest`: one partition, no IN, statement by statement.
fn execute_with_conditions(writes: &[Write<'_>]) -> Option<QueryError> {
    let first_key = writes
        .first()
        .and_then(|w| w.keys.as_ref())
        .and_then(|k| k.first());
    for w in writes {
        let err = |message: String| QueryError {
            message,
            span: w.span,
        };
        if w.key_in {
            // Cassandra throws an IllegalArgumentException here, which clients see as a server error.
            return Some(err(
                "Batch with conditions cannot span multiple partitions (you cannot use IN on the partition key)".into(),
            ));
        }
        let key = w.keys.as_ref().and_then(|k| k.first());
        if let (Some(first), Some(key)) = (first_key, key)
            && first != key
        {
            return Some(err(
                "Batch with conditions cannot span multiple partitions".into()
            ));
        }
        if w.clustering_in {
            return Some(err(format!(
                "IN on the clustering key columns is not supported with conditional {}",
                w.conditional_word()
            )));
        }
    }
    writes.iter().find_map(|w| w.ttl_error.clone())
}

/// The client warnings of a batch without conditions (`getMutations`, `verifyBatchType`).
fn warnings(kind: BatchKind, writes: &[Write<'_>], tables: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    if kind == BatchKind::Logged {
        // Through a set of the tables with gc_grace_seconds 0: a scan of the
        // writes per table is quadratic on a batch over a thousand tables.
        let zero_gc_tables: std::collections::HashSet<String> = writes
            .iter()
            .filter(|w| w.table.options.gc_grace_seconds == Some(0))
            .map(|w| w.table.qualified_name())
            .collect();
        let zero_gc: Vec<String> = tables
            .iter()
            .filter(|name| zero_gc_tables.contains(*name))
            .cloned()
            .collect();
        if !zero_gc.is_empty() {
            out.push(format!(
                "Executing a LOGGED BATCH on table{} [{}], configured with a gc_grace_seconds of 0. The gc_grace_seconds is used to TTL batchlog entries, so setting gc_grace_seconds too low on tables involved in an atomic batch might cause batchlog entries to expire before being replayed.",
                if zero_gc.len() == 1 { "" } else { "s" },
                zero_gc.join(", ")
            ));
        }
        return out;
    }
    // UNLOGGED and COUNTER batches: distinct partition keys, whatever the table.
    let Some(keys) = distinct_keys(writes) else {
        return out;
    };
    if writes.len() > 1 && keys > UNLOGGED_PARTITIONS_WARN {
        let s = if tables.len() > 1 { "s" } else { "" };
        out.push(format!(
            "Unlogged batch covering {keys} partitions detected against table{s} [{}]. You should use a logged batch for atomicity, or asynchronous writes for performance.",
            tables.join(", ")
        ));
    }
    out
}

/// Distinct partition keys across the batch; `None` when a key is unknown.
/// Keys compare by their printed terms, through a set (a 100,000-statement
/// batch stays linear).
fn distinct_keys(writes: &[Write<'_>]) -> Option<usize> {
    let mut seen: std::collections::HashSet<Vec<String>> = std::collections::HashSet::new();
    for w in writes {
        for k in w.keys.as_ref()? {
            seen.insert(k.iter().map(ToString::to_string).collect());
        }
    }
    Some(seen.len())
}

/// Distinct (table, partition key) pairs written; `None` when a key is unknown.
fn count_partitions(writes: &[Write<'_>]) -> Option<u64> {
    // Keys compare by their printed terms: a set keeps a 100,000-statement
    // batch linear.
    let mut seen: std::collections::HashSet<(String, Vec<String>)> =
        std::collections::HashSet::new();
    for w in writes {
        let keys = w.keys.as_ref()?;
        let name = w.table.qualified_name();
        for k in keys {
            let printed: Vec<String> = k.iter().map(ToString::to_string).collect();
            seen.insert((name.clone(), printed));
        }
    }
    Some(seen.len() as u64)
}
