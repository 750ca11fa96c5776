use cqlmodel_cql::ast::StatementKind;
use cqlmodel_cql::keywords::quote_ident;
use cqlmodel_diagnostics::Severity;
use cqlmodel_schema::Table;

use super::query_facts::{
    format_rate, has_using_timestamp, name_site, option_span, read_load, single_statements,
    statement_table, stats_growth, thousands, time_clustering, using_ttl, write_load, write_using,
};
use crate::context::Context;
use crate::declare_rule;
use crate::finding::{Finding, Findings};

declare_rule! {
    /// ## What it does
    /// Compares a table's compaction strategy with how it is written:
    ///
    /// - a time series with a TTL (`default_time_to_live > 0`, or `USING TTL` in
    ///   the query list) and a time-ordered clustering column, not on
    ///   `TimeWindowCompactionStrategy` (TWCS), and never updated or deleted: a
    ///   warning when written at least 100 rows/s, info (a question) below that or
    ///   without rates;
    /// - TWCS without any TTL: warning (info without a query list, which may set
    ///   `USING TTL`);
    /// - TWCS on a table the query list updates or deletes, or inserts into both
    ///   with and without a TTL: warning; writes with an explicit `USING
    ///   TIMESTAMP` (out of order): info;
    /// - `LeveledCompactionStrategy` (LCS) on a write-heavy table: the writes'
    ///   `@rate` sum (without rates: the statistics file's `rows_per_second`)
    ///   reaches `thresholds.high_rate_per_second` and the table is written ten
    ///   times more than it is read (warning), or one of the two (info).
    ///
    /// ## Evidence
    /// - The schema (strategy, TTL, clustering) and the query list (`USING TTL`,
    ///   updates, deletes, `@rate`).
    /// - A TTL'd time series off TimeWindowCompactionStrategy is a warning when it
    ///   is written at least 100 rows/s (query `@rate`, else the statistics'
    ///   `rows_per_second`); below that, or without numbers, a question (info).
    /// - LeveledCompactionStrategy is a warning when the writes reach
    ///   `high_rate_per_second` and are at least ten times the reads; one of the
    ///   two alone is info.
    ///
    /// ## Why is this bad?
    /// TWCS groups SSTables by write time into windows and drops a whole window
    /// once everything in it has expired: no rewriting, no tombstone scanning.
    /// Size-tiered or leveled compaction mixes old and new rows in the same
    /// SSTables, so expired data is only purged when compaction happens to merge
    /// everything that overlaps it: disk grows past the retention and reads wade
    /// through expired cells.
    ///
    /// The converse: TWCS never merges across windows. Without a TTL the windows
    /// never expire and pile up for ever; an update or delete lands in a new
    /// window while the data it shadows sits in an old one, so neither can be
    /// dropped until both windows expire, and reads merge every window.
    ///
    /// LCS rewrites data about ten times as it moves down the levels: good for
    /// read-mostly tables with updates, costly for write-heavy ones, where L0
    /// backs up and compaction falls behind.
    ///
    /// ## Example
    /// ```cql
    /// CREATE TABLE iot.readings (sensor_id text, day date, ts timestamp, v double,
    ///     PRIMARY KEY ((sensor_id, day), ts))
    ///     WITH default_time_to_live = 2592000;   -- 30 days, size-tiered compaction
    /// ```
    ///
    /// ## Use instead
    /// ```cql
    /// ALTER TABLE iot.readings WITH compaction = {'class': 'TimeWindowCompactionStrategy',
    ///     'compaction_window_unit': 'DAYS', 'compaction_window_size': '1'};
    /// ```
    /// Choose the window so that the TTL spans 20 to 30 windows.
    ///
    /// ## References
    /// - Apache Cassandra documentation, "Time Window CompactionStrategy" and
    ///   "Leveled Compaction Strategy"
    /// - The Last Pickle, "TWCS part 1: how does it work and when should you use it?"
    pub static COMPACTION_MISMATCH = {
        code: "CQL015",
        name: "compaction-mismatch",
        severity: Warning,
        summary: "A compaction strategy that does not fit how the table is written",
        check: check,
    };
}

const TWCS: &str = "TimeWindowCompactionStrategy";
const LCS: &str = "LeveledCompactionStrategy";
const DAY: u64 = 86_400;

/// How the query list writes one table.
#[derive(Default)]
struct Writes {
    /// INSERT/UPDATE statements with `USING TTL`, and the largest literal TTL among them.
    with_ttl: Vec<String>,
    ttl_literal: Option<u64>,
    /// INSERTs without `USING TTL`.
    inserts_without_ttl: Vec<String>,
    /// UPDATE and DELETE queries.
    mutations: Vec<String>,
    /// Writes with `USING TIMESTAMP`.
    timestamped: Vec<String>,
}

