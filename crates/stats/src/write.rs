//! Writing statistics as a statistics file (TOML): the inverse of [`load_stats`].
//!
//! `load_stats(&to_toml(&stats), &schema)` gives back `stats` for every value the
//! loader produces. Only what differs from the defaults is written, sections in
//! name order, each number in a form that reads back as the same `f64`.
//!
//! Some states of [`Stats`] have no spelling in the file; they are left out:
//!
//! - `TableStats::request_rate` and the part of `TableStats::query_span` that comes
//!   from queries: the loader derives both from the `[query.*]` sections naming the
//!   table, which are written, so they come back from those.
//! - values the loader refuses whatever else the file says: numbers that are not
//!   finite, negative, a `distinct` below 1, thresholds of zero, durations of zero
//!   seconds, a Zipf exponent outside (0, 10], a time rate that is not positive.
//!
//! [`load_stats`]: crate::load_stats

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::distribution::Distribution;
use crate::model::{ColumnStats, QueryStats, Retention, Stats, TableStats, Thresholds, Volume};
use crate::units::{self, DAY, HOUR, MINUTE};

/// Writes `stats` in the statistics file format (`docs/stats.md`). Table names are
/// written as they are keyed (keyspace-qualified for what the loader produced).
pub fn to_toml(stats: &Stats) -> String {
    let mut sections: Vec<String> = Vec::new();
    if let Some(section) = thresholds_section(&stats.thresholds) {
        sections.push(section);
    }
    let spans = query_spans_by_table(&stats.queries);
    for (name, table) in &stats.tables {
        let header = format!("table.{}", quoted(name));
        sections.push(table_section(
            &header,
            table,
            spans.get(name.as_str()).copied(),
        ));
        for (column, column_stats) in &table.columns {
            let header = format!("{header}.column.{}", key(column));
            sections.push(column_section(&header, column_stats));
        }
    }
    for (name, query) in &stats.queries {
        sections.push(query_section(&format!("query.{}", key(name)), query));
    }
    sections.join("\n")
}

/// A `[header]` line followed by `key = value` lines.
struct Section(String);

impl Section {
    fn new(header: &str) -> Self {
        Section(format!("[{header}]\n"))
    }

    fn field(&mut self, key: &str, value: Option<String>) {
        if let Some(value) = value {
            let _ = writeln!(self.0, "{key} = {value}");
        }
    }
}

fn thresholds_section(t: &Thresholds) -> Option<String> {
    let bytes = (t.partition_bytes != Thresholds::DEFAULT_BYTES)
        .then(|| byte_size(t.partition_bytes))
        .flatten();
    let rows = (t.partition_rows != Thresholds::DEFAULT_ROWS)
        .then(|| positive(t.partition_rows))
        .flatten();
    if bytes.is_none() && rows.is_none() {
        return None;
    }
    let mut s = Section::new("thresholds");
    s.field("partition_bytes", bytes);
    s.field("partition_rows", rows);
    Some(s.0)
}

/// The largest `span` of the queries naming each table: the loader raises the
/// table's `query_span` to it.
fn query_spans_by_table(queries: &BTreeMap<String, QueryStats>) -> BTreeMap<&str, u64> {
    let mut spans: BTreeMap<&str, u64> = BTreeMap::new();
    for query in queries.values() {
        if let (Some(table), Some(span)) = (&query.table, query.span) {
            let entry = spans.entry(table.as_str()).or_insert(span);
            *entry = (*entry).max(span);
        }
    }
    spans
}

/// The header is written even for a table with nothing set, so that the table is
/// named in the file (and reported by `cqlmodel size`) after reading it back.
fn table_section(header: &str, t: &TableStats, span_from_queries: Option<u64>) -> String {
    let mut s = Section::new(header);
    match t.volume {
        Volume::Unspecified => {}
        Volume::Fixed { rows } => s.field("rows", at_least(rows, 0.0)),
        Volume::Growth { rows_per_second } => {
            let (key, value) = growth(rows_per_second);
            s.field(key, value);
        }
    }
    match t.retention {
        Retention::TableDefault => {}
        Retention::Unbounded => s.field("retention", Some(quoted("unbounded"))),
        Retention::Seconds(seconds) => s.field("retention", duration(seconds)),
    }
    s.field("horizon", t.horizon.and_then(duration));
    // The loader takes the largest of `query_span` and the spans of the queries
    // naming the table: only a wider `query_span` says anything (a narrower one
    // cannot be expressed at all).
    let own_span = t
        .query_span
        .filter(|span| span_from_queries.is_none_or(|q| *span > q));
    s.field("query_span", own_span.and_then(duration));
    // `request_rate` is not a field of the file: it is the sum of the rates of
    // the queries naming the table, which are written in their own sections.
    s.0
}

