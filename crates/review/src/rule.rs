//! What a rule is: a stable code and kebab-case name, a default severity, its
//! documentation (the doc comment of its declaration), and a check.

use cqlmodel_diagnostics::Severity;

use crate::context::Context;
use crate::finding::{Findings, RuleId};

/// A review rule. Declared with [`declare_rule!`] so that its doc comment is its
/// documentation page (`cqlmodel rules NAME`, `docs/rules/NAME.md`).
pub struct Rule {
    /// Stable code, e.g. `CQL001`. Never reused.
    pub code: &'static str,
    /// Kebab-case name of the pattern, e.g. `allow-filtering`.
    pub name: &'static str,
    pub default_severity: Severity,
    /// One line: what the rule finds.
    pub summary: &'static str,
    /// Markdown, in fixed sections: What it does / Why is this bad? / Example /
    /// Use instead / References.
    pub doc: &'static str,
    pub check: fn(&Context<'_>, &mut Findings),
}

impl Rule {
    /// The identity its findings carry.
    pub fn id(&self) -> RuleId {
        RuleId {
            code: self.code,
            name: self.name,
            default_severity: self.default_severity,
        }
    }
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.name, self.code)
    }
}

/// Declares a rule; the doc comment becomes `Rule::doc`.
///
/// ```ignore
/// declare_rule! {
///     /// ## What it does
///     /// ...
///     pub static ALLOW_FILTERING = {
///         code: "CQL001",
///         name: "allow-filtering",
///         severity: Warning,
///         summary: "A query uses ALLOW FILTERING",
///         check: check,
///     };
/// }
/// ```
#[macro_export]
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        pub static $ident:ident = {
            code: $code:literal,
            name: $name:literal,
            severity: $severity:ident,
            summary: $summary:literal,
            check: $check:path $(,)?
        };
    ) => {
        pub static $ident: $crate::rule::Rule = $crate::rule::Rule {
            code: $code,
            name: $name,
            default_severity: cqlmodel_diagnostics::Severity::$severity,
            summary: $summary,
            doc: concat!($($doc, "\n"),*),
            check: $check,
        };
    };
}
