//! The text summary `cqlmodel migrate` prints: each change with its reason, its
//! statements, what the target refuses and why, the rebuilds' phases in short,
//! and the dry run's verdict.

use std::fmt::Write as _;

use cqlmodel_stats::units::{format_bytes, format_count};

use crate::dry_run::DryRun;
use crate::model::{Phase, Verdict};
use crate::plan::Plan;

pub fn summary(plan: &Plan, dry: &DryRun) -> String {
    let mut s = String::new();
    if plan.is_empty() {
        s.push_str("nothing to do: OLD and NEW define the same schema\n");
        return s;
    }
    for c in &plan.changes {
        let flag = if c.flagged {
            "  [needs a decision]"
        } else {
            ""
        };
        let _ = writeln!(s, "{} {}{flag}", c.kind.name(), c.object);
        let _ = writeln!(s, "  why: {}", c.reason);
        for i in &c.items {
            if i.verdict != Verdict::InPlace || i.message.is_some() {
                if !c.reason.contains(&i.what) {
                    let _ = writeln!(s, "  - {}", i.what);
                }
                if let (Some(a), Some(m)) = (&i.attempted, &i.message) {
                    let _ = writeln!(s, "      {a}\n      → {m}");
                }
            }
        }
        // The application's statements (phases 2 and 5) are listed with the rebuild.
        for p in c
            .statements
            .iter()
            .filter(|p| matches!(p.phase, Phase::Create | Phase::Drop))
        {
            for st in &p.statements {
                let first = st.lines().next().unwrap_or_default();
                let more = if st.lines().count() > 1 { " …" } else { "" };
                let _ = writeln!(
                    s,
                    "  phase {} {}: {first}{more}",
                    p.phase.number(),
                    p.phase.slug()
                );
            }
        }
        if let Some(r) = &c.rebuild {
            rebuild_lines(&mut s, r);
        }
        for w in &c.warnings {
            let _ = writeln!(s, "  warning: {w}");
        }
        s.push('\n');
    }
    let count = |k| plan.changes.iter().filter(|c| c.kind == k).count();
    use crate::model::ChangeKind as K;
    let _ = writeln!(
        s,
        "{} change(s): {} alter, {} rebuild, {} create, {} drop; {} need a decision",
        plan.changes.len(),
        count(K::Alter),
        count(K::Rebuild),
        count(K::Create),
        count(K::Drop),
        plan.flagged().count()
    );
    if dry.ok() {
        let _ = writeln!(
            s,
            "dry run: {} schema statement(s) of phases {} and {} turn OLD into NEW{}",
            dry.statements,
            Phase::Create.number(),
            Phase::Drop.number(),
            scylla_note(dry)
        );
    } else {
        let _ = writeln!(s, "dry run FAILED: the plan does not turn OLD into NEW:");
        for r in dry.rejected.iter().chain(&dry.differences) {
            let _ = writeln!(s, "  {}", r.replace('\n', " "));
        }
    }
    s
}

/// A rebuild in short: its rewritten statements, backfill size and tools, verification.
fn rebuild_lines(s: &mut String, r: &crate::rebuild::Rebuild) {
    let _ = writeln!(s, "  rebuild {} → {}:", r.old_table, r.new_table);
    let _ = writeln!(
        s,
        "    phase 2 dual-write: {} write path(s); phase 5 switch-reads: {} read(s)",
        r.dual_writes.len(),
        r.reads.len()
    );
    for w in r.dual_writes.iter().chain(&r.reads) {
        let new = match (&w.new, &w.underivable) {
            (Some(n), _) => n.as_str(),
            (None, Some(_)) => "(cannot be derived: see runbook.md)",
            (None, None) => "(no twin needed)",
        };
        let _ = writeln!(s, "      {}: {new}", w.name);
        if let Some(sv) = &w.served {
            let _ = writeln!(s, "        NEW serves it: {sv}");
        }
    }
    let size = r.backfill.sizing.as_ref().map_or_else(
        || "size unknown (no --stats)".to_string(),
        |z| {
            format!(
                "{} rows, {}, {:.1} h at {} rows/s",
                format_count(z.rows),
                format_bytes(z.bytes),
                z.hours,
                format_count(z.rows_per_second)
            )
        },
    );
    let keep = if r.backfill.counters {
        "adding each counter once (counters keep no write time)"
    } else {
        "keeping writetime and TTL"
    };
    let tool = if r.backfill.cdm_usable {
        "cassandra-data-migrator or DSBulk"
    } else {
        "DSBulk (the key is computed)"
    };
    let _ = writeln!(s, "    phase 3 backfill: {size}; {tool}, {keep}");
    for t in &r.backfill.transformation {
        let _ = writeln!(s, "      {t}");
    }
    let verify = if r.same_partition_key {
        "counts per token range"
    } else {
        "row totals and sampled keys"
    };
    let _ = writeln!(
        s,
        "    phase 4 verify: {verify}; phase 6 stop old writes; phase 7 snapshot and drop {}",
        r.old_table
    );
}

/// How many statements the dry run applied with ScyllaDB's rules, when any.
pub fn scylla_note(dry: &DryRun) -> String {
    if dry.scylla_rules == 0 {
        String::new()
    } else {
        format!(
            " ({} of them with ScyllaDB's rules, which the schema crate does not model)",
            dry.scylla_rules
        )
    }
}