fn column_section(header: &str, c: &ColumnStats) -> String {
    let mut s = Section::new(header);
    s.field("distinct", c.distinct.and_then(|v| at_least(v, 1.0)));
    s.field("distribution", c.distribution.and_then(distribution));
    s.field("avg_size", c.avg_size.and_then(|v| at_least(v, 0.0)));
    s.field("p99_size", c.p99_size.and_then(|v| at_least(v, 0.0)));
    s.field("max_size", c.max_size.and_then(|v| at_least(v, 0.0)));
    s.field(
        "avg_elements",
        c.avg_elements.and_then(|v| at_least(v, 0.0)),
    );
    s.field(
        "max_elements",
        c.max_elements.and_then(|v| at_least(v, 0.0)),
    );
    s.field(
        "element_size",
        c.element_size.and_then(|v| at_least(v, 0.0)),
    );
    s.field("bucket", c.bucket.map(|b| quoted(b.name())));
    s.0
}

fn query_section(header: &str, q: &QueryStats) -> String {
    let mut s = Section::new(header);
    s.field("table", q.table.as_deref().map(quoted));
    s.field(
        "rate_per_second",
        q.rate_per_second.and_then(|v| at_least(v, 0.0)),
    );
    s.field("span", q.span.and_then(duration));
    s.0
}

/// `rows_per_day` when the rate is a whole number of rows a day that reads back as
/// exactly this rate per second (the loader divides by 86,400) and stays within
/// the loader's cap on a value (1e18), else `rows_per_second`.
fn growth(rows_per_second: f64) -> (&'static str, Option<String>) {
    const LOADER_CAP: f64 = 1e18;
    let per_day = (rows_per_second * DAY as f64).round();
    if rows_per_second.fract() != 0.0
        && (1.0..=LOADER_CAP).contains(&per_day)
        && per_day / DAY as f64 == rows_per_second
    {
        ("rows_per_day", number(per_day))
    } else {
        ("rows_per_second", at_least(rows_per_second, 0.0))
    }
}

/// `"365d"` when that reads back as exactly `seconds`, else the number of seconds;
/// nothing for zero, which no duration in the file can be.
fn duration(seconds: u64) -> Option<String> {
    if seconds == 0 {
        return None;
    }
    let text = units::format_duration(seconds);
    if units::parse_duration(&text) == Ok(seconds) {
        return Some(quoted(&text));
    }
    // Beyond 2^53 seconds only the values an f64 holds exactly read back as such,
    // which are the only ones the loader produces.
    number(seconds as f64)
}

/// A byte size: `"100MB"`, `"100MiB"` when one of those is exact, else bytes.
fn byte_size(bytes: f64) -> Option<String> {
    if !(bytes.is_finite() && bytes > 0.0) {
        return None;
    }
    const UNITS: [(&str, f64); 7] = [
        ("TB", 1e12),
        ("GB", 1e9),
        ("MB", 1e6),
        ("KB", 1e3),
        ("GiB", 1_073_741_824.0),
        ("MiB", 1_048_576.0),
        ("KiB", 1_024.0),
    ];
    for (unit, factor) in UNITS {
        let count = bytes / factor;
        if count >= 1.0 && count.fract() == 0.0 && count < MAX_EXACT_INTEGER {
            let text = format!("{count}{unit}");
            if units::parse_bytes(&text) == Ok(bytes) {
                return Some(quoted(&text));
            }
        }
    }
    number(bytes)
}

fn distribution(d: Distribution) -> Option<String> {
    let text = match d {
        Distribution::Uniform => "uniform".to_string(),
        Distribution::Sequential => "sequential".to_string(),
        // `Display` of an f64 is the shortest form that parses back to it, never
        // with an exponent, which is what the distribution parser reads.
        Distribution::Zipf { exponent } if exponent > 0.0 && exponent <= 10.0 => {
            format!("zipf({exponent})")
        }
        Distribution::Time { per_second } if per_second.is_finite() && per_second > 0.0 => {
            format!("time({})", rate(per_second))
        }
        // Out of the range the parser accepts: no spelling reads back as this.
        Distribution::Zipf { .. } | Distribution::Time { .. } => return None,
    };
    Some(quoted(&text))
}

