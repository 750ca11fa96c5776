use cqlmodel_cql::ast::{Conditions, Statement, StatementKind};

use cqlmodel_diagnostics::Severity;

use super::query_facts::{format_rate, single_statements};
use super::query_path::{QueryPath, query_path};
use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;
use crate::query::Query;

declare_rule! {
    /// ## What it does
    /// Finds lightweight transactions on a high-rate path: conditional writes
    /// (`IF NOT EXISTS`, `IF EXISTS`, `IF col = ...`, alone or in a batch) and
    /// `SERIAL` / `LOCAL_SERIAL` reads whose `@rate` reaches
    /// `thresholds.high_rate_per_second` (default 1,000/s).
    ///
    /// A statement the query list marks frequent (`@path hot`) is on a hot path
    /// although it has no `@rate`: a warning too.
    ///
    /// A conditional write on a rare path is what lightweight transactions are
    /// for (a uniqueness check at sign-up, a lock taken once a minute): with a
    /// `@rate` below the threshold, or on an `admin`, `analytics` or `migration`
    /// path, it is not reported. Without a `@rate` on an application path it is
    /// info: a question (how often does it run?).
    ///
    /// ## Evidence
    /// The query list: conditional statements, their `@rate`, and `@path hot`
    /// for a statement on every request of a busy path whose rate is not
    /// measured. Without either, the finding is info and says that `@rate`
    /// decides it.
    ///
    /// ## Why is this bad?
    /// A lightweight transaction runs Paxos among the partition's replicas:
    /// prepare/promise, read, propose/accept, commit: four round trips to a quorum
    /// instead of one write (Paxos v2, `paxos_variant: v2` from 4.1, cuts this
    /// to about two but does not remove the consensus). Transactions on the same
    /// partition are serialized: under contention they retry, time out with
    /// `CAS operation result is unknown`, and their latency climbs while the
    /// cluster looks idle. `SERIAL` reads take the same Paxos path.
    ///
    /// ## Example
    /// ```cql
    /// -- @name record_view @rate 5000/s
    /// INSERT INTO app.views (page_id, user_id, ts) VALUES (?, ?, ?) IF NOT EXISTS;
    /// ```
    ///
    /// ## Use instead
    /// Make the write idempotent so it needs no condition (a key the application
    /// generates, such as a `uuid` or `timeuuid`, cannot collide), keep the check
    /// on the rare path that needs it, or count with a counter column:
    /// ```cql
    /// INSERT INTO app.views (page_id, user_id, ts) VALUES (?, ?, ?);
    /// ```
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Lightweight transactions" (CQL DML, `IF` clauses)
    /// - CEP-14: Paxos improvements (`paxos_variant: v2`, Cassandra 4.1)
    pub static LWT_HOT_PATH = {
        code: "CQL018",
        name: "lwt-hot-path",
        severity: Warning,
        summary: "Lightweight transactions (IF ..., SERIAL reads) on a high-rate path",
        check: check,
    };
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    let threshold = cx.config.thresholds.high_rate_per_second;
    for q in cx.queries.iter().filter(|q| q.path.error.is_none()) {
        let path = query_path(q).unwrap_or(QueryPath::Application);
        let heat = match (q.rate, path) {
            (_, p) if p.is_offline() => continue,
            (Some(rate), _) if rate >= threshold => Heat::Rate(rate),
            (Some(_), _) => continue,
            (None, QueryPath::Hot) => Heat::MarkedHot,
            (None, _) => Heat::Unknown,
        };
        let serial_read =
            q.is_read() && matches!(q.consistency.as_deref(), Some("SERIAL" | "LOCAL_SERIAL"));
        let conditional = single_statements(q)
            .into_iter()
            .find_map(|s| condition(s).map(|c| (s, c)));
        let is_write = conditional.is_some();
        let (span, what) = match (conditional, serial_read) {
            (Some((stmt, kind)), _) => (condition_span(cx, q, stmt, kind), kind.words()),
            (None, true) => (q.span().range(), "a SERIAL read"),
            (None, false) => continue,
        };
        let (severity, message, evidence) = match heat {
            Heat::Rate(rate) => (
                Severity::Warning,
                format!(
                    "lightweight transaction on a high-rate path: `{}` runs {what} at {} (threshold {})",
                    q.name,
                    format_rate(rate),
                    format_rate(threshold)
                ),
                format!("`@rate` {} on the query", format_rate(rate)),
            ),
            Heat::MarkedHot => (
                Severity::Warning,
                format!(
                    "lightweight transaction on a hot path: `{}` runs {what} on a path the query list marks frequent (`@path hot`)",
                    q.name
                ),
                format!(
                    "`@path hot` without `@rate`: the query list says it runs on every request of a busy path; `@rate` would give the figure (a warning from {})",
                    format_rate(threshold)
                ),
            ),
            Heat::Unknown => (
                Severity::Info,
                format!(
                    "`{}` runs {what}: how often? A lightweight transaction is fine on a rare path and a problem on a busy one",
                    q.name
                ),
                format!(
                    "a question: the query has no `@rate` and no `@path`; `@rate` decides it (a warning from {}), `@path hot` marks it frequent, `@path admin` rare",
                    format_rate(threshold)
                ),
            ),
        };
        let mut f = out
            .new_finding(message)
            .severity(severity)
            .at(q.file, span, q.span().start, "Paxos on every execution")
            .query(q.name.clone())
            .note(evidence)
            .note("each execution runs Paxos: four round trips to a quorum of replicas (about two with 4.1's `paxos_variant: v2`), and transactions on the same partition serialize, retry under contention and time out")
            .help(if serial_read && !is_write {
                "read at LOCAL_QUORUM (or QUORUM) unless this read must see transactions still in flight"
            } else {
                "make the write idempotent so it needs no condition (an application-generated uuid/timeuuid key cannot collide), keep the check on the rare path that needs it, or count with a counter column"
            });
        if let Some(t) = &q.path.table {
            f = f.table(t.clone());
        }
        out.push(f);
    }
}

