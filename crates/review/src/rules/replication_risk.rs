use std::collections::BTreeMap;

use cqlmodel_cql::ast::StatementKind;
use cqlmodel_cql::keywords::quote_ident;
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::{Keyspace, Replication};

use super::query_facts::name_site;
use crate::config::Profile;
use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;

declare_rule! {
    /// ## What it does
    /// Checks each keyspace's replication: `SimpleStrategy` is a warning; a
    /// replication factor below 3 in a datacenter is a warning at 1 and info at 2;
    /// `durable_writes = false` (writes skip the commit log) is a warning. On a
    /// keyspace named like a development or test sandbox these are info.
    /// System keyspaces are skipped.
    ///
    /// ## Evidence
    /// The keyspace definitions. A keyspace named like a development or test
    /// sandbox (`dev`, `test`, `sandbox`, `local`, `demo`, `tutorial` as a word of
    /// its name) gets info instead of a warning, unless `profile = "production"`
    /// in `cqlmodel.toml`. `durable_writes = false` is a warning (info on a
    /// sandbox).
    ///
    /// ## Why is this bad?
    /// `SimpleStrategy` places replicas on the next nodes of the ring, blind to
    /// racks and datacenters: two replicas can share a rack that fails as a unit,
    /// and a second datacenter cannot be added safely (the replicas would spread
    /// across both, and `LOCAL_*` consistency levels lose their meaning).
    ///
    /// With RF 1 every node is a single point of failure: a node down makes its
    /// ranges unavailable and a lost disk loses their data. With RF 2, QUORUM
    /// needs both replicas, so one node down fails every QUORUM read and write of
    /// its ranges. RF 3 survives one replica down at QUORUM.
    ///
    /// ## Example
    /// ```cql
    /// CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
    /// ```
    ///
    /// ## Use instead
    /// ```cql
    /// ALTER KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
    /// ```
    /// Use the datacenter names `nodetool status` shows, then run a full repair
    /// (`nodetool repair -full`) on every node so the new replicas receive their data.
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Replication" (architecture, dynamo) and
    ///   "CREATE KEYSPACE" (CQL reference)
    /// - Apache Cassandra documentation, "Changing keyspace replication factor"
    pub static REPLICATION_RISK = {
        code: "CQL017",
        name: "replication-risk",
        severity: Warning,
        summary: "SimpleStrategy, or a replication factor below 3",
        check: check,
    };
}

/// The datacenter name a fix uses when the keyspace names none (SimpleStrategy):
/// the name `SimpleSnitch` reports.
const DEFAULT_DC: &str = "datacenter1";

fn is_system(name: &str) -> bool {
    cqlmodel_schema::is_system_keyspace(name)
        || name.starts_with("dse_")
        || name.starts_with("system_")
}

/// Words that name a development, test or demo keyspace.
const SANDBOX_WORDS: &[&str] = &[
    "dev",
    "devel",
    "development",
    "test",
    "tests",
    "testing",
    "sandbox",
    "local",
    "demo",
    "tutorial",
    "example",
    "examples",
    "playground",
    "scratch",
    "tmp",
    "temp",
    "ci",
];

/// A keyspace named like a sandbox (`gateway_dev`, `test_ks`), unless the
/// configuration says the schema is production's.
fn sandbox(cx: &Context<'_>, ks: &Keyspace) -> bool {
    cx.config.profile != Profile::Production
        && ks
            .name
            .split(['_', '-'])
            .any(|w| SANDBOX_WORDS.contains(&w.to_ascii_lowercase().as_str()))
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    for ks in cx.schema.keyspaces.values().filter(|k| !is_system(&k.name)) {
        if !ks.durable_writes {
            out.push(
                out.new_finding(format!(
                    "keyspace `{}` has durable_writes = false: writes skip the commit log",
                    ks.name
                ))
                .severity(if sandbox(cx, ks) { Severity::Info } else { Severity::Warning })
                .at(ks.origin.file, name_site(cx, ks.origin), ks.origin.span.start, "durable_writes = false")
                .note("a write is acknowledged once in the memtable: a node that stops before its next flush loses those writes, and a whole datacenter losing power at once loses them for good")
                .fix(
                    "turn the commit log back on (the throughput it costs is the price of not losing acknowledged writes)",
                    Some(format!(
                        "ALTER KEYSPACE {} WITH durable_writes = true;",
                        quote_ident(&ks.name)
                    )),
                ),
            );
        }
        let before = out.items.len();
        check_replication(cx, ks, out);
        if sandbox(cx, ks) {
            for f in out.items.iter_mut().skip(before) {
                f.severity = Severity::Info;
                f.notes.push(format!(
                    "`{}` is named like a development or test keyspace: info (set `profile = \"production\"` in cqlmodel.toml to review it as production)",
                    ks.name
                ));
            }
        }
    }
}

