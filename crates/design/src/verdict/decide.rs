//! The decision: per entity, then for the workload. Each line says what it
//! measured and which threshold it crossed (or stayed within).

use serde::Serialize;

use super::evidence::{Basis, EntityEvidence, Evidence, ReadMix};
use super::format::{count, names, pct, weight};
use super::input::{OffReason, Transaction};
use super::thresholds::{self as th, FEW_PARTITIONS, OFF_PATH_COMPANION, OFF_PATH_STAY, Threshold};

/// Where the workload (or an entity) belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fit {
    Fits,
    FitsWithCompanions,
    /// Some entities stay relational, the rest moves.
    StayRelationalInPart,
    StayRelational,
    /// No reads in the query list: nothing to weigh.
    Undecided,
}

impl Fit {
    pub fn words(self) -> &'static str {
        match self {
            Fit::Fits => "fits",
            Fit::FitsWithCompanions => "fits with companions",
            Fit::StayRelationalInPart => "stay relational in part",
            Fit::StayRelational => "stay relational",
            Fit::Undecided => "undecided",
        }
    }
}

/// One measured fact and the threshold it was compared with.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Line {
    pub topic: &'static str,
    pub text: String,
    /// The threshold's name (docs/verdict.md), when one applies.
    pub threshold: Option<&'static str>,
    /// The threshold as the output shows it.
    pub limit: Option<&'static str>,
    pub crossed: bool,
}

impl Line {
    fn fact(topic: &'static str, text: String) -> Self {
        Line {
            topic,
            text,
            threshold: None,
            limit: None,
            crossed: false,
        }
    }