/// How busy the statement's path is, from the query list.
#[derive(Clone, Copy)]
enum Heat {
    /// `@rate` at or above the threshold.
    Rate(f64),
    /// `@path hot` without a rate.
    MarkedHot,
    /// Neither: a question.
    Unknown,
}

#[derive(Clone, Copy)]
enum ConditionKind {
    IfNotExists,
    IfExists,
    If,
}

impl ConditionKind {
    fn words(self) -> &'static str {
        match self {
            ConditionKind::IfNotExists => "a conditional write (IF NOT EXISTS)",
            ConditionKind::IfExists => "a conditional write (IF EXISTS)",
            ConditionKind::If => "a conditional write (IF ...)",
        }
    }
}

fn condition(stmt: &Statement) -> Option<ConditionKind> {
    let conditions = match &stmt.kind {
        StatementKind::Insert(s) => return s.if_not_exists.then_some(ConditionKind::IfNotExists),
        StatementKind::Update(s) => &s.conditions,
        StatementKind::Delete(s) => &s.conditions,
        _ => return None,
    };
    match conditions {
        Some(Conditions::IfExists) => Some(ConditionKind::IfExists),
        Some(Conditions::If(_)) => Some(ConditionKind::If),
        None => None,
    }
}

/// The IF clause: the conditions' span, or the `IF [NOT] EXISTS` words found in
/// the statement's text, else the whole statement.
fn condition_span(
    cx: &Context<'_>,
    q: &Query,
    stmt: &Statement,
    kind: ConditionKind,
) -> std::ops::Range<usize> {
    let whole = stmt.span.range();
    let cond_span = match &stmt.kind {
        StatementKind::Update(s) => s.conditions.as_ref(),
        StatementKind::Delete(s) => s.conditions.as_ref(),
        _ => None,
    }
    .and_then(|c| match c {
        Conditions::If(list) => {
            let first = list.first()?.span;
            let last = list.last()?.span;
            Some(first.to(last).range())
        }
        Conditions::IfExists => None,
    });
    if let Some(s) = cond_span.filter(|s| s.start < s.end) {
        return s;
    }
    let words = match kind {
        ConditionKind::IfNotExists => "IF NOT EXISTS",
        _ => "IF EXISTS",
    };
    let found = cx
        .sources
        .get(q.file)
        .and_then(|f| f.text.get(whole.clone()))
        .and_then(|text| find_words(text, words));
    match found {
        Some((start, end)) => whole.start + start..whole.start + end,
        None => whole,
    }
}

/// The last occurrence of `words` (case-insensitive, any whitespace between them).
fn find_words(text: &str, words: &str) -> Option<(usize, usize)> {
    let upper = text.to_ascii_uppercase();
    let parts: Vec<&str> = words.split(' ').collect();
    let first = parts.first()?;
    let mut best = None;
    let mut from = 0;
    while let Some(pos) = upper
        .get(from..)
        .and_then(|rest| rest.find(first))
        .map(|p| p + from)
    {
        let mut end = pos + first.len();
        let mut ok = !upper
            .get(..pos)
            .and_then(|before| before.chars().next_back())
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        for part in parts.iter().skip(1) {
            let rest = upper.get(end..).unwrap_or_default();
            let trimmed = rest.trim_start();
            let gap = rest.len() - trimmed.len();
            if gap == 0 || !trimmed.starts_with(part) {
                ok = false;
                break;
            }
            end += gap + part.len();
        }
        if ok {
            best = Some((pos, end));
        }
        from = pos + first.len();
    }
    best
}

#[cfg(test)]
mod tests {
    use super::find_words;

    #[test]
    fn finds_the_last_if_clause() {
        let text = "INSERT INTO t (k) VALUES ('if') IF  NOT\nEXISTS";
        let (s, e) = find_words(text, "IF NOT EXISTS").expect("found");
        assert_eq!(&text[s..e], "IF  NOT\nEXISTS");
        assert_eq!(find_words("DELETE FROM t WHERE k = 1", "IF EXISTS"), None);
    }
}