impl Writes {
    fn of(cx: &Context<'_>, table: &Table) -> Self {
        let name = table.qualified_name();
        let mut w = Writes::default();
        for q in cx
            .queries_on(table)
            .filter(|q| q.path.error.is_none() && q.is_write())
        {
            for s in single_statements(q) {
                if statement_table(q, s).as_deref() != Some(name.as_str()) {
                    continue;
                }
                let using = write_using(s);
                let ttl = using_ttl(using);
                if let Some(literal) = ttl {
                    push_once(&mut w.with_ttl, &q.name);
                    if let Some(n) = literal {
                        w.ttl_literal = Some(w.ttl_literal.map_or(n, |m| m.max(n)));
                    }
                }
                match &s.kind {
                    StatementKind::Insert(_) if ttl.is_none() => {
                        push_once(&mut w.inserts_without_ttl, &q.name)
                    }
                    StatementKind::Update(_) | StatementKind::Delete(_) => {
                        push_once(&mut w.mutations, &q.name)
                    }
                    _ => {}
                }
                if has_using_timestamp(using) {
                    push_once(&mut w.timestamped, &q.name);
                }
            }
        }
        w
    }
}

fn push_once(list: &mut Vec<String>, name: &str) {
    if !list.iter().any(|n| n == name) {
        list.push(name.to_string());
    }
}

fn check(cx: &Context<'_>, out: &mut Findings) {
    for table in cx
        .tables()
        .filter(|t| !t.is_view() && !t.is_counter_table())
    {
        let writes = Writes::of(cx, table);
        let default_ttl = table.options.default_time_to_live.filter(|t| *t > 0);
        let has_ttl = default_ttl.is_some() || !writes.with_ttl.is_empty();
        let class = table
            .options
            .compaction
            .as_ref()
            .map_or("SizeTieredCompactionStrategy", |c| c.short_class());
        let time_column = time_clustering(table);
        let appends_only = writes.mutations.is_empty();
        if class == TWCS {
            twcs_findings(cx, out, table, &writes, default_ttl);
            continue;
        }
        if let Some(time) = time_column.filter(|_| has_ttl && appends_only) {
            let ttl = default_ttl.or(writes.ttl_literal);
            let ttl_from = match default_ttl {
                Some(t) => format!("default_time_to_live = {} s", thousands(t)),
                None => format!("`USING TTL` in {}", quoted_list(&writes.with_ttl)),
            };
            let (severity, volume) = ttl_series_volume(cx, table);
            let f = finding(cx, out, table, format!(
                "`{}` is a time series with a TTL ({ttl_from}) on {class}, not TimeWindowCompactionStrategy",
                table.qualified_name()
            ))
            .severity(severity)
            .note(volume)
            .note(format!(
                "rows clustered by `{}` expire in write order, but {class} mixes old and new rows in the same SSTables: expired data is purged only when compaction merges everything that overlaps it",
                time.name
            ))
            .fix(
                format!(
                    "compact by time windows ({}); whole windows are dropped once they expire",
                    window_description(ttl)
                ),
                Some(alter_compaction(table, &twcs_options(ttl))),
            );
            out.push(f);
            continue;
        }
        if class == LCS {
            lcs_finding(cx, out, table);
        }
    }
}

/// Writes per second from which a TTL'd time series is a sustained stream whose
/// expired data is worth compacting by time windows (8.6 M rows a day).
const TTL_STREAM_RATE: f64 = 100.0;

/// How much a TTL'd time series is written, which decides whether its
/// compaction matters: a warning from [`TTL_STREAM_RATE`] (query rates, else the
/// statistics' `rows_per_second`), a question below it or without numbers.
fn ttl_series_volume(cx: &Context<'_>, table: &Table) -> (Severity, String) {
    let name = table.qualified_name();
    let writes = write_load(cx, &name);
    let rate = match stats_growth(cx, table) {
        Some(growth) if writes.rate == 0.0 => growth,
        _ => writes.rate,
    };
    if rate >= TTL_STREAM_RATE {
        (
            Severity::Warning,
            format!(
                "written {} (a stream: at least {}): expired data piles up faster than compaction happens to merge it",
                format_rate(rate),
                format_rate(TTL_STREAM_RATE)
            ),
        )
    } else if rate > 0.0 {
        (
            Severity::Info,
            format!(
                "written {}, below {}: at that volume the strategy matters little (a question, not a finding)",
                format_rate(rate),
                format_rate(TTL_STREAM_RATE)
            ),
        )
    } else {
        (
            Severity::Info,
            "a question, not a finding: how much is written decides whether it matters; `@rate` on the writes of a query list, or `rows_per_second` in a statistics file, would decide it".to_string(),
        )
    }
}