/// `"1/s"`, `"1/min"`, `"24/d"`: the first whole count per unit that reads back as
/// exactly `per_second`, else the exact rate per second.
fn rate(per_second: f64) -> String {
    for (unit, seconds) in [("s", 1), ("min", MINUTE), ("h", HOUR), ("d", DAY)] {
        let count = (per_second * seconds as f64).round();
        if (1.0..MAX_EXACT_INTEGER).contains(&count) {
            let text = format!("{count}/{unit}");
            if units::parse_rate(&text) == Ok(per_second) {
                return text;
            }
        }
    }
    format!("{per_second}/s")
}

fn at_least(v: f64, min: f64) -> Option<String> {
    if v >= min { number(v) } else { None }
}

fn positive(v: f64) -> Option<String> {
    if v > 0.0 { number(v) } else { None }
}

/// Integers up to here convert between `f64` and `i64` exactly.
const MAX_EXACT_INTEGER: f64 = 9_007_199_254_740_992.0; // 2^53

/// A TOML number that reads back as exactly `v`: an integer (`10_000`) when `v` is
/// a whole number below 2^53, else the shortest float form that parses back to `v`
/// (`Debug` always has a `.` or an exponent, so TOML reads a float). Nothing for
/// NaN and infinities, which the loader refuses.
fn number(v: f64) -> Option<String> {
    if !v.is_finite() {
        return None;
    }
    if v.fract() == 0.0 && v.abs() < MAX_EXACT_INTEGER {
        // Exact: a whole number below 2^53 converts to i64 without loss.
        return Some(group_thousands(v as i64));
    }
    Some(format!("{v:?}"))
}

/// `50_000_000`: TOML's digit separator, as the examples write large counts.
fn group_thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

/// A key as written: bare when TOML allows it, else quoted.
fn key(name: &str) -> String {
    let bare = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare { name.to_string() } else { quoted(name) }
}

/// A TOML basic string.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_integers_when_whole_and_exact_floats_otherwise() {
        assert_eq!(number(0.0).as_deref(), Some("0"));
        assert_eq!(number(200.0).as_deref(), Some("200"));
        assert_eq!(number(1_000.0).as_deref(), Some("1_000"));
        assert_eq!(number(50_000_000.0).as_deref(), Some("50_000_000"));
        assert_eq!(number(1.5).as_deref(), Some("1.5"));
        assert_eq!(number(1e20).as_deref(), Some("1e20"));
        assert_eq!(
            number(MAX_EXACT_INTEGER).as_deref(),
            Some("9007199254740992.0")
        );
        assert_eq!(number(f64::NAN), None);
        assert_eq!(number(f64::INFINITY), None);
    }

    #[test]
    fn units_are_used_only_when_exact() {
        assert_eq!(duration(31_536_000).as_deref(), Some("\"1y\""));
        assert_eq!(duration(86_400).as_deref(), Some("\"1d\""));
        assert_eq!(duration(90).as_deref(), Some("\"90s\""));
        assert_eq!(duration(0), None);
        assert_eq!(duration(u64::MAX).as_deref(), Some("1.8446744073709552e19"));
        assert_eq!(byte_size(1e8).as_deref(), Some("\"100MB\""));
        assert_eq!(byte_size(104_857_600.0).as_deref(), Some("\"100MiB\""));
        assert_eq!(byte_size(1_234_567.0).as_deref(), Some("1_234_567"));
        assert_eq!(rate(1.0), "1/s");
        assert_eq!(rate(1.0 / 60.0), "1/min");
        assert_eq!(rate(24.0 / 86_400.0), "1/h");
        assert_eq!(rate(0.3), "18/min");
        assert_eq!(rate(0.123_456), "0.123456/s");
        assert_eq!(growth(10_000.0), ("rows_per_second", Some("10_000".into())));
        assert_eq!(
            growth(500_000.0 / 86_400.0),
            ("rows_per_day", Some("500_000".into()))
        );
        // A daily figure past the loader's 1e18 cap would not load back.
        assert_eq!(growth(2_810_824_182_224_580.5).0, "rows_per_second");
    }

    #[test]
    fn keys_are_quoted_only_when_toml_needs_it() {
        assert_eq!(key("device_id"), "device_id");
        assert_eq!(key("Q1-last"), "Q1-last");
        assert_eq!(key("my col"), "\"my col\"");
        assert_eq!(key(""), "\"\"");
        assert_eq!(quoted("a\"b\\c\u{7f}"), "\"a\\\"b\\\\c\\u007F\"");
    }
}
