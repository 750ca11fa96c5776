//! Query annotations: `-- @name feed_page @rate 2000/s @cl LOCAL_QUORUM` in the
//! comments right before a statement (after the previous one ended).

use cqlmodel_cql::Comment;
use cqlmodel_cql::ast::Span;

/// The annotations of one statement, as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Annotations {
    /// `(key, value)` pairs in order; a bare `@key` has an empty value.
    pub pairs: Vec<(String, String)>,
}

impl Annotations {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    pub fn name(&self) -> Option<&str> {
        self.get("name").filter(|n| !n.is_empty())
    }
}

/// Annotations for each statement span, from the comments between the previous
/// statement's end and this statement's start.
pub fn annotations_for(comments: &[Comment], statements: &[Span]) -> Vec<Annotations> {
    let mut out = Vec::with_capacity(statements.len());
    let mut previous_end = 0u32;
    // Comments and statements are both in source order: one pass over each,
    // so 100,000 annotated statements stay linear.
    let mut next = 0usize;
    for span in statements {
        let mut ann = Annotations::default();
        while let Some(c) = comments.get(next) {
            if c.span.end > span.start {
                break;
            }
            if c.span.start >= previous_end {
                parse_into(&c.text, &mut ann);
            }
            next += 1;
        }
        previous_end = span.end;
        out.push(ann);
    }
    out
}

/// The annotations in `comments`, all of them the comments of one statement
/// (as `cqlmodel_cql::parse_each_commented` hands them out).
pub fn annotations_of(comments: &[Comment]) -> Annotations {
    let mut ann = Annotations::default();
    for c in comments {
        parse_into(&c.text, &mut ann);
    }
    ann
}

fn parse_into(text: &str, ann: &mut Annotations) {
    let mut words = text.split_whitespace().peekable();
    while let Some(word) = words.next() {
        let Some(key) = word.strip_prefix('@') else {
            continue;
        };
        if key.is_empty() {
            continue;
        }
        let mut value = Vec::new();
        while let Some(next) = words.peek() {
            if next.starts_with('@') {
                break;
            }
            value.push(*next);
            words.next();
        }
        ann.pairs.push((key.to_ascii_lowercase(), value.join(" ")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comment(text: &str, start: u32, end: u32) -> Comment {
        Comment {
            text: text.to_string(),
            span: Span { start, end },
        }
    }

    #[test]
    fn reads_keys_and_values_of_the_comments_before_each_statement() {
        let comments = vec![
            comment(" @name feed_page @rate 2000/s @cl LOCAL_QUORUM", 0, 40),
            comment(" plain words, then @name second", 60, 90),
        ];
        let statements = [
            Span { start: 41, end: 55 },
            Span {
                start: 91,
                end: 120,
            },
        ];
        let anns = annotations_for(&comments, &statements);
        assert_eq!(anns[0].name(), Some("feed_page"));
        assert_eq!(anns[0].get("rate"), Some("2000/s"));
        assert_eq!(anns[0].get("cl"), Some("LOCAL_QUORUM"));
        assert_eq!(anns[1].name(), Some("second"));
        assert_eq!(anns[1].get("rate"), None);
    }

    #[test]
    fn a_comment_after_a_statement_does_not_annotate_it() {
        let comments = vec![comment(" @name late", 30, 40)];
        let anns = annotations_for(&comments, &[Span { start: 0, end: 20 }]);
        assert_eq!(anns[0].name(), None);
    }
}
