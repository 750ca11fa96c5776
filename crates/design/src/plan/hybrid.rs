//! The per-key hybrid, built (issue 10 §5): where per_key found that one
//! bucket width cannot serve both the typical and the hottest key, each key
//! gets its own width, recorded from a moment on in `<table>_widths`.
//!
//! Two widths: the coarse one (`none`: the key's rows in one partition)
//! for every key until it crosses the threshold, the table's own fine
//! width after. The bucket column holds the start of the row's fine bucket
//! under the fine width, and the period's `since` under `none` (epoch 0 for
//! a key never promoted), so a period's partitions never collide with
//! another's. Built only when the typical key needs no width at all:
//! then a cold key's one partition is bounded by the threshold itself.

use cqlmodel_cql::keywords::quote_ident;

use crate::derive::{KeyPart, Role, TableColumn, TableDesign, TableKind, TablePurpose, fit_name};
use crate::reads::QueryPlan;
use crate::select::ColRef;
use crate::writes::{ReadSource, Step, WritePath, WriteStatement};

pub use super::hybrid_build::HybridBuild;
use super::per_key::PerKeyPlan;

/// How long a writer may cache a key's widths. A promotion takes effect
/// this long after it is written (`since` = now + this), so every writer
/// has re-read the widths before the new width applies.
pub const WIDTH_CACHE_SECONDS: u64 = 60;

/// Counter reads per threshold of rows: a cold key's count is read on one
/// write in `threshold / CHECKS_PER_THRESHOLD`, so a key is promoted about
/// 1% of the threshold past it.
pub const CHECKS_PER_THRESHOLD: f64 = 100.0;

/// The name the bucket column of a hybrid table takes: its value is not
/// always the start of a `minute` (a cold key's is its period's `since`).
pub const BUCKET_COLUMN: &str = "bucket";

/// True when the hybrid can be built for the plan's table: one bucket and
/// key attributes in the partition key (no salt), and a typical key that
/// needs no width (its one partition is bounded by the threshold).
fn buildable(p: &PerKeyPlan, t: &TableDesign) -> bool {
    let buckets = t
        .partition_key
        .iter()
        .filter(|k| matches!(k, KeyPart::Bucket(..)))
        .count();
    let plain = t
        .partition_key
        .iter()
        .all(|k| matches!(k, KeyPart::Attr(_) | KeyPart::Bucket(..)));
    p.typical.own_width == "none"
        && buckets == 1
        && plain
        && t.kind == TableKind::Table
        && !t.columns.iter().any(|c| c.name == BUCKET_COLUMN)
}

/// Before reads and writes are planned: the bucket column of each table
/// that gets per-key widths is renamed `bucket` (a `timestamp`), in the
/// table and in its statistics. Returns the tables prepared.
pub(super) fn prepare(
    keyspace: &str,
    plans: &[PerKeyPlan],
    tables: &mut [TableDesign],
    stats: &mut cqlmodel_stats::Stats,
) -> Vec<String> {
    let mut prepared = Vec::new();
    for p in plans {
        let Some(t) = tables.iter_mut().find(|t| t.name == p.table) else {
            continue;
        };
        if !buildable(p, t) {
            continue;
        }
        let Some(c) = t
            .columns
            .iter_mut()
            .find(|c| matches!(c.part, KeyPart::Bucket(..)))
        else {
            continue;
        };
        let old = std::mem::replace(&mut c.name, BUCKET_COLUMN.into());
        c.cql_type = "timestamp".into();
        if let Some(ts) = stats.tables.get_mut(&format!("{keyspace}.{}", t.name))
            && let Some(cs) = ts.columns.remove(&old)
        {
            ts.columns.insert(BUCKET_COLUMN.into(), cs);
        }
        prepared.push(t.name.clone());
    }
    prepared
}

/// The key columns (name, type) of a prepared table: its partition key
/// without the bucket.
fn key_columns(t: &TableDesign) -> Vec<(String, String)> {
    t.partition_key
        .iter()
        .filter(|p| matches!(p, KeyPart::Attr(_)))
        .filter_map(|p| t.column_for(p))
        .map(|c| (c.name.clone(), c.cql_type.clone()))
        .collect()
}

