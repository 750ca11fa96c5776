use cqlmodel_cql::ast::{Statement, StatementKind};
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::Replication;

use super::query_facts::single_statements;
use crate::context::Context;
use crate::declare_rule;
use crate::finding::{Finding, Findings};
use crate::query::Query;

declare_rule! {
    /// ## What it does
    /// Checks each statement's consistency level, as the query list gives it
    /// (`@cl X`, `@serial X`, or the cqlsh `CONSISTENCY X` / `SERIAL
    /// CONSISTENCY X` line before it), against what Cassandra accepts and what
    /// lightweight transactions guarantee:
    ///
    /// - **error**, Cassandra rejects the statement with the message shown:
    ///   a write that is not conditional at `SERIAL`/`LOCAL_SERIAL`; a
    ///   conditional write whose commit level (`@cl`) is `SERIAL`/`LOCAL_SERIAL`;
    ///   a conditional write whose serial level (`@serial`) is not; a counter
    ///   write at `ANY` or at a serial level; a read at `ANY`; a `SERIAL` read
    ///   of more than one partition.
    /// - **warning**: a lightweight transaction (conditional write or `SERIAL`
    ///   read) at `SERIAL` in a keyspace replicated to several datacenters:
    ///   Paxos crosses the WAN on every execution. Info when no serial level
    ///   is given (cqlsh and the drivers default to `SERIAL`).
    /// - **warning**: a read at `ONE`/`LOCAL_ONE` of a table that the query
    ///   list writes only with lightweight transactions.
    ///
    /// A statement without a level is not judged on it, except the
    /// multi-datacenter default above; a level set in the driver is invisible
    /// to the query list: give it with `@cl` / `@serial`.
    ///
    /// ## Evidence
    /// The query list's levels (`@cl`, `@serial`, cqlsh `CONSISTENCY` lines),
    /// the statements' `IF` clauses, and the keyspace's replication
    /// (`NetworkTopologyStrategy` with two or more datacenters).
    ///
    /// ## Why is this bad?
    /// A write at `SERIAL` is rejected (`You must use conditional updates for
    /// serializable writes`): the serial levels only name who runs Paxos. A
    /// conditional write has two levels: the serial one for Paxos
    /// (`SERIAL`/`LOCAL_SERIAL`) and the ordinary one for the commit; mixing
    /// them up is rejected too. `SERIAL` in a multi-datacenter keyspace makes
    /// every transaction wait for a quorum of all replicas in all
    /// datacenters, several times over (prepare, propose, commit). And a read at
    /// `ONE` of rows written only by lightweight transactions neither waits
    /// for a quorum nor finishes a Paxos round in progress: it can return a
    /// value a transaction has already replaced.
    ///
    /// ## Example
    /// ```cql
    /// -- @name claim_seat @cl SERIAL
    /// UPDATE booking.seats SET holder = ? WHERE show_id = ? AND seat = ? IF holder = null;
    /// -- @name seat_holder @cl ONE
    /// SELECT holder FROM booking.seats WHERE show_id = ? AND seat = ?;
    /// ```
    ///
    /// ## Use instead
    /// Put the Paxos level in the serial consistency and the commit level in the
    /// ordinary one; read transactional rows at `SERIAL` (or `LOCAL_SERIAL`):
    /// ```cql
    /// -- @name claim_seat @cl LOCAL_QUORUM @serial LOCAL_SERIAL
    /// UPDATE booking.seats SET holder = ? WHERE show_id = ? AND seat = ? IF holder = null;
    /// -- @name seat_holder @cl LOCAL_SERIAL
    /// SELECT holder FROM booking.seats WHERE show_id = ? AND seat = ?;
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra source, `db/ConsistencyLevel.java` (`validateForWrite`,
    ///   `validateForCasCommit`, `validateForCas`, `validateForRead`,
    ///   `validateCounterForWrite`) and `service/StorageProxy.java` (serial reads)
    /// - Apache Cassandra documentation, "Lightweight transactions" and
    ///   "Consistency levels"
    pub static WRONG_CONSISTENCY_LEVEL = {
        code: "CQL027",
        name: "wrong-consistency-level",
        severity: Error,
        summary: "A consistency level Cassandra rejects, or one that weakens a lightweight transaction",
        check: check,
    };
}

const SERIAL_LEVELS: [&str; 2] = ["SERIAL", "LOCAL_SERIAL"];

fn is_serial(level: Option<&str>) -> bool {
    level.is_some_and(|l| SERIAL_LEVELS.contains(&l))
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    for q in cx.queries.iter().filter(|q| q.path.error.is_none()) {
        if q.is_write() {
            check_write(cx, q, out);
        } else if q.is_read() {
            check_read(cx, q, out);
        }
    }
}

/// The start of a finding on `q`: message, severity, the whole statement.
fn finding(out: &Findings, q: &Query, severity: Severity, message: String, label: &str) -> Finding {
    let mut f = out
        .new_finding(message)
        .severity(severity)
        .at(q.file, q.span().range(), q.span().start, label)
        .query(q.name.clone());
    if let Some(t) = &q.path.table {
        f = f.table(t.clone());
    }
    f
}

/// "`@cl SERIAL`" / "`SERIAL` (the cqlsh `CONSISTENCY` line before it)".
fn level_said(q: &Query, serial: bool) -> String {
    let (level, source) = if serial {
        (&q.serial_consistency, q.serial_source)
    } else {
        (&q.consistency, q.consistency_source)
    };
    let level = level.as_deref().unwrap_or("?");
    match source {
        Some(s) => format!("`{level}` (from {})", s.words(serial)),
        None => format!("`{level}`"),
    }
}

fn is_conditional(stmt: &Statement) -> bool {
    match &stmt.kind {
        StatementKind::Insert(s) => s.if_not_exists,
        StatementKind::Update(s) => s.conditions.is_some(),
        StatementKind::Delete(s) => s.conditions.is_some(),
        _ => false,
    }
}

fn check_write(cx: &Context<'_>, q: &Query, out: &mut Findings) {
    let conditional = single_statements(q).into_iter().any(is_conditional);
    let counter = q
        .path
        .table
        .as_deref()
        .and_then(|t| t.split_once('.'))
        .and_then(|(ks, t)| cx.schema.table(ks, t))
        .filter(|t| t.is_counter_table());
    let cl = q.consistency.as_deref();
    let rejected = match (counter, conditional) {
        (Some(table), _) if cl == Some("ANY") => Some(format!(
            "Consistency level ANY is not yet supported for counter table {}",
            table.name
        )),
        (Some(_), _) if is_serial(cl) => {
            Some("Counter operations are inherently non-serializable".to_string())
        }
        (None, false) if is_serial(cl) => {
            Some("You must use conditional updates for serializable writes".to_string())
        }
        (None, true) if is_serial(cl) => Some(format!(
            "{} is not supported as conditional update commit consistency. Use ANY if you mean \"make sure it is accepted but I don't care how many replicas commit it for non-SERIAL reads\"",
            cl.unwrap_or_default()
        )),
        _ => None,
    };
    if let Some(message) = rejected {
        let help = if conditional {
            "give the Paxos level as the serial consistency (`@serial LOCAL_SERIAL`, cqlsh `SERIAL CONSISTENCY LOCAL_SERIAL`) and the commit level as the ordinary one (`@cl LOCAL_QUORUM`)"
        } else if counter.is_some() {
            "write counters at ONE, LOCAL_QUORUM or QUORUM: a counter update cannot be a lightweight transaction"
        } else {
            "write at LOCAL_QUORUM (or QUORUM); if the write must not overwrite a concurrent one, make it conditional (`IF NOT EXISTS`, `IF col = ...`) and put SERIAL or LOCAL_SERIAL in its serial consistency"
        };
        let f = finding(
            out,
            q,
            Severity::Error,
            message,
            "Cassandra rejects this level",
        )
        .note(format!(
            "the statement's consistency level is {}",
            level_said(q, false)
        ))
        .help(help);
        out.push(f);
        return;
    }
    if !conditional {
        return;
    }
    if q.serial_consistency.is_some() && !is_serial(q.serial_consistency.as_deref()) {
        let f = finding(
            out,
            q,
            Severity::Error,
            "Invalid consistency for conditional update. Must be one of SERIAL or LOCAL_SERIAL"
                .to_string(),
            "Cassandra rejects this serial level",
        )
        .note(format!(
            "the statement's serial consistency is {}",
            level_said(q, true)
        ))
        .help("the serial consistency names who runs Paxos: SERIAL (all datacenters) or LOCAL_SERIAL (this one); the commit level goes in `@cl`");
        out.push(f);
        return;
    }
    check_cross_dc_paxos(cx, q, q.serial_consistency.as_deref(), true, out);
}

fn check_read(cx: &Context<'_>, q: &Query, out: &mut Findings) {
    let cl = q.consistency.as_deref();
    if cl == Some("ANY") {
        let f = finding(
            out,
            q,
            Severity::Error,
            "ANY ConsistencyLevel is only supported for writes".to_string(),
            "Cassandra rejects this level",
        )
        .note(format!(
            "the read's consistency level is {}",
            level_said(q, false)
        ))
        .help("read at LOCAL_ONE, LOCAL_QUORUM or QUORUM");
        out.push(f);
        return;
    }
    if is_serial(cl) {
        if let Some(n) = q.path.partitions.filter(|&n| n > 1) {
            let f = finding(
                out,
                q,
                Severity::Error,
                "SERIAL/LOCAL_SERIAL consistency may only be requested for one partition at a time"
                    .to_string(),
                "Cassandra rejects this level",
            )
            .note(format!(
                "the read's consistency level is {}, and it reads {n} partitions",
                level_said(q, false)
            ))
            .help("run one SERIAL read per partition, or read these at LOCAL_QUORUM");
            out.push(f);
            return;
        }
        check_cross_dc_paxos(cx, q, cl, false, out);
        return;
    }
    if matches!(cl, Some("ONE" | "LOCAL_ONE")) {
        check_weak_read_of_lwt_rows(cx, q, out);
    }
}

/// The datacenters of the statement's keyspace, when there are two or more.
fn datacenters<'a>(cx: &Context<'a>, q: &Query) -> Option<(&'a str, Vec<(&'a str, u32)>)> {
    let (ks, _) = q.path.table.as_deref()?.split_once('.')?;
    let keyspace = cx.schema.keyspace(ks)?;
    let Replication::NetworkTopology { datacenters } = &keyspace.replication else {
        return None;
    };
    let dcs: Vec<(&str, u32)> = datacenters
        .iter()
        .filter(|(_, rf)| **rf > 0)
        .map(|(dc, rf)| (dc.as_str(), *rf))
        .collect();
    (dcs.len() >= 2).then_some((keyspace.name.as_str(), dcs))
}