fn twcs_findings(
    cx: &Context<'_>,
    out: &mut Findings,
    table: &Table,
    writes: &Writes,
    default_ttl: Option<u64>,
) {
    let name = table.qualified_name();
    if default_ttl.is_none() && writes.with_ttl.is_empty() {
        let severity = if cx.has_queries {
            Severity::Warning
        } else {
            Severity::Info
        };
        let window = twcs_window_seconds(table);
        let retention = window.saturating_mul(30);
        let mut f = finding(cx, out, table, format!("`{name}` uses TimeWindowCompactionStrategy without a TTL"))
            .severity(severity)
            .note("TWCS drops a window only when all of it has expired: without a TTL no window ever does, and one SSTable per window accumulates for ever")
            .fix(
                format!(
                    "set the retention as a TTL ({} days here: 30 windows of {}); if the rows must be kept for ever, use the default compaction instead",
                    retention / DAY,
                    window_words(window)
                ),
                Some(format!(
                    "ALTER TABLE {} WITH default_time_to_live = {retention};",
                    qualified(table)
                )),
            );
        if !cx.has_queries {
            f = f.note("heuristic: no query list, so an `INSERT ... USING TTL` the application runs is unknown");
        }
        out.push(f);
    }
    if !writes.mutations.is_empty() {
        let f = finding(cx, out, table, format!(
            "`{name}` uses TimeWindowCompactionStrategy but the query list updates or deletes it ({})",
            quoted_list(&writes.mutations)
        ))
        .note("an update or delete lands in the current window while the row it shadows sits in an older one: TWCS never merges them, so neither window can be dropped until both expire, and reads merge every window")
        .fix(
            "write a new row instead of updating or deleting (append only, expired by the TTL), or compact with a strategy that merges across time",
            Some(alter_compaction(table, "'class': 'SizeTieredCompactionStrategy'")),
        );
        out.push(f.query(writes.mutations.first().cloned().unwrap_or_default()));
    } else if default_ttl.is_none()
        && !writes.with_ttl.is_empty()
        && !writes.inserts_without_ttl.is_empty()
    {
        let f = finding(
            cx,
            out,
            table,
            format!(
                "`{name}` uses TimeWindowCompactionStrategy but inserts without a TTL ({})",
                quoted_list(&writes.inserts_without_ttl)
            ),
        )
        .note("rows without a TTL never expire, so no window holding them is ever dropped")
        .fix(
            "give the table a default TTL so every insert expires",
            Some(format!(
                "ALTER TABLE {} WITH default_time_to_live = {};",
                qualified(table),
                writes.ttl_literal.unwrap_or(30 * DAY)
            )),
        );
        out.push(
            f.query(
                writes
                    .inserts_without_ttl
                    .first()
                    .cloned()
                    .unwrap_or_default(),
            ),
        );
    }
    if !writes.timestamped.is_empty() {
        let f = finding(cx, out, table, format!(
            "`{name}` uses TimeWindowCompactionStrategy and writes with an explicit USING TIMESTAMP ({})",
            quoted_list(&writes.timestamped)
        ))
        .severity(Severity::Info)
        .note("TWCS files a write under the window of its timestamp: an old timestamp (a backfill, a replay) lands in an old window, which then overlaps the new ones and is not dropped on time");
        out.push(f.query(writes.timestamped.first().cloned().unwrap_or_default()));
    }
}

fn lcs_finding(cx: &Context<'_>, out: &mut Findings, table: &Table) {
    let name = table.qualified_name();
    let writes = write_load(cx, &name);
    let reads = read_load(cx, &name);
    let (write_rate, written) = match stats_growth(cx, table) {
        Some(growth) if writes.rate == 0.0 => (
            growth,
            format!(
                "{} new rows (statistics file, rows_per_second)",
                format_rate(growth)
            ),
        ),
        _ => (writes.rate, writes.describe()),
    };
    let high = cx.config.thresholds.high_rate_per_second;
    // Write-heavy is relative: a table read about as often as it is written is
    // what LCS is for, however high both rates are.
    let write_heavy = writes.rate > 0.0 && reads.unrated == 0 && writes.rate >= 10.0 * reads.rate;
    let severity = match (
        write_rate >= high,
        write_heavy || (writes.rate == 0.0 && write_rate >= high),
    ) {
        (true, true) => Severity::Warning,
        (true, false) | (false, true) => Severity::Info,
        (false, false) => return,
    };
    let mut f = finding(
        cx,
        out,
        table,
        format!(
            "`{name}` uses LeveledCompactionStrategy but is written {}{}",
            format_rate(write_rate),
            if reads.rated.is_empty() {
                String::new()
            } else {
                format!(" (reads: {})", format_rate(reads.rate))
            }
        ),
    )
    .severity(severity)
    .note("LCS rewrites each row about ten times as it moves down the levels: a write-heavy table pays that in disk I/O, and L0 backs up when compaction falls behind")
    .note(format!("writes: {written}"))
    .fix(
        "compact write-heavy tables with size-tiered compaction (or UnifiedCompactionStrategy in 5.0)",
        Some(alter_compaction(table, "'class': 'SizeTieredCompactionStrategy'")),
    );
    if let Some((q, _)) = writes.rated.first() {
        f = f.query(q.name.clone());
    }
    out.push(f);
}

