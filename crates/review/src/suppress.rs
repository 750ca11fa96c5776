//! Suppression comments: `-- cqlmodel: allow(rule-name, other-rule)` in the
//! comments right before a statement silences those rules on that statement.
//! A suppression that silences nothing is itself a finding (`unused-suppression`).

use cqlmodel_cql::Comment;
use cqlmodel_cql::ast::Span;

/// One `allow(...)` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppression {
    pub file: usize,
    /// The rule name as written.
    pub rule: String,
    /// Where the comment is (for the unused-suppression finding).
    pub span: Span,
    /// The start offset of the statement it applies to.
    pub statement_start: u32,
}

/// The suppressions of one parsed file.
pub fn suppressions(file: usize, comments: &[Comment], statements: &[Span]) -> Vec<Suppression> {
    let mut out = Vec::new();
    let mut previous_end = 0u32;
    // Both in source order: one pass over each.
    let mut next = 0usize;
    for stmt in statements {
        let start = next;
        while comments.get(next).is_some_and(|c| c.span.end <= stmt.start) {
            next += 1;
        }
        for c in comments
            .get(start..next)
            .unwrap_or_default()
            .iter()
            .filter(|c| c.span.start >= previous_end)
        {
            for rule in allowed_rules(&c.text) {
                out.push(Suppression {
                    file,
                    rule,
                    span: c.span,
                    statement_start: stmt.start,
                });
            }
        }
        previous_end = stmt.end;
    }
    out
}

/// The rule names of `cqlmodel: allow(a, b)` in a comment's text.
fn allowed_rules(text: &str) -> Vec<String> {
    let Some(pos) = text.find("cqlmodel:") else {
        return Vec::new();
    };
    let rest = text
        .get(pos + "cqlmodel:".len()..)
        .unwrap_or_default()
        .trim_start();
    let Some(args) = rest
        .strip_prefix("allow(")
        .and_then(|r| r.split_once(')'))
        .map(|(a, _)| a)
    else {
        return Vec::new();
    };
    args.split(',')
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::allowed_rules;

    #[test]
    fn reads_the_rule_list() {
        assert_eq!(
            allowed_rules(" cqlmodel: allow(allow-filtering, full-scan)"),
            vec!["allow-filtering", "full-scan"]
        );
        assert_eq!(
            allowed_rules(" reason first; cqlmodel: allow(hot-partition)"),
            vec!["hot-partition"]
        );
        assert!(allowed_rules(" cqlmodel allow(x)").is_empty());
        assert!(allowed_rules(" @name q1").is_empty());
    }
}
