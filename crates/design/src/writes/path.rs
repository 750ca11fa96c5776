//! One mutation's write path: the statements of every table, what PostgreSQL
//! checked made a lightweight transaction, the order, the mechanisms and what
//! is not atomic.

use super::context::Context;
use super::mechanisms::assign_mechanisms;
use super::presence::pk_is_entity_key;
use super::statements::plan_table;
use super::{FANOUT_TAIL_LIMIT, Step, WritePath, WriteStatement, conditions, ranges};
use crate::querylist::{MutationKind, MutationSpec};
use crate::relational::Model;

pub(super) fn plan_path(
    ctx: &Context<'_>,
    name: String,
    mut m: MutationSpec,
    (rate, cl): (Option<f64>, Option<String>),
    inferred: bool,
    warnings: &mut Vec<String>,
) -> WritePath {
    let (model, tables) = (ctx.model, ctx.tables);
    let mut notes: Vec<String> = ctx.meaning.notes.get(&name).cloned().unwrap_or_default();
    let generated = super::generated::assign_generated(model, &mut m);
    notes.extend(super::generated::generated_notes(m.kind, &generated));
    let (mut statements, amplification) = match ranges::range_delete(ctx.keyspace, tables, &m) {
        Some((st, n)) => {
            notes.extend(n);
            (st, None)
        }
        None => table_statements(ctx, &name, &m, &mut notes, warnings),
    };
    let children = super::cascade::cascades(ctx, &m, &statements, &mut notes);
    statements.extend(children);
    if let Some(n) = conditions::apply(
        ctx.record_table(&m.entity),
        &m,
        ctx.meaning,
        &mut statements,
    ) {
        warnings.push(format!("{name}: {n}"));
    }
    conditions::gate_on_claims(&mut statements);
    if !m.any_of.is_empty() {
        notes.push(format!(
            "`{} = ANY($n)`: the statements run once per value of the array (`IN` where the column is the partition key of one statement)",
            m.any_of.join(", ")
        ));
    }
    if let Some(read) = &m.read_first {
        let mut gives: Vec<String> = read.binds.iter().map(|c| format!("`{c}` (key)")).collect();
        gives.extend(read.values.iter().map(|c| format!("`{c}` (new value)")));
        notes.push(format!(
            "reads first: `{}` ({}), which gives {} of the {}: PostgreSQL joined the tables in one statement, Cassandra writes by key",
            read.name,
            read.sql,
            gives.join(", "),
            m.kind.verb(),
        ));
    }
    let record = ctx.record_table(&m.entity).map(|t| t.name.clone());
    notes.extend(super::static_alternative::static_alternatives(
        ctx,
        &m,
        rate,
        record.as_deref(),
    ));
    super::kept::guard_set_counts(model, tables, &m, rate, &mut statements, &mut notes);
    super::partial::release_partial_claims(
        model,
        ctx.keyspace,
        tables,
        &m,
        &mut statements,
        &mut notes,
    );
    for w in super::read_tables::resolve_reads(ctx, &mut statements) {
        warnings.push(format!("{name}: {w}"));
    }
    order(ctx, &m, record.as_deref(), &mut statements);
    assign_mechanisms(&mut statements);
    conditions::explain(&mut statements, &m, rate, record.as_deref());
    super::kept::patches(&m, &mut statements);
    super::kept::normalized_keys(model, tables, &m, &mut statements, &mut notes);
    let defaulted = super::defaults::fill_defaults(ctx, &m, &mut statements, &mut notes);
    super::new_rows::mark_new_rows(ctx, &m, &mut statements);
    let not_atomic = not_atomic(&statements);
    notes.extend(generated_key(model, &m, &defaulted));
    if statements.is_empty() && ctx.mentions.get(&m.entity).is_none_or(Vec::is_empty) {
        // Never a silent no-op: the path exists, and says why it writes nothing.
        let why = format!(
            "no designed table holds `{}` (no read in the query list needs its rows), so this {} changes nothing in Cassandra; if something else reads `{}`, add its queries and the design keeps a table for it",
            m.entity,
            m.kind.verb(),
            m.entity
        );
        warnings.push(format!("{name}: {why}"));
        notes.push(why);
    }
    WritePath {
        name,
        entity: m.entity.clone(),
        kind: m.kind,
        inferred,
        rate,
        consistency: cl,
        statements,
        write_amplification: amplification,
        not_atomic,
        notes,
    }
}