/// A lightweight transaction at SERIAL (given, or the default when
/// `defaulted` allows it) in a keyspace of several datacenters.
fn check_cross_dc_paxos(
    cx: &Context<'_>,
    q: &Query,
    level: Option<&str>,
    write: bool,
    out: &mut Findings,
) {
    let explicit = level == Some("SERIAL");
    if !explicit && (level.is_some() || !write) {
        return;
    }
    let Some((keyspace, dcs)) = datacenters(cx, q) else {
        return;
    };
    let total: u32 = dcs.iter().map(|(_, rf)| rf).sum();
    let quorum = total / 2 + 1;
    let smallest = dcs.iter().map(|(_, rf)| *rf).min().unwrap_or(1);
    let layout: Vec<String> = dcs.iter().map(|(dc, rf)| format!("{dc}: {rf}")).collect();
    let what = if write {
        "a conditional write"
    } else {
        "a read"
    };
    let (severity, message) = if explicit {
        (
            Severity::Warning,
            format!(
                "`{}` runs {what} at SERIAL in keyspace {keyspace}, replicated to {} datacenters: Paxos waits for {quorum} of {total} replicas across them on every execution",
                q.name,
                dcs.len()
            ),
        )
    } else {
        (
            Severity::Info,
            format!(
                "`{}` runs {what} in keyspace {keyspace}, replicated to {} datacenters, with no serial consistency given: cqlsh and the drivers default to SERIAL, which waits for {quorum} of {total} replicas across them",
                q.name,
                dcs.len()
            ),
        )
    };
    let source = if explicit {
        if write {
            format!("the serial consistency is {}", level_said(q, true))
        } else {
            format!("the read's consistency level is {}", level_said(q, false))
        }
    } else {
        "no `@serial` and no cqlsh `SERIAL CONSISTENCY` line: if the application sets LOCAL_SERIAL in its driver, say so with `@serial LOCAL_SERIAL`".to_string()
    };
    let f = finding(out, q, severity, message, "Paxos across datacenters")
        .note(source)
        .note(format!(
            "replication {}: each Paxos round trip waits for {quorum} of all {total} replicas at SERIAL, for {} of the local datacenter's {smallest} at LOCAL_SERIAL (smallest datacenter)",
            layout.join(", "),
            smallest / 2 + 1
        ))
        .help("use LOCAL_SERIAL when every transaction on these rows runs from one datacenter: Paxos stays local. The trade-off: LOCAL_SERIAL transactions started in two datacenters are not serialized against each other, so keep SERIAL for rows that several datacenters update conditionally");
    out.push(f);
}

