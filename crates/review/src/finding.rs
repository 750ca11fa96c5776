//! What a rule reports, before configuration and suppressions apply.
//!
//! A finding names its rule by [`RuleId`] (code, name, default severity), not
//! by the `Rule` itself: the rule module depends on this
//! one (a rule's check fills [`Findings`]), never the other way round.

use std::ops::Range;

use cqlmodel_diagnostics::{Fix, Severity};

/// What a finding needs to know of its rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleId {
    pub code: &'static str,
    pub name: &'static str,
    pub default_severity: Severity,
}

/// One finding of one rule.
#[derive(Debug, Clone)]
pub struct Finding {
    pub rule: RuleId,
    /// The finding's own severity when it differs from the rule's default
    /// (severity follows the risk: e.g. ALLOW FILTERING inside one partition is a
    /// warning, on a full key it is info). Configuration may still override.
    pub severity: Severity,
    pub message: String,
    /// The file and byte range the finding points at.
    pub file: Option<usize>,
    pub span: Option<Range<usize>>,
    pub label: String,
    /// `ks.t` the finding is about.
    pub table: Option<String>,
    /// The query's name (annotation or `Q<n>`).
    pub query: Option<String>,
    /// "Why" lines.
    pub notes: Vec<String>,
    pub help: Option<String>,
    pub fix: Option<Fix>,
    /// The statement a suppression comment must precede: (file, statement start offset).
    pub anchor: Option<(usize, u32)>,
}

/// The findings of one rule run; `new` starts a finding with the rule's defaults.
pub struct Findings {
    rule: RuleId,
    pub(crate) items: Vec<Finding>,
}

impl Findings {
    pub(crate) fn new(rule: RuleId) -> Self {
        Self {
            rule,
            items: Vec::new(),
        }
    }

    /// A finding of the running rule with its default severity.
    pub fn new_finding(&self, message: impl Into<String>) -> Finding {
        Finding {
            rule: self.rule,
            severity: self.rule.default_severity,
            message: message.into(),
            file: None,
            span: None,
            label: String::new(),
            table: None,
            query: None,
            notes: Vec::new(),
            help: None,
            fix: None,
            anchor: None,
        }
    }

    pub fn push(&mut self, finding: Finding) {
        self.items.push(finding);
    }
}

impl Finding {
    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// Points at `span` of `file`; the statement starting at `statement_start` anchors suppressions.
    pub fn at(
        mut self,
        file: usize,
        span: Range<usize>,
        statement_start: u32,
        label: impl Into<String>,
    ) -> Self {
        self.file = Some(file);
        self.span = Some(span);
        self.anchor = Some((file, statement_start));
        self.label = label.into();
        self
    }

    pub fn table(mut self, table: impl Into<String>) -> Self {
        self.table = Some(table.into());
        self
    }

    pub fn query(mut self, query: impl Into<String>) -> Self {
        self.query = Some(query.into());
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn fix(mut self, description: impl Into<String>, replacement: Option<String>) -> Self {
        let mut fix = Fix::new(description);
        if let Some(r) = replacement {
            fix = fix.with_replacement(r);
        }
        self.fix = Some(fix);
        self
    }
}
