//! `nodetool tablehistograms` (`cfhistograms`): a `ks/t histograms` title, a
//! header naming the columns, a units line, then the 50%..99%, Min and Max rows.
//! Cassandra 4.0+ prints `Read Latency, Write Latency, SSTables, ...`; 3.x and
//! ScyllaDB print `SSTables, Write Latency, Read Latency, ...`: the column order
//! is taken from the header, never assumed.

use crate::cursor::{Cursor, Line};
use crate::error::{ParseProblem, ProblemKind};
use crate::model::{HistogramRow, Origin, Percentile, TableHistogram};
use crate::node_header::{is_comment, node_header};
use crate::number::parse_value;

const FORMAT: &str = "tablehistograms";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    ReadLatency,
    WriteLatency,
    Sstables,
    PartitionSize,
    CellCount,
    Other,
}

/// `ks/t` of a `ks/t histograms` title line (ScyllaDB may print `ks.t`).
pub(crate) fn title(line: &str) -> Option<(&str, &str)> {
    let name = line.trim().strip_suffix("histograms")?.trim_end();
    if name.contains(char::is_whitespace) {
        return None;
    }
    name.split_once('/').or_else(|| name.split_once('.'))
}

fn is_header(text: &str) -> bool {
    text.trim_start().starts_with("Percentile")
}

fn columns(header: &str) -> Vec<Column> {
    header
        .split("  ")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .skip(1)
        .map(|name| match name {
            "Read Latency" => Column::ReadLatency,
            "Write Latency" => Column::WriteLatency,
            "SSTables" => Column::Sstables,
            "Partition Size" => Column::PartitionSize,
            "Cell Count" => Column::CellCount,
            _ => Column::Other,
        })
        .collect()
}

/// Reads one table's histograms; the cursor is at its title line.
pub(crate) fn parse(
    cursor: &mut Cursor<'_>,
    file: usize,
    node: &str,
    problems: &mut Vec<ParseProblem>,
) -> Option<TableHistogram> {
    let first = cursor.next_line()?;
    let (keyspace, table) = title(first.text)?;
    let mut h = TableHistogram {
        node: node.to_string(),
        keyspace: keyspace.to_string(),
        table: table.to_string(),
        rows: Vec::new(),
        origin: Origin {
            file,
            span: first.span(),
            line: first.no,
        },
    };
    let mut cols: Option<Vec<Column>> = None;
    let mut last = first;
    while let Some(line) = cursor.peek() {
        let text = line.text.trim();
        if node_header(line.text).is_some() || title(line.text).is_some() {
            break;
        }
        if text.is_empty() && cols.is_some() {
            // A blank line after the rows ends the table.
            cursor.advance();
            return Some(h);
        }
        match &cols {
            None if is_header(text) => cols = Some(columns(text)),
            // Notes nodetool prints before the header ("No SSTables exists, ...").
            None if text.is_empty() || text.starts_with("No SSTables") || is_comment(text) => {}
            None => break,
            // The units line, and provenance comments.
            Some(_) if text.starts_with('(') || is_comment(text) => {}
            Some(c) => match Percentile::parse(text.split_whitespace().next().unwrap_or("")) {
                Some(p) => {
                    if let Some(row) = read_row(c, text, line, file, problems) {
                        h.rows.push((p, row));
                    }
                }
                None => break,
            },
        }
        last = line;
        cursor.advance();
    }
    if h.rows.len() < 7 {
        problems.push(ParseProblem {
            file,
            line: last.no,
            span: last.span(),
            kind: ProblemKind::Truncated {
                format: FORMAT,
                what: format!(
                    "the histograms of {} ({} of 7 rows)",
                    h.qualified_name(),
                    h.rows.len()
                ),
            },
        });
    }
    Some(h)
}

fn read_row(
    cols: &[Column],
    text: &str,
    line: Line<'_>,
    file: usize,
    problems: &mut Vec<ParseProblem>,
) -> Option<HistogramRow> {
    let values: Vec<&str> = text.split_whitespace().skip(1).collect();
    if values.len() != cols.len() {
        problems.push(ParseProblem {
            file,
            line: line.no,
            span: line.span(),
            kind: ProblemKind::ColumnCount {
                expected: cols.len(),
                found: values.len(),
            },
        });
        return None;
    }
    let mut row = HistogramRow::default();
    for (col, value) in cols.iter().zip(values) {
        let Ok(v) = parse_value(value) else {
            problems.push(ParseProblem {
                file,
                line: line.no,
                span: line.span(),
                kind: ProblemKind::BadNumber {
                    label: format!("{col:?}"),
                    value: value.to_string(),
                },
            });
            return None;
        };
        match col {
            Column::ReadLatency => row.read_latency_us = v,
            Column::WriteLatency => row.write_latency_us = v,
            Column::Sstables => row.sstables = v,
            Column::PartitionSize => row.partition_bytes = v,
            Column::CellCount => row.cell_count = v,
            Column::Other => {}
        }
    }
    Some(row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_name_keyspace_and_table() {
        assert_eq!(title("iot/readings histograms"), Some(("iot", "readings")));
        assert_eq!(title("iot.readings histograms"), Some(("iot", "readings")));
        assert_eq!(title("proxy histograms"), None);
        assert_eq!(title("Keyspace: iot"), None);
    }

    #[test]
    fn header_order_is_read_not_assumed() {
        let new = columns(
            "Percentile      Read Latency     Write Latency          SSTables    Partition Size        Cell Count",
        );
        let old = columns(
            "Percentile  SSTables     Write Latency      Read Latency    Partition Size        Cell Count",
        );
        assert_eq!(new.first(), Some(&Column::ReadLatency));
        assert_eq!(old.first(), Some(&Column::Sstables));
        assert_eq!(old.get(2), Some(&Column::ReadLatency));
    }
}