    fn against(topic: &'static str, text: String, t: Threshold, crossed: bool) -> Self {
        Line {
            topic,
            text,
            threshold: Some(t.name),
            limit: Some(t.shown),
            crossed,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CompanionKind {
    SearchIndex,
    AnalyticalStore,
    Cache,
}

impl CompanionKind {
    pub fn words(self) -> &'static str {
        match self {
            CompanionKind::SearchIndex => "a search index fed by CDC",
            CompanionKind::AnalyticalStore => "an analytical store fed by CDC",
            CompanionKind::Cache => "an application cache of the whole table",
        }
    }
}

/// A store beside Cassandra for the reads no key serves.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Companion {
    pub kind: CompanionKind,
    pub queries: Vec<String>,
    pub reasons: Vec<OffReason>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntityVerdict {
    pub entity: String,
    pub fit: Fit,
    pub lines: Vec<Line>,
}

/// The fit verdict of a design.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    pub fit: Fit,
    /// One sentence: the verdict and its deciding reason.
    pub summary: String,
    /// The entities that stay relational.
    pub relational: Vec<String>,
    pub companions: Vec<Companion>,
    pub lines: Vec<Line>,
    pub strengths: Vec<Line>,
    pub entities: Vec<EntityVerdict>,
    pub evidence: Evidence,
}

pub fn decide(ev: Evidence) -> Verdict {
    let entities: Vec<EntityVerdict> = ev
        .entities
        .iter()
        .map(|e| entity_verdict(e, ev.basis))
        .collect();
    let relational: Vec<String> = entities
        .iter()
        .filter(|e| e.fit == Fit::StayRelational)
        .map(|e| e.entity.clone())
        .collect();
    let companions = companions(&ev, &relational);
    let fit = if ev.reads.total == 0.0 && relational.is_empty() {
        Fit::Undecided
    } else if !entities.is_empty() && relational.len() == entities.len() {
        Fit::StayRelational
    } else if !relational.is_empty() {
        Fit::StayRelationalInPart
    } else if !companions.is_empty() {
        Fit::FitsWithCompanions
    } else {
        Fit::Fits
    };
    let summary = summary(fit, &ev, &relational, &companions, &entities);
    Verdict {
        fit,
        summary,
        relational,
        companions,
        lines: workload_lines(&ev),
        strengths: strengths(&ev),
        entities,
        evidence: ev,
    }
}

fn entity_verdict(e: &EntityEvidence, basis: Basis) -> EntityVerdict {
    let mut lines = Vec::new();
    let mut stay = false;
    for t in &e.transactions {
        let line = transaction_line(t, basis);
        stay |= line.crossed;
        lines.push(line);
    }
    let off = e.reads.off_total();
    if e.reads.total > 0.0 {
        let share = e.reads.share(e.reads.off_needing_engine());
        let crossed = share > OFF_PATH_STAY.value;
        stay |= crossed;
        lines.push(Line::against(
            "reads",
            format!(
                "{} of its reads need an engine beside Cassandra ({} of {}){}",
                pct(share),
                weight(basis, e.reads.off_needing_engine()),
                weight(basis, e.reads.total),
                off_detail(&e.reads, basis)
            ),
            OFF_PATH_STAY,
            crossed,
        ));
    }
    if let Some(per) = e.lwt_per_partition {
        let crossed = per > th::LWT_PER_PARTITION.value;
        stay |= crossed;
        lines.push(Line::against(
            "lwt",
            format!(
                "{} Paxos rounds over {} rows: {} per partition on average (a hot row takes more)",
                weight(basis, e.writes.lwt),
                count(e.volume.rows.unwrap_or(0.0)),
                weight(basis, per)
            ),
            th::LWT_PER_PARTITION,
            crossed,
        ));
    }
    if e.writes.total > 0.0 {
        let changes = e.writes.updates + e.writes.deletes;
        let text = if changes == 0.0 {
            "no update or delete among its writes: append only".to_string()
        } else {
            format!(
                "{} of its writes update or delete (updates {}, deletes {}): each update leaves older cells for compaction to merge",
                pct(e.writes.share(changes)),
                weight(basis, e.writes.updates),
                weight(basis, e.writes.deletes),
            )
        };
        lines.push(Line::against(
            "updates",
            text,
            th::UPDATE_DELETE_SHARE,
            e.writes.share(changes) > th::UPDATE_DELETE_SHARE.value,
        ));
        if e.writes.deletes > 0.0 {
            let share = e.writes.share(e.writes.deletes);
            lines.push(Line::against(
                "deletes",
                format!(
                    "{} of its writes delete: each is a tombstone that reads skip until gc_grace_seconds passes and compaction drops it",
                    pct(share)
                ),
                th::DELETE_SHARE,
                share > th::DELETE_SHARE.value,
            ));
        }
    }
    let fit = if stay {
        Fit::StayRelational
    } else if off > 0.0 {
        Fit::FitsWithCompanions
    } else {
        Fit::Fits
    };
    EntityVerdict {
        entity: e.entity.clone(),
        fit,
        lines,
    }
}

fn transaction_line(t: &Transaction, basis: Basis) -> Line {
    let rate = match (basis, t.rate) {
        (Basis::Rate, Some(r)) => format!(" at {}", weight(basis, r)),
        _ => String::new(),
    };
    if t.needs_isolation {
        Line::against(
            "transactions",
            format!(
                "`{}` writes {} rows of {}{rate} and reads or checks what it writes: Cassandra 5.0 has no multi-partition transaction (a lightweight transaction's condition holds in one partition; a logged batch is applied in full eventually, without isolation and without conditions across partitions)",
                t.name,
                t.rows_written,
                names(&t.entities)
            ),
            th::TRANSACTION_ROWS,
            true,
        )
    } else {
        Line::against(
            "transactions",
            format!(
                "`{}` writes {} rows of {}{rate} without reading them: a logged batch applies all of it eventually (readers may see part of it meanwhile)",
                t.name,
                t.rows_written,
                names(&t.entities)
            ),
            th::TRANSACTION_ROWS,
            false,
        )
    }
}

/// ` — ad-hoc filter 0.1%: `search`; full scan …`
fn off_detail(reads: &ReadMix, basis: Basis) -> String {
    if reads.off_path.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = reads
        .off_path
        .iter()
        .map(|g| {
            format!(
                "{} {} ({}): {}",
                g.reason.words(),
                pct(reads.share(g.weight)),
                weight(basis, g.weight),
                names(&g.queries)
            )
        })
        .collect();
    format!(" — {}", parts.join("; "))
}

fn companions(ev: &Evidence, relational: &[String]) -> Vec<Companion> {
    let mut out: Vec<Companion> = Vec::new();
    for e in ev
        .entities
        .iter()
        .filter(|e| !relational.contains(&e.entity))
    {
        for g in &e.reads.off_path {
            let kind = match g.reason {
                OffReason::TextSearch => CompanionKind::SearchIndex,
                OffReason::SmallTableScan => CompanionKind::Cache,
                _ => CompanionKind::AnalyticalStore,
            };
            if !out.iter().any(|c| c.kind == kind) {
                out.push(Companion {
                    kind,
                    queries: Vec::new(),
                    reasons: Vec::new(),
                });
            }
            for c in out.iter_mut().filter(|c| c.kind == kind) {
                c.queries.extend(g.queries.iter().cloned());
                if !c.reasons.contains(&g.reason) {
                    c.reasons.push(g.reason);
                }
            }
        }
    }
    out.sort_by_key(|c| c.kind as u8);
    out
}

fn summary(
    fit: Fit,
    ev: &Evidence,
    relational: &[String],
    companions: &[Companion],
    entities: &[EntityVerdict],
) -> String {
    let companion_text = companions
        .iter()
        .map(|c| format!("{} for {}", c.kind.words(), names(&c.queries)))
        .collect::<Vec<_>>()
        .join("; ");
    let served = ev
        .reads
        .share(ev.reads.one_partition + ev.reads.few_partitions);
    let on_path = format!(
        "{} of the read rate from at most {FEW_PARTITIONS} partitions",
        pct(served)
    );
    match fit {
        Fit::Undecided => "no reads in the query list: nothing to weigh (list the application's SELECTs with their @rate)".into(),
        Fit::Fits => format!("fits: {on_path}, no multi-row transaction, no read off the OLTP path"),
        Fit::FitsWithCompanions => format!("fits with companions: {on_path}; {companion_text}"),
        Fit::StayRelational => format!(
            "stay relational: {}",
            deciding_reasons(entities)
        ),
        Fit::StayRelationalInPart => {
            let moves: Vec<String> = entities
                .iter()
                .filter(|e| e.fit != Fit::StayRelational)
                .map(|e| e.entity.clone())
                .collect();
            let moving = if moves.len() > 4 {
                format!("the other {} entities", moves.len())
            } else {
                names(&moves)
            };
            let mut s = format!(
                "stay relational for {} ({}); {moving} move{}",
                names(relational),
                deciding_reasons(entities),
                if companions.is_empty() {
                    String::new()
                } else {
                    format!(" with {companion_text}")
                }
            );
            s = s.replace("  ", " ");
            s
        }
    }
}

/// The crossed deciding thresholds with the entities that crossed them:
/// `multi-row-transaction: `accounts`, `entries``.
fn deciding_reasons(entities: &[EntityVerdict]) -> String {
    let mut by_threshold: Vec<(&str, Vec<String>)> = Vec::new();
    for e in entities.iter().filter(|e| e.fit == Fit::StayRelational) {
        for name in e
            .lines
            .iter()
            .filter(|l| l.crossed)
            .filter_map(|l| l.threshold)
        {
            if !th::ALL.iter().any(|t| t.name == name && t.decides) {
                continue;
            }
            match by_threshold.iter_mut().find(|(n, _)| *n == name) {
                Some((_, list)) if !list.contains(&e.entity) => list.push(e.entity.clone()),
                Some(_) => {}
                None => by_threshold.push((name, vec![e.entity.clone()])),
            }
        }
    }
    by_threshold
        .iter()
        .map(|(name, list)| format!("{name} crossed by {}", names(list)))
        .collect::<Vec<_>>()
        .join("; ")
}

fn workload_lines(ev: &Evidence) -> Vec<Line> {
    let b = ev.basis;
    let r = &ev.reads;
    let mut lines = vec![Line::fact(
        "basis",
        match b {
            Basis::Rate => "shares weigh each statement by its @rate".into(),
            Basis::QueryCount => "shares count statements: not every statement has a @rate (give rates to weigh them by load)".into(),
        },
    )];
    if r.total > 0.0 {
        lines.push(Line::against(
            "reads",
            format!(
                "{} in all: {} from one partition, {} from 2–{FEW_PARTITIONS}, {} from more{}",
                weight(b, r.total),
                pct(r.share(r.one_partition)),
                pct(r.share(r.few_partitions)),
                pct(r.share(r.many_partitions)),
                if r.many_queries.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", names(&r.many_queries))
                }
            ),
            th::SCATTER_SHARE,
            r.share(r.many_partitions) > th::SCATTER_SHARE.value,
        ));
        lines.push(Line::against(
            "off-path",
            format!(
                "{} of reads off the OLTP path{}",
                pct(r.share(r.off_total())),
                off_detail(r, b)
            ),
            OFF_PATH_COMPANION,
            r.off_total() > OFF_PATH_COMPANION.value,
        ));
    }
    write_lines(ev, &mut lines);
    lines
}

