//! What the application knows about a table that its schema cannot show,
//! given by the user: a TTL the code sets on every write, as `-- @ttl 30d` in
//! the comment right above the CREATE TABLE, or `[tables."ks.t"] ttl = "30d"`
//! in `cqlmodel.toml`.

use cqlmodel_diagnostics::SourceMap;
use cqlmodel_schema::Table;

use crate::config::{Config, parse_duration};

/// The TTL hint of `table` in seconds, and where it was given.
pub fn ttl_hint(config: &Config, sources: &SourceMap, table: &Table) -> Option<(u64, String)> {
    let name = table.qualified_name();
    if let Some(seconds) = config.table_ttls.get(&name) {
        return Some((*seconds, format!("cqlmodel.toml [tables.\"{name}\"] ttl")));
    }
    let text = &sources.get(table.origin.file)?.text;
    let before = text.get(..table.origin.span.start as usize)?;
    comment_block_above(before)
        .into_iter()
        .find_map(|line| {
            let rest = line.split("@ttl").nth(1)?;
            let value = rest.split_whitespace().next()?;
            parse_duration(value)
        })
        .map(|seconds| (seconds, "`-- @ttl` above the CREATE TABLE".to_string()))
}

/// The comment lines directly above the end of `before` (no blank line between).
fn comment_block_above(before: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = Vec::new();
    // Code before the statement on its own line: no comment block above it.
    // Checked from the end, since on a one-line file of 100,000 tables the
    // line before each statement is the whole file before it.
    let indent = before.trim_end_matches([' ', '\t', '\r']);
    if !indent.is_empty() && !indent.ends_with('\n') {
        return lines;
    }
    for line in before.lines().rev().skip_while(|l| l.trim().is_empty()) {
        let t = line.trim();
        if let Some(c) = t.strip_prefix("--").or_else(|| t.strip_prefix("//")) {
            lines.push(c);
        } else {
            break;
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::comment_block_above;

    #[test]
    fn reads_only_the_comments_right_above() {
        let text =
            "-- @ttl 1d\nCREATE TABLE a (k int PRIMARY KEY);\n\n-- audit rows\n-- @ttl 30d\n";
        assert_eq!(comment_block_above(text), vec![" @ttl 30d", " audit rows"]);
        assert!(comment_block_above("CREATE TABLE a (k int PRIMARY KEY);\n").is_empty());
        assert!(comment_block_above("-- @ttl 1d\nCREATE TABLE a (k int PRIMARY KEY); ").is_empty());
        assert_eq!(comment_block_above("-- @ttl 1d\n  \t"), vec![" @ttl 1d"]);
    }
}