/// A read at ONE/LOCAL_ONE of a table that every write of the query list
/// changes by a lightweight transaction.
fn check_weak_read_of_lwt_rows(cx: &Context<'_>, q: &Query, out: &mut Findings) {
    let Some(table) = q.path.table.as_deref() else {
        return;
    };
    let Some(positions) = cx.by_table.get(table) else {
        return;
    };
    let writes: Vec<&Query> = positions
        .iter()
        .filter_map(|&i| cx.queries.get(i))
        .filter(|w| w.is_write() && w.path.error.is_none())
        .collect();
    let writes_table = |w: &&Query| {
        single_statements(w)
            .into_iter()
            .filter(|s| statement_table(s, w).as_deref() == Some(table))
            .all(is_conditional)
    };
    if writes.is_empty() || !writes.iter().all(writes_table) {
        return;
    }
    let names: Vec<&str> = writes.iter().map(|w| w.name.as_str()).collect();
    let level = q.consistency.as_deref().unwrap_or("ONE");
    let f = finding(
        out,
        q,
        Severity::Warning,
        format!(
            "`{}` reads {table} at {level}, but every write of it in the query list is a lightweight transaction ({}): a read at {level} asks one replica, which may not hold the latest committed transaction (its commit needs only a quorum) and finishes none in progress, so it can return a value a transaction has already replaced",
            q.name,
            crate::listing::capped(&names)
        ),
        "may miss a committed or in-progress transaction",
    )
    .note(format!("the read's consistency level is {}", level_said(q, false)))
    .note(format!("a read at {level} asks one replica and finishes no Paxos round: a transaction accepted by a quorum but not yet committed on that replica is invisible to it"))
    .help("read at SERIAL (LOCAL_SERIAL when the transactions run from one datacenter) where the answer must reflect the latest transaction; LOCAL_QUORUM sees every transaction committed at QUORUM");
    out.push(f);
}

/// The `ks.t` a statement of a batch writes, as the access path names it:
/// its keyspace when qualified, else the query's own table's keyspace.
fn statement_table(stmt: &Statement, q: &Query) -> Option<String> {
    let name = match &stmt.kind {
        StatementKind::Insert(s) => &s.table,
        StatementKind::Update(s) => &s.table,
        StatementKind::Delete(s) => &s.table,
        _ => return None,
    };
    let keyspace = match &name.keyspace {
        Some(ks) => ks.value.clone(),
        None => q.path.table.as_deref()?.split_once('.')?.0.to_string(),
    };
    Some(format!("{keyspace}.{}", name.name.value))
}