/// `1 row`, `3.4 rows`.
fn rows_text(n: f64) -> String {
    let n = (n * 10.0).round() / 10.0;
    format!(
        "{} row{}",
        crate::numbers::trim_float(n),
        if n == 1.0 { "" } else { "s" }
    )
}

/// The statements counted at the share of writes they run on, said with
/// that share: a counter increment on most writes is a write to the
/// cluster each time, a promotion once per hot key is not a per-write cost.
fn weighted_text(weighted: &[(String, f64)]) -> String {
    if weighted.is_empty() {
        return String::new();
    }
    let each: Vec<String> = weighted
        .iter()
        .map(|(what, share)| format!("{what} on {} of its path's writes", pct(*share)))
        .collect();
    format!(
        "; bookkeeping counted at the share of writes it runs on: {}",
        each.join(", ")
    )
}

fn write_lines(ev: &Evidence, lines: &mut Vec<Line>) {
    let b = ev.basis;
    let w = &ev.writes;
    for t in &ev.transactions {
        lines.push(transaction_line(t, b));
    }
    if w.total == 0.0 {
        return;
    }
    lines.push(Line::against(
        "lwt",
        format!(
            "{} of the write rate runs Paxos{}: four round trips to a quorum each (about two with paxos_variant v2) instead of one, serialized per partition; the condition holds within one partition only",
            pct(w.share(w.lwt)),
            if w.lwt_queries.is_empty() {
                String::new()
            } else {
                format!(" ({})", names(&w.lwt_queries))
            }
        ),
        th::LWT_SHARE,
        w.share(w.lwt) > th::LWT_SHARE.value,
    ));
    lines.push(Line::against(
        "amplification",
        format!(
            "{} written per logical write (denormalized copies and fan-out{})",
            rows_text(w.rows_per_write()),
            weighted_text(&w.weighted)
        ),
        th::WRITE_AMPLIFICATION,
        w.rows_per_write() > th::WRITE_AMPLIFICATION.value,
    ));
    if ev.reads.total > 0.0 {
        let (more, less, ratio) = if w.total >= ev.reads.total {
            ("writes", "read", w.total / ev.reads.total)
        } else {
            ("reads", "write", ev.reads.total / w.total)
        };
        lines.push(Line::against(
            "ratio",
            format!(
                "reads {} against writes {}: {} {more} per {less}",
                weight(b, ev.reads.total),
                weight(b, w.total),
                crate::numbers::trim_float((ratio * 10.0).round() / 10.0)
            ),
            th::WRITE_HEAVY_RATIO,
            w.total >= ev.reads.total,
        ));
    }
    if let (Some(rows), Some(rps)) = (ev.rows_held, ev.rows_per_second) {
        lines.push(Line::against(
            "volume",
            format!(
                "{} rows held (at retention, or grown to the sizing horizon), {} rows added per second",
                count(rows),
                count(rps)
            ),
            th::SMALL_ROWS,
            rows < th::SMALL_ROWS.value && rps < th::GROWTH_RATE.value,
        ));
    }
}