/// A finding about `table`, pointing at its `compaction` option when written in
/// its CREATE statement, else at its name.
fn finding(cx: &Context<'_>, out: &Findings, table: &Table, message: String) -> Finding {
    let (span, label) = match option_span(table, "compaction") {
        Some(s) => (s, "compaction strategy"),
        None => (name_site(cx, table.origin), "default compaction"),
    };
    out.new_finding(message)
        .at(table.origin.file, span, table.origin.span.start, label)
        .table(table.qualified_name())
}

fn qualified(table: &Table) -> String {
    format!(
        "{}.{}",
        quote_ident(&table.keyspace),
        quote_ident(&table.name)
    )
}

fn alter_compaction(table: &Table, options: &str) -> String {
    format!(
        "ALTER TABLE {} WITH compaction = {{{options}}};",
        qualified(table)
    )
}

fn quoted_list(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    crate::listing::capped(&quoted)
}

/// A window that splits `ttl` into 20 to 30 windows: (size, unit).
fn window_for(ttl: Option<u64>) -> (u64, &'static str) {
    let Some(ttl) = ttl else { return (1, "DAYS") };
    let window = ttl / 25;
    if window * 4 >= DAY * 3 {
        (((window + DAY / 2) / DAY).max(1), "DAYS")
    } else if window * 4 >= 3600 * 3 {
        (((window + 1800) / 3600).max(1), "HOURS")
    } else {
        (((window + 30) / 60).max(1), "MINUTES")
    }
}

fn twcs_options(ttl: Option<u64>) -> String {
    let (size, unit) = window_for(ttl);
    format!(
        "'class': '{TWCS}', 'compaction_window_unit': '{unit}', 'compaction_window_size': '{size}'"
    )
}

fn window_description(ttl: Option<u64>) -> String {
    let (size, unit) = window_for(ttl);
    match ttl {
        Some(t) => format!(
            "windows of {}, about {} over the TTL",
            window_words(size * unit_seconds(unit)),
            t / (size * unit_seconds(unit)).max(1)
        ),
        None => format!(
            "windows of {}: the TTL is bound at run time, so size them to 1/20-1/30 of it",
            window_words(size * unit_seconds(unit))
        ),
    }
}

fn unit_seconds(unit: &str) -> u64 {
    match unit {
        "DAYS" => DAY,
        "HOURS" => 3600,
        _ => 60,
    }
}

/// The TWCS window of a table, in seconds (default 1 day).
fn twcs_window_seconds(table: &Table) -> u64 {
    let Some(c) = &table.options.compaction else {
        return DAY;
    };
    let unit = c
        .options
        .get("compaction_window_unit")
        .map_or("DAYS".to_string(), |u| u.to_ascii_uppercase());
    let size = c
        .options
        .get("compaction_window_size")
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(1)
        .max(1);
    size.saturating_mul(unit_seconds(&unit))
}

/// `1 day`, `7 hours`, `30 minutes`.
fn window_words(seconds: u64) -> String {
    let (n, unit) = if seconds.is_multiple_of(DAY) {
        (seconds / DAY, "day")
    } else if seconds.is_multiple_of(3600) {
        (seconds / 3600, "hour")
    } else {
        (seconds / 60, "minute")
    };
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{n} {unit}s")
    }
}

#[cfg(test)]
mod tests {
    use super::window_for;

    #[test]
    fn windows_split_the_ttl_into_twenty_to_thirty() {
        for days in [1u64, 2, 7, 30, 90, 365] {
            let ttl = days * 86_400;
            let (size, unit) = window_for(Some(ttl));
            let seconds = size * super::unit_seconds(unit);
            let windows = ttl / seconds;
            assert!(
                (18..=32).contains(&windows),
                "{days} days: {size} {unit} gives {windows} windows"
            );
        }
        assert_eq!(window_for(None), (1, "DAYS"));
    }
}