fn check_replication(cx: &Context<'_>, ks: &Keyspace, out: &mut Findings) {
    {
        match &ks.replication {
            Replication::Simple { replication_factor } => {
                let rf = *replication_factor;
                let target = BTreeMap::from([(DEFAULT_DC.to_string(), rf.max(3))]);
                let mut f = out
                    .new_finding(format!(
                        "keyspace `{}` uses SimpleStrategy (replication factor {rf}): replicas ignore racks and datacenters",
                        ks.name
                    ))
                    .severity(Severity::Warning)
                    .at(ks.origin.file, site(cx, ks), ks.origin.span.start, "SimpleStrategy")
                    .note("SimpleStrategy puts replicas on the next nodes of the ring: two may share a rack that fails together, and a second datacenter cannot be added safely");
                if let Some(why) = low_rf_why(rf) {
                    f = f.note(why);
                }
                let raise = if rf < 3 { " with 3 replicas" } else { "" };
                f = f.fix(
                    format!("switch to NetworkTopologyStrategy{raise} (use your datacenter's name from `nodetool status`; `{DEFAULT_DC}` is SimpleSnitch's), then run `nodetool repair -full` on every node"),
                    Some(alter(ks, &target)),
                );
                out.push(f);
            }
            Replication::NetworkTopology { datacenters } => {
                let low: Vec<(&str, u32)> = datacenters
                    .iter()
                    .filter(|(_, rf)| **rf > 0 && **rf < 3)
                    .map(|(dc, rf)| (dc.as_str(), *rf))
                    .collect();
                let target: BTreeMap<String, u32> = datacenters
                    .iter()
                    .map(|(dc, rf)| (dc.clone(), if *rf == 0 { 0 } else { (*rf).max(3) }))
                    .collect();
                if let Some(f) = low_rf(cx, out, ks, &low, &target) {
                    out.push(f);
                }
            }
            Replication::Other { .. } => {}
        }
    }
}

/// One finding for the datacenters below RF 3.
fn low_rf(
    cx: &Context<'_>,
    out: &Findings,
    ks: &Keyspace,
    low: &[(&str, u32)],
    target: &BTreeMap<String, u32>,
) -> Option<crate::finding::Finding> {
    let worst = low.iter().map(|(_, rf)| *rf).filter(|rf| *rf < 3).min()?;
    let severity = if worst <= 1 {
        Severity::Warning
    } else {
        Severity::Info
    };
    let places = low
        .iter()
        .filter(|(_, rf)| *rf < 3)
        .map(|(dc, rf)| format!("{rf} in `{dc}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let why = low_rf_why(worst)?;
    Some(
        out.new_finding(format!("keyspace `{}` has replication factor {places}, below 3", ks.name))
            .severity(severity)
            .at(ks.origin.file, site(cx, ks), ks.origin.span.start, "replication factor below 3")
            .note(why)
            .fix(
                "raise the replication factor to 3 per datacenter, then run `nodetool repair -full` on every node",
                Some(alter(ks, target)),
            ),
    )
}

/// Why a replication factor below 3 is a risk (`None` from 3 up).
fn low_rf_why(rf: u32) -> Option<&'static str> {
    match rf {
        0 | 1 => Some(
            "with one replica, a node down makes its ranges unavailable and a lost disk loses their data",
        ),
        2 => Some(
            "with two replicas, QUORUM needs both: one node down fails the QUORUM reads and writes of its ranges",
        ),
        _ => None,
    }
}

/// The keyspace's `replication` map in its CREATE statement, else its name.
fn site(cx: &Context<'_>, ks: &Keyspace) -> std::ops::Range<usize> {
    let origin = ks.origin;
    let whole = origin.span.range();
    let replication = cx
        .sources
        .get(origin.file)
        .and_then(|f| f.text.get(whole.clone()))
        .and_then(|text| cqlmodel_cql::parse_statement(text).ok())
        .and_then(|stmt| match stmt.kind {
            StatementKind::CreateKeyspace(k) => k
                .properties
                .into_iter()
                .find(|p| p.name.value == "replication")
                .map(|p| p.value.span),
            _ => None,
        });
    match replication {
        Some(s) if !s.is_empty() => whole.start + s.start as usize..whole.start + s.end as usize,
        _ => name_site(cx, origin),
    }
}

fn alter(ks: &Keyspace, datacenters: &BTreeMap<String, u32>) -> String {
    let dcs: Vec<String> = datacenters
        .iter()
        .map(|(dc, rf)| format!("'{}': {rf}", dc.replace('\'', "''")))
        .collect();
    format!(
        "ALTER KEYSPACE {} WITH replication = {{'class': 'NetworkTopologyStrategy', {}}};",
        quote_ident(&ks.name),
        dcs.join(", ")
    )
}
