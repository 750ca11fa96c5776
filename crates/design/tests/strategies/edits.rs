//! Random edits of an input file: delete, insert or replace a range, swap two
//! tokens, duplicate or drop a line. Positions are fractions of the text, so one
//! edit applies to any text; inserted text comes from SQL, TOML and annotation
//! fragments or is arbitrary.

use proptest::prelude::*;

#[derive(Debug, Clone)]
pub enum Edit {
    Delete { at: u16, len: u8 },
    Insert { at: u16, text: String },
    Replace { at: u16, len: u8, text: String },
    SwapTokens { a: u16, b: u16 },
    DuplicateLine { at: u16 },
    DeleteLine { at: u16 },
}

/// Pieces that steer the parsers into their less common paths.
const FRAGMENTS: &[&str] = &[
    "(",
    ")",
    ",",
    ";",
    "'",
    "\"",
    "$1",
    "$$",
    "$tag$",
    "--",
    "/*",
    "*/",
    "\\",
    "\n",
    "\t",
    "\r\n",
    "=",
    "<",
    ">=",
    "<>",
    "[",
    "]",
    "{",
    "}",
    ".",
    "*",
    "@name",
    "@name x",
    "@rate",
    "@rate 1/s",
    "@rate -1/s",
    "@rate 1e400/s",
    "@page 0",
    "@page 5",
    "@page 99999999999999999999",
    "@cl",
    "@cl LOCAL_ONE",
    "@cl BOGUS",
    "@table",
    "@table x-y",
    "@table t",
    "@path",
    "@path admin",
    "SELECT",
    "FROM",
    "WHERE",
    "JOIN",
    "LEFT JOIN",
    "CROSS JOIN",
    "ON",
    "AND",
    "OR",
    "NOT",
    "IN",
    "IN ()",
    "BETWEEN",
    "LIKE",
    "IS NULL",
    "ORDER BY",
    "GROUP BY",
    "HAVING",
    "LIMIT",
    "LIMIT 0",
    "OFFSET 5",
    "UNION",
    "WITH x AS (SELECT 1)",
    "count(*)",
    "sum(x)",
    "max(",
    "now()",
    "(SELECT 1)",
    "EXISTS",
    "INSERT INTO",
    "VALUES",
    "UPDATE",
    "SET",
    "DELETE FROM",
    "RETURNING",
    "CREATE TABLE",
    "DROP TABLE",
    "ALTER TABLE ONLY",
    "ADD CONSTRAINT",
    "PRIMARY KEY",
    "PRIMARY KEY ()",
    "FOREIGN KEY",
    "REFERENCES",
    "UNIQUE",
    "CHECK",
    "CREATE TYPE",
    "AS ENUM",
    "CREATE INDEX",
    "text[]",
    "integer",
    "tsvector",
    "point",
    "public.",
    "\"Quoted\"",
    "NOT NULL",
    "DEFAULT",
    "[table.",
    "[query.",
    "[thresholds]",
    "rows = ",
    "rows = 0",
    "rows_per_second = ",
    "retention = ",
    "\"1y\"",
    "\"0s\"",
    "distinct = ",
    "distinct = 0",
    "distribution = \"zipf(1.1)\"",
    "distribution = \"zipf(0)\"",
    "bucket = \"day\"",
    "span = \"24h\"",
    "avg_size = ",
    "max_size = 1",
    "1e309",
    "-1",
    "0",
    "18446744073709551616",
    "NaN",
    "inf",
    "true",
    "é",
    "🦀",
    "\u{0}",
    "\u{feff}",
    "\u{2028}",
];

fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(FRAGMENTS).prop_map(str::to_string),
        1 => "\\PC{0,8}",
        1 => "[\\x00-\\x7f]{0,6}",
    ]
}

pub fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<u16>(), any::<u8>()).prop_map(|(at, len)| Edit::Delete { at, len: len % 40 }),
        (any::<u16>(), fragment()).prop_map(|(at, text)| Edit::Insert { at, text }),
        (any::<u16>(), any::<u8>(), fragment()).prop_map(|(at, len, text)| Edit::Replace {
            at,
            len: len % 12,
            text
        }),
        (any::<u16>(), any::<u16>()).prop_map(|(a, b)| Edit::SwapTokens { a, b }),
        any::<u16>().prop_map(|at| Edit::DuplicateLine { at }),
        any::<u16>().prop_map(|at| Edit::DeleteLine { at }),
    ]
}

pub fn edits() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec(edit(), 1..4)
}

/// The index `fraction` of the way into `0..=n`.
fn place(fraction: u16, n: usize) -> usize {
    (usize::from(fraction) * (n + 1)) / 65_536
}

pub fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        match e {
            Edit::Delete { at, len } => {
                let start = place(*at, chars.len());
                let end = (start + usize::from(*len)).min(chars.len());
                chars.drain(start..end);
            }
            Edit::Insert { at, text } => {
                let start = place(*at, chars.len());
                chars.splice(start..start, text.chars());
            }
            Edit::Replace { at, len, text } => {
                let start = place(*at, chars.len());
                let end = (start + usize::from(*len)).min(chars.len());
                chars.splice(start..end, text.chars());
            }
            Edit::SwapTokens { a, b } => {
                let tokens = token_ranges(&chars);
                if tokens.len() >= 2 {
                    let i = place(*a, tokens.len() - 1);
                    let j = place(*b, tokens.len() - 1);
                    let (x, y) = (tokens[i.min(j)].clone(), tokens[i.max(j)].clone());
                    let first: Vec<char> = chars[x.clone()].to_vec();
                    let second: Vec<char> = chars[y.clone()].to_vec();
                    // The later range first, so the earlier one's indices stay valid.
                    chars.splice(y, first);
                    chars.splice(x, second);
                }
            }
            Edit::DuplicateLine { at } | Edit::DeleteLine { at } => {
                let lines = line_ranges(&chars);
                let i = place(*at, lines.len().saturating_sub(1));
                if let Some(r) = lines.get(i).cloned() {
                    if matches!(e, Edit::DuplicateLine { .. }) {
                        let copy: Vec<char> = chars[r.clone()].to_vec();
                        chars.splice(r.start..r.start, copy);
                    } else {
                        chars.drain(r);
                    }
                }
            }
        }
    }
    chars.into_iter().collect()
}

fn token_ranges(chars: &[char]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in chars.iter().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push(s..i);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(s..chars.len());
    }
    out
}

/// Each line with its `\n`.
fn line_ranges(chars: &[char]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in chars.iter().enumerate() {
        if *c == '\n' {
            out.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < chars.len() {
        out.push(start..chars.len());
    }
    out
}
