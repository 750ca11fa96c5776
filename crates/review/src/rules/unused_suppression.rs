use crate::context::Context;
use crate::declare_rule;
use crate::finding::Findings;

declare_rule! {
    /// ## What it does
    /// Reports `-- cqlmodel: allow(rule)` comments that silence nothing: the rule
    /// does not fire on the statement, or the name is not a rule.
    ///
    /// ## Evidence
    /// The suppression comments and the findings of the run.
    ///
    /// ## Why is this bad?
    /// A stale suppression hides the next real finding on that statement, and an
    /// unknown name suppresses nothing while looking as if it did.
    ///
    /// ## Example
    /// ```cql
    /// -- cqlmodel: allow(allow-filtering)
    /// SELECT * FROM ks.users WHERE id = ?;
    /// ```
    ///
    /// ## Use instead
    /// Remove the comment, or fix the rule name.
    ///
    /// ## References
    /// - `cqlmodel rules` lists the rule names.
    pub static UNUSED_SUPPRESSION = {
        code: "CQL900",
        name: "unused-suppression",
        severity: Warning,
        summary: "A suppression comment that silences nothing",
        check: check,
    };
}

/// Reported by the engine after suppressions are applied (it needs every other
/// rule's findings); the check itself finds nothing.
fn check(_cx: &Context<'_>, _out: &mut Findings) {}