/// What the workload does that Cassandra does well.
fn strengths(ev: &Evidence) -> Vec<Line> {
    let b = ev.basis;
    let mut out = Vec::new();
    let one = ev.reads.share(ev.reads.one_partition);
    if one >= th::KEY_LOOKUP_SHARE.value {
        out.push(Line::against(
            "strength",
            format!("key lookups: {} of reads from one partition", pct(one)),
            th::KEY_LOOKUP_SHARE,
            true,
        ));
    }
    let inserts = ev.writes.share(ev.writes.inserts);
    if ev.writes.total > 0.0 && inserts >= th::APPEND_SHARE.value {
        out.push(Line::against(
            "strength",
            format!("append-heavy: {} of writes are inserts", pct(inserts)),
            th::APPEND_SHARE,
            true,
        ));
    }
    if ev.reads.total > 0.0 && ev.writes.total / ev.reads.total >= th::WRITE_HEAVY_RATIO.value {
        out.push(Line::against(
            "strength",
            format!(
                "write-heavy: {} of writes against {} of reads",
                weight(b, ev.writes.total),
                weight(b, ev.reads.total)
            ),
            th::WRITE_HEAVY_RATIO,
            true,
        ));
    }
    if let Some(rps) = ev.rows_per_second.filter(|r| *r >= th::GROWTH_RATE.value) {
        out.push(Line::against(
            "strength",
            format!("growth: {} rows added per second", count(rps)),
            th::GROWTH_RATE,
            true,
        ));
    }
    if let Some(rows) = ev.rows_held.filter(|r| *r >= th::SCALE_ROWS.value) {
        out.push(Line::against(
            "strength",
            format!("volume: {} rows held", count(rows)),
            th::SCALE_ROWS,
            true,
        ));
    }
    out
}
