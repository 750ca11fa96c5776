//! The diagnostic model: what went wrong, where, and what to do about it.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// How serious a diagnostic is. Ordered so that `Info < Warning < Error`, which
/// lets callers compare against a threshold (`--deny warning`) or take the maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    /// The lower-case name used in every output format and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A severity name that is none of `error`, `warning`, `info`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown severity `{found}`, expected one of: error, warning, info")]
pub struct ParseSeverityError {
    pub found: String,
}

impl FromStr for Severity {
    type Err = ParseSeverityError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "error" => Ok(Severity::Error),
            "warning" | "warn" => Ok(Severity::Warning),
            "info" => Ok(Severity::Info),
            _ => Err(ParseSeverityError {
                found: s.to_owned(),
            }),
        }
    }
}

/// A message attached to a byte range of a source file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Label {
    /// Byte offsets into the file's text. Out-of-range or mid-character offsets
    /// are tolerated: renderers clamp them (see [`crate::SourceFile::clamp_span`]).
    pub span: Range<usize>,
    pub message: String,
}

impl Label {
    pub fn new(span: Range<usize>, message: impl Into<String>) -> Self {
        Self {
            span,
            message: message.into(),
        }
    }
}

/// A suggested change. The replacement is free text (often a whole rewritten
/// statement), not a patch of the labelled span.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fix {
    pub description: String,
    pub replacement: Option<String>,
}

impl Fix {
    pub fn new(description: impl Into<String>) -> Self {
        Self {
            description: description.into(),
            replacement: None,
        }
    }

    pub fn with_replacement(mut self, replacement: impl Into<String>) -> Self {
        self.replacement = Some(replacement.into());
        self
    }
}

/// One problem found by a cqlmodel command.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Stable identifier, e.g. `CQL001` or `parse-error`.
    pub code: String,
    /// Kebab-case rule name, e.g. `allow-filtering`.
    pub name: Option<String>,
    pub severity: Severity,
    pub message: String,
    /// Index into the [`crate::SourceMap`]; `None` when the problem is not tied to a file.
    pub file: Option<usize>,
    pub primary: Option<Label>,
    pub secondary: Vec<Label>,
    /// "Why" lines.
    pub notes: Vec<String>,
    pub help: Option<String>,
    pub fix: Option<Fix>,
    /// Qualified table name (`ks.t`), for grouping.
    pub table: Option<String>,
    /// Name of the query the diagnostic is about.
    pub query: Option<String>,
}

impl Diagnostic {
    pub fn new(severity: Severity, code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            name: None,
            severity,
            message: message.into(),
            file: None,
            primary: None,
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
            fix: None,
            table: None,
            query: None,
        }
    }

    pub fn error(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message)
    }

    pub fn warning(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message)
    }

    pub fn info(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Severity::Info, code, message)
    }

    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub fn with_file(mut self, file: usize) -> Self {
        self.file = Some(file);
        self
    }

    pub fn with_primary(mut self, span: Range<usize>, message: impl Into<String>) -> Self {
        self.primary = Some(Label::new(span, message));
        self
    }

    pub fn with_secondary(mut self, span: Range<usize>, message: impl Into<String>) -> Self {
        self.secondary.push(Label::new(span, message));
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }

    pub fn with_table(mut self, table: impl Into<String>) -> Self {
        self.table = Some(table.into());
        self
    }

    pub fn with_query(mut self, query: impl Into<String>) -> Self {
        self.query = Some(query.into());
        self
    }
}

/// What a rule is, for listings and for SARIF's `tool.driver.rules`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RuleMeta {
    pub code: String,
    pub name: String,
    /// One line, shown as the rule's title.
    pub short: String,
    /// The full explanation.
    pub full: String,
    pub default_severity: Severity,
    pub help_uri: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severity_orders_info_below_warning_below_error() {
        assert!(Severity::Info < Severity::Warning);
        assert!(Severity::Warning < Severity::Error);
        let worst = [Severity::Warning, Severity::Error, Severity::Info]
            .into_iter()
            .max();
        assert_eq!(worst, Some(Severity::Error));
    }

    #[test]
    fn severity_display_serde_and_parse_agree() {
        for severity in [Severity::Info, Severity::Warning, Severity::Error] {
            let shown = severity.to_string();
            assert_eq!(
                serde_json::to_value(severity).ok(),
                Some(serde_json::Value::String(shown.clone()))
            );
            assert_eq!(shown.parse::<Severity>(), Ok(severity));
            assert_eq!(shown.to_uppercase().parse::<Severity>(), Ok(severity));
        }
        assert_eq!(
            "fatal".parse::<Severity>(),
            Err(ParseSeverityError {
                found: "fatal".into()
            })
        );
    }

    #[test]
    fn builder_fills_every_field() {
        let diag = Diagnostic::warning("CQL001", "uses ALLOW FILTERING")
            .with_name("allow-filtering")
            .with_file(2)
            .with_primary(3..9, "here")
            .with_secondary(0..2, "table")
            .with_note("scans every partition")
            .with_help("add an index")
            .with_fix(Fix::new("rewrite").with_replacement("SELECT 1"))
            .with_table("ks.t")
            .with_query("q1");
        assert_eq!(diag.severity, Severity::Warning);
        assert_eq!(diag.name.as_deref(), Some("allow-filtering"));
        assert_eq!(diag.file, Some(2));
        assert_eq!(diag.primary, Some(Label::new(3..9, "here")));
        assert_eq!(diag.secondary, vec![Label::new(0..2, "table")]);
        assert_eq!(diag.notes, vec!["scans every partition".to_owned()]);
        assert_eq!(diag.help.as_deref(), Some("add an index"));
        assert_eq!(
            diag.fix.and_then(|f| f.replacement).as_deref(),
            Some("SELECT 1")
        );
        assert_eq!(diag.table.as_deref(), Some("ks.t"));
        assert_eq!(diag.query.as_deref(), Some("q1"));
    }
}
