//! Emitted CQL files, cut into the statements the node is sent one by one.

use crate::LiveError;

/// One statement of a script: its text exactly as written (without the `;`) and the
/// `-- @name` annotation that precedes it, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptStatement {
    pub text: String,
    pub name: Option<String>,
}

/// Splits `source` into its statements with cqlmodel's own parser, keeping each statement's
/// original text (so the node sees exactly what was emitted, not a reprint).
pub fn statements_of(source: &str) -> Result<Vec<ScriptStatement>, LiveError> {
    let parsed = cqlmodel_cql::parse(source);
    if let Some(error) = parsed.errors.first() {
        return Err(LiveError::Script {
            offset: error.span.start,
            message: error.to_string(),
        });
    }
    let mut out = Vec::with_capacity(parsed.statements.len());
    let mut comments = parsed.comments.iter().peekable();
    for statement in &parsed.statements {
        let mut name = None;
        while let Some(comment) = comments.next_if(|c| c.span.end <= statement.span.start) {
            if let Some(rest) = comment.text.trim().strip_prefix("@name ") {
                name = rest.split_whitespace().next().map(str::to_string);
            }
        }
        let range = statement.span.start as usize..statement.span.end as usize;
        let text = source.get(range).unwrap_or_default().trim_end_matches(';');
        out.push(ScriptStatement {
            text: text.trim().to_string(),
            name,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_text_and_the_name_annotation_of_each_statement() {
        let source = "-- @name first @rate 5/s\nSELECT a FROM ks.t WHERE k = ?;\n\n\
                      -- a plain comment\nINSERT INTO ks.t (k, a) VALUES (?, ?);\n";
        let statements = statements_of(source).expect("parses");
        assert_eq!(statements.len(), 2);
        assert_eq!(statements[0].text, "SELECT a FROM ks.t WHERE k = ?");
        assert_eq!(statements[0].name.as_deref(), Some("first"));
        assert_eq!(statements[1].text, "INSERT INTO ks.t (k, a) VALUES (?, ?)");
        assert_eq!(statements[1].name, None);
    }

    #[test]
    fn a_syntax_error_is_an_error_not_a_shorter_script() {
        let error = statements_of("SELECT FROM;").expect_err("does not parse");
        assert!(matches!(error, LiveError::Script { .. }), "{error}");
    }
}