/// A column of a bookkeeping table: its attribute is the table's own (no
/// entity's), so "where each column lives" does not count it.
fn own_column(table: &str, name: &str, cql_type: &str, role: Role) -> TableColumn {
    let part = match role {
        Role::Regular if cql_type == "counter" => KeyPart::Counter,
        _ => KeyPart::Attr(ColRef {
            entity: table.to_string(),
            column: name.to_string(),
        }),
    };
    TableColumn {
        name: name.to_string(),
        cql_type: cql_type.to_string(),
        role,
        part,
    }
}

/// `<table>_widths` or `<table>_key_rows`, keyed like the bucketed table.
fn bookkeeping_table(
    t: &TableDesign,
    name: &str,
    key: &[(String, String)],
    counter: bool,
    decisions: Vec<String>,
) -> TableDesign {
    let mut columns: Vec<TableColumn> = key
        .iter()
        .map(|(n, ty)| own_column(name, n, ty, Role::PartitionKey))
        .collect();
    let mut clustering = Vec::new();
    if counter {
        columns.push(own_column(name, "count", "counter", Role::Regular));
    } else {
        let since = own_column(name, "since", "timestamp", Role::ClusteringDesc);
        clustering.push((since.part.clone(), true));
        columns.push(since);
        columns.push(own_column(name, "width", "text", Role::Regular));
    }
    let partition_key = columns
        .iter()
        .filter(|c| c.role == Role::PartitionKey)
        .map(|c| c.part.clone())
        .collect();
    let (compaction, compaction_reason) = if counter {
        (
            "SizeTieredCompactionStrategy",
            "written on every write of a cold key, read on a few of them: STCS, the cheapest to write",
        )
    } else {
        (
            "LeveledCompactionStrategy",
            "read before writes (cached) and before every page, written once per promotion: LCS bounds the SSTables a read touches",
        )
    };
    TableDesign {
        name: name.to_string(),
        entity: t.entity.clone(),
        grain: Vec::new(),
        kind: if counter {
            TableKind::Counter
        } else {
            TableKind::Table
        },
        purpose: if counter {
            TablePurpose::HybridKeyRows { of: t.name.clone() }
        } else {
            TablePurpose::HybridWidths { of: t.name.clone() }
        },
        partition_key,
        clustering,
        columns,
        queries: Vec::new(),
        decisions,
        compaction: compaction.into(),
        compaction_reason: compaction_reason.into(),
        ttl: None,
        classes: Vec::new(),
        ordered: usize::from(!counter),
        ann: Vec::new(),
        value_set: false,
    }
}

/// What `build` reads.
pub(super) struct BuildInput<'a> {
    pub keyspace: &'a str,
    pub prepared: &'a [String],
}

/// The skew warning sizing gave the table, rewritten to say what was built.
fn restate_warning(warnings: &mut [String], p: &PerKeyPlan, b: &HybridBuild) {
    let start = format!(
        "{}: the `{}` bucket is sized for the largest key",
        p.table, p.width
    );
    for w in warnings.iter_mut().filter(|w| w.starts_with(&start)) {
        *w = super::hybrid_text::skew_warning_built(w, p, b);
    }
}

/// The widths table's statistics: a row per promoted key (one promotion
/// each), so `review --stats` sizes it as the small table it is.
fn widths_stats(p: &PerKeyPlan, key: &[(String, String)]) -> Option<cqlmodel_stats::TableStats> {
    let keys = p.hot_keys?.max(1.0);
    let mut ts = cqlmodel_stats::TableStats {
        volume: cqlmodel_stats::Volume::Fixed { rows: keys },
        retention: cqlmodel_stats::Retention::Unbounded,
        ..Default::default()
    };
    for (name, _) in key {
        ts.columns.insert(
            name.clone(),
            cqlmodel_stats::ColumnStats {
                distinct: Some(keys),
                distribution: Some(cqlmodel_stats::Distribution::Uniform),
                ..Default::default()
            },
        );
    }
    Some(ts)
}

