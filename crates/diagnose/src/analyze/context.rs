//! What every check needs: the schema (when given), the limits, the data's
//! age, and how a finding on a table is built.

use cqlmodel_diagnostics::{Diagnostic, Severity};
use cqlmodel_schema::{Schema, Table};
use cqlmodel_stats::Thresholds;

use super::rules::DiagRule;
use super::view::TableView;

pub struct Context<'a> {
    pub schema: Option<&'a Schema>,
    pub thresholds: Thresholds,
    /// Seconds of data the tables hold (`--data-age`), to size time buckets.
    pub data_age: Option<u64>,
    pub empty: Schema,
    /// What `nodetool status` says of ownership, when it was given.
    pub ownership: Option<super::ownership::Ownership>,
}

impl<'a> Context<'a> {
    pub fn table(&self, view: &TableView<'_>) -> Option<&'a Table> {
        self.schema?.table(&view.keyspace, &view.table)
    }

    pub fn schema_or_empty(&self) -> &Schema {
        self.schema.unwrap_or(&self.empty)
    }

    /// A finding on `view`, pointing at the table's line in the first output that has it.
    pub fn finding(
        &self,
        rule: &DiagRule,
        severity: Severity,
        view: &TableView<'_>,
        message: String,
    ) -> Diagnostic {
        let mut d = Diagnostic::new(severity, rule.code, message)
            .with_name(rule.name)
            .with_table(view.qualified_name());
        if let Some(o) = view.origin() {
            d = d.with_file(o.file).with_primary(
                o.span.clone(),
                format!("{} measured here", view.qualified_name()),
            );
        }
        d
    }
}
