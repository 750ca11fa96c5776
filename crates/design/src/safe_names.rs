//! Names and text from the input, made safe for where the design puts them.
//! A PostgreSQL identifier may hold any character (`"../../../pwned"`,
//! `"Order Items"`, a newline); the design's outputs each accept less:
//!
//! - a file name under `diagrams/`: no separator, no `..`, no control
//!   character, unique even on a case-insensitive file system;
//! - a Cassandra table name: letters, digits and `_` (`SchemaConstants`);
//! - a `-- @name` annotation: one word that ends the comment at the newline;
//! - Markdown in report.md: no table cell broken by `|`, no code span or
//!   fence closed early by backticks.
//!
//! CQL identifiers are quoted where they are written, with
//! `cqlmodel_cql::keywords::quote_ident`.

use std::collections::HashSet;

/// Cassandra's limit on table names (`SchemaConstants.NAME_LENGTH`): a
/// leaf constant, so that the query list's `@table` check and the naming
/// stage read it without importing each other.
pub const MAX_NAME: usize = 48;

/// `name` with every character outside `[A-Za-z0-9_]` replaced by `_`, as
/// Cassandra requires of table names (`"Order Items"` → `Order_Items`).
pub fn table_name_chars(name: &str) -> String {
    let word = word_chars(name);
    if word.is_empty() { "t".into() } else { word }
}

/// One word for a `-- @name` annotation, from an entity or query name.
pub fn annotation_word(name: &str) -> String {
    table_name_chars(name)
}

fn word_chars(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Windows device names, which no file may take whatever its extension.
const DEVICE_NAMES: &[&str] = &[
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// The longest stem kept whole: file systems allow 255 bytes per name.
const MAX_STEM: usize = 100;

/// A file stem for each name, in order: only `[A-Za-z0-9_-]`, at most 100
/// characters, never a device name or one of `reserved`, and distinct from
/// every other stem when compared without case (`_2`, `_3`, … are appended).
pub fn unique_file_stems(names: &[&str], reserved: &[&str]) -> Vec<String> {
    let mut taken: HashSet<String> = reserved.iter().map(|r| r.to_ascii_lowercase()).collect();
    names
        .iter()
        .map(|name| {
            let mut stem: String = name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .take(MAX_STEM)
                .collect();
            if stem.is_empty() || DEVICE_NAMES.contains(&stem.to_ascii_lowercase().as_str()) {
                stem.push('_');
            }
            let mut candidate = stem.clone();
            let mut n = 2;
            while !taken.insert(candidate.to_ascii_lowercase()) {
                candidate = format!("{stem}_{n}");
                n += 1;
            }
            candidate
        })
        .collect()
}

/// Text for a Markdown paragraph or table cell: control characters as
/// `\u{..}`, and the characters that would start markup or end a cell escaped.
pub fn md_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        // An underscore between two letters or digits never starts emphasis
        // (CommonMark), so `user_by_id` stays readable in the raw Markdown.
        let inside_word = |at: Option<&char>| at.is_some_and(|x| x.is_alphanumeric());
        if c == '_' && i > 0 && inside_word(chars.get(i - 1)) && inside_word(chars.get(i + 1)) {
            out.push(c);
            continue;
        }
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '!' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out
}

/// A line of generated prose that may quote input names (a decision, a note,
/// a warning): its markup is kept, its control characters are escaped so a
/// name holding a newline cannot end the list item or start a heading.
pub fn md_line(text: &str) -> String {
    // Into one buffer: a string per character made the report's prose (every
    // finding of the self-review) cost an allocation per byte.
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` as an inline code span: delimited by more backticks than it holds in
/// a row, control characters and `|` escaped (a span does not end a table cell's
/// `|` in every renderer).
pub fn md_code(text: &str) -> String {
    let mut clean = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            c if c.is_control() => clean.extend(c.escape_unicode()),
            '|' => clean.push_str("\\|"),
            c => clean.push(c),
        }
    }
    let ticks = "`".repeat(longest_run(&clean, '`') + 1);
    let pad = if clean.starts_with('`') || clean.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{clean}{pad}{ticks}")
}

/// The fence for a code block holding `text`: longer than any run of backticks
/// in it, at least three.
pub fn md_fence(text: &str) -> String {
    "`".repeat(longest_run(text, '`').max(2) + 1)
}

fn longest_run(text: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for x in text.chars() {
        run = if x == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_names_lose_separators_and_stay_distinct() {
        let stems = unique_file_stems(
            &[
                "../../../pwned",
                "a/b",
                "a.b",
                "A_B",
                "con",
                "",
                "flow",
                "é",
            ],
            &["flow"],
        );
        let expected = [
            "_________pwned",
            "a_b",
            "a_b_2",
            "A_B_3",
            "con_",
            "_",
            "flow_2",
            "__2",
        ];
        assert_eq!(stems, expected);
        for s in &stems {
            assert!(!s.contains('/') && !s.contains('.') && !s.is_empty(), "{s}");
        }
    }

    #[test]
    fn table_names_keep_only_cassandra_characters() {
        assert_eq!(table_name_chars("Order Items"), "Order_Items");
        assert_eq!(table_name_chars("../x\n"), "___x_");
        assert_eq!(table_name_chars(""), "t");
    }

    #[test]
    fn markdown_escapes_markup_and_controls() {
        assert_eq!(md_text("a|b *c*\u{1b}[31m"), "a\\|b \\*c\\*\\u{1b}\\[31m");
        assert_eq!(md_code("x"), "`x`");
        assert_eq!(md_code("a`b"), "``a`b``");
        assert_eq!(md_code("`a"), "`` `a ``");
        assert_eq!(md_fence("SELECT '```'"), "````");
        assert_eq!(md_fence("SELECT 1"), "```");
    }
}