/// The rate queries.cql gives a statement the hybrid added: the counter
/// runs on cold keys' writes, the promotion once per hot key.
pub(super) fn statement_rate(plans: &[PerKeyPlan], st: &WriteStatement) -> Option<Option<f64>> {
    plans.iter().filter_map(|p| p.built.as_ref()).find_map(|b| {
        if st.cql == b.count_cql {
            Some(b.counter_writes_per_second)
        } else if st.cql == b.promote_cql {
            Some(b.promotions_per_second.or(b.counter_reads_per_second))
        } else {
            None
        }
    })
}

/// After reads and writes are planned: the two bookkeeping tables, the
/// width read before each write of a prepared table, the counter and the
/// promotion in its insert paths, the reads' notes, and the plan's numbers.
pub(super) fn build(
    input: &BuildInput<'_>,
    plans: &mut [PerKeyPlan],
    tables: &mut Vec<TableDesign>,
    stats: &mut cqlmodel_stats::Stats,
    queries: &mut [QueryPlan],
    paths: &mut [WritePath],
    warnings: &mut [String],
) {
    for p in plans.iter_mut() {
        if !input.prepared.contains(&p.table) {
            let why = not_built_reason(p);
            p.hybrid = format!("{}. {why}", p.hybrid);
            p.not_built = Some(why);
            let said = format!(
                "sizing, per key: the design chooses {}. The alternative: {}",
                p.chosen, p.hybrid
            );
            restate_decision(tables, &p.table, &said);
            continue;
        }
        let Some(t) = tables.iter().find(|t| t.name == p.table).cloned() else {
            continue;
        };
        let key = key_columns(&t);
        let widths = fit_name(&format!("{}_widths", t.name));
        let rows = fit_name(&format!("{}_key_rows", t.name));
        if key.is_empty() || tables.iter().any(|x| x.name == widths || x.name == rows) {
            p.not_built = Some(format!(
                "not built: the names `{widths}` or `{rows}` are taken, or the table has no key besides its bucket"
            ));
            continue;
        }
        let mut b = cql_of(input.keyspace, p, &key, (&widths, &rows));
        let mut insert_rate = 0.0;
        for path in paths.iter_mut() {
            if rewrite_path(path, &t, p, &b) {
                if path.statements.iter().any(|s| s.cql == b.promote_cql) {
                    insert_rate += path.rate.unwrap_or(0.0);
                }
                b.write_paths.push(path.name.clone());
                let cold = path.rate.map(|r| r * (1.0 - p.hot_share.unwrap_or(0.0)));
                b.counter_writes_per_second =
                    Some(b.counter_writes_per_second.unwrap_or(0.0) + cold.unwrap_or(0.0));
            }
        }
        // Three significant figures: the rates are estimates from a share.
        let round = |x: f64| {
            if x <= 0.0 {
                return x;
            }
            let scale = 10f64.powi(2 - x.log10().floor() as i32);
            (x * scale).round() / scale
        };
        b.counter_writes_per_second = b.counter_writes_per_second.map(round);
        b.counter_share = round(b.counter_share);
        b.promotion_share = match b.promotions_per_second {
            Some(promotions) if insert_rate > 0.0 => round((promotions / insert_rate).min(1.0)),
            _ => round(b.promotion_share),
        };
        b.counter_reads_per_second = b
            .counter_writes_per_second
            .map(|w| round(w / b.check_one_in as f64));
        for q in queries
            .iter_mut()
            .filter(|q| q.table.as_deref() == Some(t.name.as_str()))
        {
            q.notes.retain(|n| !n.starts_with("reads the newest "));
            let ranged = ranged(q);
            count_statements(q, p, &b, ranged);
            q.notes.push(super::hybrid_text::read_note(p, &b, ranged));
        }
        let texts = super::hybrid_text::table_decisions(p, &b);
        let mut widths_table = bookkeeping_table(&t, &widths, &key, false, texts.0);
        // Read before every page of the table's reads: it serves them too.
        widths_table.queries = t.queries.clone();
        tables.push(widths_table);
        if let Some(ts) = widths_stats(p, &key) {
            stats
                .tables
                .insert(format!("{}.{widths}", input.keyspace), ts);
        }
        tables.push(bookkeeping_table(&t, &rows, &key, true, texts.1));
        p.hybrid = super::hybrid_text::hybrid_text(p, &b);
        p.chosen = super::hybrid_text::chosen_text(p, &b);
        let said = format!(
            "sizing, per key: the design builds {}. With one width instead: {}",
            p.hybrid, p.one_width
        );
        restate_decision(tables, &p.table, &said);
        restate_warning(warnings, p, &b);
        p.built = Some(b);
    }
}