/// The statements of every table holding the mutated entity, with the
/// fan-out's amplification.
fn table_statements(
    ctx: &Context<'_>,
    name: &str,
    m: &MutationSpec,
    notes: &mut Vec<String>,
    warnings: &mut Vec<String>,
) -> (Vec<WriteStatement>, Option<f64>) {
    let (model, keyspace, stats) = (ctx.model, ctx.keyspace, ctx.stats);
    let mut statements = Vec::new();
    let mut amplification: Option<f64> = None;
    let touched = ctx.mentions.get(&m.entity).map_or(&[][..], Vec::as_slice);
    for t in touched.iter().filter_map(|i| ctx.tables.get(*i)) {
        let planned = plan_table(model, keyspace, t, m, stats);
        if let Some(note) = planned.note {
            notes.push(note);
        }
        if let Some((table, tail)) = &planned.tail
            && *tail > FANOUT_TAIL_LIMIT
        {
            warnings.push(format!(
                "{name}: the largest fan-out into {table} is about {} rows per write (over {}): write it for ordinary sources and let readers pull the heaviest sources' rows at read time (hybrid)",
                cqlmodel_stats::units::format_count(*tail),
                cqlmodel_stats::units::format_count(FANOUT_TAIL_LIMIT)
            ));
        }
        if let Some(a) = planned.amplification {
            amplification = Some(amplification.unwrap_or(0.0) + a);
        }
        if planned.copies_fan_out {
            warnings.push(format!(
                "{name}: {} copies `{}` attributes into rows of other entities; the update rewrites every copy, row by row, and the application must find those rows: copy only attributes that rarely change, read the others from their own table at query time, or accept stale copies",
                t.name, m.entity
            ));
        }
        let mut planned_statements = planned.statements;
        if planned
            .tail
            .is_some_and(|(_, tail)| tail > FANOUT_TAIL_LIMIT)
        {
            for st in planned_statements.iter_mut().filter(|s| s.repeat.is_some()) {
                st.hybrid = true;
                if let Some(r) = &mut st.repeat {
                    r.push_str(&format!(
                        "; hybrid: only for sources with at most {} such rows, the heavier ones are not fanned out and readers pull their rows",
                        cqlmodel_stats::units::format_count(FANOUT_TAIL_LIMIT)
                    ));
                }
            }
        }
        statements.extend(planned_statements);
    }
    (statements, amplification)
}

/// The write of record first (the entity's own partition), then the other
/// tables of the batch, the counters, and the queued fan-out last.
fn order(
    ctx: &Context<'_>,
    m: &MutationSpec,
    record: Option<&str>,
    statements: &mut [WriteStatement],
) {
    let model = ctx.model;
    statements.sort_by_key(|s| match s.step {
        Step::Sweep => 5,
        Step::Release => 4,
        Step::Increment => 2,
        Step::CompareAndSet => -2,
        Step::Claim if record == Some(s.table.as_str()) => -2,
        Step::Claim | Step::Conditional => -1,
        Step::Plain if s.repeat.is_some() => 3,
        Step::Plain if s.counter => 2,
        Step::Plain
            if ctx
                .named(&s.table)
                .any(|t| pk_is_entity_key(model, t, &m.entity)) =>
        {
            0
        }
        Step::Plain => 1,
    });
}

/// What a reader can see between the statements.
fn not_atomic(statements: &[WriteStatement]) -> String {
    let batched = statements
        .iter()
        .filter(|s| s.mechanism == "logged batch")
        .count();
    let queued = statements.iter().any(|s| s.mechanism.contains("queue"));
    if statements.len() <= 1 {
        "nothing: one statement on one partition is atomic and isolated".to_string()
    } else if batched == statements.len() {
        format!(
            "the {} statements apply all or none (the batchlog replays them), but not in isolation: a reader can see one table changed and not yet the other",
            statements.len()
        )
    } else {
        let mut distinct: Vec<&str> = statements.iter().map(|s| s.table.as_str()).collect();
        distinct.sort_unstable();
        distinct.dedup();
        format!(
            "the {} statements on {} tables are not one transaction: between them a reader can see one table changed and not the other{}; Cassandra has no cross-partition isolation",
            statements.len(),
            distinct.len(),
            if queued {
                ", and a write retried from the queue lands later"
            } else {
                ""
            }
        )
    }
}

/// A key PostgreSQL fills (a sequence, a default) has no counterpart:
/// Cassandra has no sequences, the application makes the value.
fn generated_key(model: &Model, m: &MutationSpec, defaulted: &[String]) -> Option<String> {
    if m.kind != MutationKind::Insert {
        return None;
    }
    let e = model.entity(&m.entity)?;
    let generated: Vec<String> = e
        .primary_key
        .iter()
        .filter(|c| !m.columns.contains(c) && !defaulted.contains(c))
        .map(|c| format!("`{c}`"))
        .collect();
    (!generated.is_empty()).then(|| {
        format!(
            "the statement leaves {} to PostgreSQL (a sequence or a default); Cassandra has none: the application generates it (an id service for an integer key, e.g. Snowflake-style, or a uuid key) and binds it in every statement",
            generated.join(", ")
        )
    })
}
