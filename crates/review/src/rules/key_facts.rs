//! Facts the key- and size-rules read off the query list and the schema: which
//! table a statement writes, the columns an UPDATE sets and how, TTLs, and where
//! a finding about a column points.

use std::ops::Range;

use cqlmodel_cql::ast::{Statement, StatementKind, UsingParam};
use cqlmodel_schema::{Column, Table};

pub use crate::query_index::{Change, QueryIndex, statement_table, statements_of};

/// True when a write statement sets a TTL (`USING TTL n`, n > 0, or a bind marker).
pub fn sets_ttl(stmt: &Statement) -> bool {
    let using: &[UsingParam] = match &stmt.kind {
        StatementKind::Insert(s) => &s.using,
        StatementKind::Update(s) => &s.using,
        _ => return false,
    };
    using.iter().any(|u| match u {
        UsingParam::Ttl(t) => t.to_string().trim() != "0",
        UsingParam::Timestamp(_) => false,
    })
}

/// Where a finding about `column` points: its definition in the CREATE statement,
/// or the statement itself when the definition has no position.
pub fn column_site(table: &Table, column: &Column) -> (usize, Range<usize>, u32) {
    let span = if column.origin.span.is_empty() || column.origin.file != table.origin.file {
        table.origin.span
    } else {
        column.origin.span
    };
    (table.origin.file, span.range(), table.origin.span.start)
}

/// `a, b` or `(a, b)`: the partition key as a PRIMARY KEY clause writes it.
pub fn partition_key_text(table: &Table) -> String {
    let names: Vec<&str> = table.partition_key().map(|c| c.name.as_str()).collect();
    match names.as_slice() {
        [one] => (*one).to_string(),
        many => format!("({})", many.join(", ")),
    }
}

/// A byte limit as configured: `1 MiB`, `100 MiB`, else decimal units (`1.5 MB`).
pub fn bytes_text(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        crate::stats::format_bytes(bytes as f64)
    }
}

/// A duration a person reads: `40 minutes`, `28 hours`, `12 days`, `3.2 years`.
pub fn about(seconds: f64) -> String {
    const MINUTE: f64 = 60.0;
    const HOUR: f64 = 3600.0;
    const DAY: f64 = 86_400.0;
    const YEAR: f64 = 365.0 * DAY;
    if !seconds.is_finite() {
        return "never".into();
    }
    if seconds >= 1000.0 * YEAR {
        return "more than 1,000 years".into();
    }
    let (value, unit) = if seconds < 2.0 * HOUR {
        ((seconds / MINUTE).round().max(1.0), "minute")
    } else if seconds < 2.0 * DAY {
        ((seconds / HOUR).round(), "hour")
    } else if seconds < YEAR {
        ((seconds / DAY).round(), "day")
    } else if seconds < 100.0 * YEAR {
        ((seconds / YEAR * 10.0).round() / 10.0, "year")
    } else {
        ((seconds / YEAR).round(), "year")
    };
    let plural = if value == 1.0 { "" } else { "s" };
    format!("{value} {unit}{plural}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_people_read() {
        assert_eq!(about(60.0), "1 minute");
        assert_eq!(about(100_000.0 / 1.0), "28 hours");
        assert_eq!(about(12.0 * 86_400.0), "12 days");
        assert_eq!(about(3.2 * 365.0 * 86_400.0), "3.2 years");
        assert_eq!(about(f64::INFINITY), "never");
        assert_eq!(about(250.4 * 365.0 * 86_400.0), "250 years");
        assert_eq!(about(2739.7 * 365.0 * 86_400.0), "more than 1,000 years");
    }

    #[test]
    fn ttl_literals_and_markers() {
        let stmt = |s: &str| cqlmodel_cql::parse_statement(s).expect("parses");
        assert!(sets_ttl(&stmt("INSERT INTO t (k) VALUES (1) USING TTL 60")));
        assert!(sets_ttl(&stmt("INSERT INTO t (k) VALUES (1) USING TTL ?")));
        assert!(!sets_ttl(&stmt("INSERT INTO t (k) VALUES (1) USING TTL 0")));
        assert!(!sets_ttl(&stmt(
            "INSERT INTO t (k) VALUES (1) USING TIMESTAMP 5"
        )));
        assert!(!sets_ttl(&stmt("INSERT INTO t (k) VALUES (1)")));
    }
}