/// A range read walks the buckets its range spans: its cost is the
/// range's, not a page's.
pub(super) fn ranged(q: &QueryPlan) -> bool {
    q.notes.iter().any(|n| n.starts_with("bucket fan-out"))
}

/// The read's own figures are what the application runs: the widths read,
/// then the partitions it walks. A page: the hottest key's statements (the
/// most a page runs; the typical key's are in the note and the cost per
/// key). A range: the buckets it spans, and the widths read before them.
fn count_statements(q: &mut QueryPlan, p: &PerKeyPlan, b: &HybridBuild, ranged: bool) {
    if ranged {
        q.statements = q.statements.saturating_add(1);
        q.partitions = q.partitions.map(|n| n.saturating_add(1));
        // The hottest key's rows in the buckets the range spans, up to a page.
        let spanned = q.statements.saturating_sub(1) as f64;
        let rows = p.hottest.rows_per_bucket * spanned;
        let page = q
            .page
            .or_else(|| cql_limit(q))
            .map_or(f64::INFINITY, |n| n as f64);
        q.rows_read = Some(rows.min(page).round());
        return;
    }
    q.statements = b.hottest_statements;
    q.partitions = Some(b.hottest_statements);
    q.rows_read = Some(p.hottest.rows.min(p.page as f64).round());
}

/// The LIMIT of the read's CQL (a walk stops once it has that many rows).
fn cql_limit(q: &QueryPlan) -> Option<u64> {
    let cql = q.cql.as_deref()?;
    let (_, after) = cql.rsplit_once(" LIMIT ")?;
    after.split_whitespace().next()?.parse().ok()
}

/// The table's per-key decision (sizing wrote the trade-off) restated as
/// what the design did.
fn restate_decision(tables: &mut [TableDesign], table: &str, said: &str) {
    if let Some(main) = tables.iter_mut().find(|x| x.name == table) {
        for d in main
            .decisions
            .iter_mut()
            .filter(|d| d.starts_with("sizing, per key:"))
        {
            *d = said.to_string();
        }
    }
}

/// Why a plan's table keeps one width.
fn not_built_reason(p: &PerKeyPlan) -> String {
    if p.typical.own_width != "none" {
        format!(
            "not built: the typical key itself needs a `{}` width, so a key's one partition before promotion would not be bounded by the threshold; the design writes and reads one width",
            p.typical.own_width
        )
    } else {
        "not built: the table's partition key holds a salt or more than one bucket; the design writes and reads one width".into()
    }
}

/// The CQL of the hybrid's reads and writes, and its numbers.
fn cql_of(
    keyspace: &str,
    p: &PerKeyPlan,
    key: &[(String, String)],
    (widths, rows): (&str, &str),
) -> HybridBuild {
    let ks = quote_ident(keyspace);
    let q = |n: &str| quote_ident(n);
    let cond: Vec<String> = key.iter().map(|(n, _)| format!("{} = ?", q(n))).collect();
    let cond = cond.join(" AND ");
    let names: Vec<String> = key.iter().map(|(n, _)| q(n)).collect();
    let markers = vec!["?"; key.len()].join(", ");
    let check_one_in = ((p.threshold_rows / CHECKS_PER_THRESHOLD).floor() as u64).max(1);
    HybridBuild {
        widths_table: widths.to_string(),
        rows_table: rows.to_string(),
        key: key.iter().map(|(n, _)| n.clone()).collect(),
        bucket_column: BUCKET_COLUMN.into(),
        fine: p.width.clone(),
        coarse: p.typical.own_width.clone(),
        cache_seconds: WIDTH_CACHE_SECONDS,
        check_one_in,
        write_paths: Vec::new(),
        counter_writes_per_second: None,
        counter_reads_per_second: None,
        promotions_per_second: p.hot_keys.map(|k| k / p.live.max(1) as f64),
        counter_share: 1.0 - p.hot_share.unwrap_or(0.0),
        promotion_share: 1.0 / p.threshold_rows.max(1.0),
        typical_statements: 1 + p.typical.statements_own_width,
        hottest_statements: 1 + p.hottest.statements_one_width,
        writer_read_cql: format!(
            "SELECT since, width FROM {ks}.{} WHERE {cond} AND since <= ? LIMIT 1",
            q(widths)
        ),
        reader_read_cql: format!("SELECT since, width FROM {ks}.{} WHERE {cond}", q(widths)),
        check_cql: format!("SELECT count FROM {ks}.{} WHERE {cond}", q(rows)),
        count_cql: format!("UPDATE {ks}.{} SET count = count + 1 WHERE {cond}", q(rows)),
        delete_widths_cql: format!("DELETE FROM {ks}.{} WHERE {cond}", q(widths)),
        delete_rows_cql: format!("DELETE FROM {ks}.{} WHERE {cond}", q(rows)),
        promote_cql: format!(
            "INSERT INTO {ks}.{} ({}, since, width) VALUES ({markers}, ?, '{}')",
            q(widths),
            names.join(", "),
            p.width
        ),
    }
}

/// Every statement writing the table reads the key's width first; an
/// insert also counts a cold key's rows and promotes it. True when the
/// path writes the table.
fn rewrite_path(path: &mut WritePath, t: &TableDesign, p: &PerKeyPlan, b: &HybridBuild) -> bool {
    let entity = t.entity.clone();
    let key: Vec<String> = key_columns(t).into_iter().map(|(n, _)| n).collect();
    let mut wrote = false;
    // The insert's repeat (a fan-out writes one row per source row): the
    // counter counts each of those rows, once per row as well.
    let mut inserts: Option<Option<String>> = None;
    let mut whole_key_delete = false;
    for st in path.statements.iter_mut().filter(|s| s.table == t.name) {
        wrote = true;
        if st.cql.starts_with("INSERT") && inserts.is_none() {
            inserts = Some(st.repeat.clone());
        }
        let said = super::hybrid_text::write_read_text(b);
        st.reads_first = Some(match st.reads_first.take() {
            Some(before) => format!("{before}; {said}"),
            None => said,
        });
        st.reads
            .push(ReadSource::from_table(&entity, &b.widths_table, &key));
        // A statement repeated over a key's buckets (a cascade's partition
        // deletes) walks the key's own periods, not the fine width's.
        if let Some(r) = st.repeat.as_mut().filter(|r| r.contains("bucket")) {
            r.push_str(&super::hybrid_text::bucket_walk_text(b));
            whole_key_delete |= st.cql.starts_with("DELETE");
        }
    }
    // Statements that read the table's partitions first (the keys a
    // cascade deletes elsewhere) read them by the same walk.
    for st in path
        .statements
        .iter_mut()
        .filter(|s| s.table != t.name && s.tables_read().any(|r| r == t.name))
    {
        if let Some(r) = st.reads_first.as_mut() {
            r.push_str(&super::hybrid_text::bucket_walk_text(b));
        }
    }
    if whole_key_delete {
        path.statements.extend(bookkeeping_deletes(b));
    }
    if let Some(repeat) = inserts {
        let mut count = count_statement(p, b, path.rate);
        count.repeat = repeat;
        path.statements.push(count);
        path.statements.push(promote_statement(p, b, &entity, &key));
        path.notes
            .push(super::hybrid_text::path_note(p, b, path.rate));
    }
    wrote
}

/// A key whose every partition is deleted leaves no bookkeeping behind:
/// its widths and its count go too, after the partitions (whose walk reads
/// the widths).
fn bookkeeping_deletes(b: &HybridBuild) -> Vec<WriteStatement> {
    [
        (&b.widths_table, &b.delete_widths_cql, false),
        (&b.rows_table, &b.delete_rows_cql, true),
    ]
        .into_iter()
        .map(|(table, cql, counter)| WriteStatement {
            table: table.clone(),
            cql: cql.clone(),
            repeat: None,
            reads_first: None,
            reads: Vec::new(),
            counter,
            lwt: false,
            hybrid: false,
            only_when: None,
            step: Step::Sweep,
            new_row: false,
            mechanism: "bookkeeping delete, last".into(),
            reason: if counter {
                "the key's count of rows goes with its rows (a deleted counter is not reused: the key is gone)".into()
            } else {
                "the key's widths go with its rows, after the partition deletes that walk them".into()
            },
        })
        .collect()
}

fn count_statement(p: &PerKeyPlan, b: &HybridBuild, rate: Option<f64>) -> WriteStatement {
    WriteStatement {
        table: b.rows_table.clone(),
        cql: b.count_cql.clone(),
        repeat: None,
        reads_first: None,
        reads: Vec::new(),
        counter: true,
        lwt: false,
        hybrid: false,
        only_when: Some(format!(
            "the key's width is `{}` (a cold key): a promoted key is no longer counted",
            b.coarse
        )),
        step: Step::Increment,
        new_row: false,
        mechanism: "counter update".into(),
        reason: super::hybrid_text::count_reason(p, rate),
    }
}

fn promote_statement(
    p: &PerKeyPlan,
    b: &HybridBuild,
    entity: &str,
    key: &[String],
) -> WriteStatement {
    WriteStatement {
        table: b.widths_table.clone(),
        cql: b.promote_cql.clone(),
        repeat: None,
        reads_first: Some(format!(
            "on one write in {} of a cold key (a random draw), `{}`",
            b.check_one_in, b.check_cql
        )),
        reads: vec![ReadSource::from_table(entity, &b.rows_table, key)],
        counter: false,
        lwt: false,
        hybrid: false,
        only_when: Some(format!(
            "the count read is over {} rows: the key is promoted to `{}`",
            cqlmodel_stats::units::format_count(p.threshold_rows),
            b.fine
        )),
        step: Step::Plain,
        new_row: false,
        mechanism: "promotion, last".into(),
        reason: super::hybrid_text::promote_reason(p, b),
    }
}

/// A bookkeeping statement the hybrid added to an insert path runs on a
/// share of the path's executions, not on each: the counter on cold keys'
/// writes, the promotion once per hot key. That share, and what it is, for
/// the verdict's rows per write (a counter increment is a write to the
/// cluster; a promotion in a thousand writes is not a per-write cost).
pub fn bookkeeping_share(plans: &[PerKeyPlan], st: &WriteStatement) -> Option<(f64, String)> {
    plans.iter().filter_map(|p| p.built.as_ref()).find_map(|b| {
        if st.cql == b.count_cql {
            Some((
                b.counter_share,
                format!("`{}` counter increment (cold keys' writes)", b.rows_table),
            ))
        } else if st.cql == b.promote_cql {
            Some((
                b.promotion_share,
                format!("`{}` promotion (once per hot key)", b.widths_table),
            ))
        } else {
            None
        }
    })
}

/// queries.cql's lines for the hybrid's own reads: (name, rate, CQL).
pub(super) fn hybrid_reads(
    plans: &[PerKeyPlan],
    queries: &[QueryPlan],
    paths: &[WritePath],
) -> Vec<(String, Option<f64>, String)> {
    let mut out = Vec::new();
    for p in plans {
        let Some(b) = &p.built else { continue };
        let write_rate: Vec<f64> = paths
            .iter()
            .filter(|w| b.write_paths.contains(&w.name))
            .filter_map(|w| w.rate)
            .collect();
        let write_rate = (!write_rate.is_empty()).then(|| write_rate.iter().sum::<f64>());
        let read_rate: Vec<f64> = queries
            .iter()
            .filter(|q| q.table.as_deref() == Some(p.table.as_str()))
            .filter_map(|q| q.rate)
            .collect();
        let read_rate = (!read_rate.is_empty()).then(|| read_rate.iter().sum::<f64>());
        out.push((
            format!("{}_width_for_write", p.table),
            write_rate,
            b.writer_read_cql.clone(),
        ));
        out.push((
            format!("{}_widths_for_read", p.table),
            read_rate,
            b.reader_read_cql.clone(),
        ));
        out.push((
            format!("{}_count_check", p.table),
            b.counter_reads_per_second,
            b.check_cql.clone(),
        ));
    }
    out
}

#[cfg(test)]
#[path = "hybrid_tests.rs"]
mod tests;
