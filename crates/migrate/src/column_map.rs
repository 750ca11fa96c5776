//! Where each column of a rebuilt table gets its values from in the old one:
//! the vocabulary the dual writes, the backfill jobs and the reverse mapping
//! (`today`) share, so none of them needs the rebuild itself.

use serde::Serialize;

/// Where a column of the new table gets its values from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ColumnSource {
    /// The old column of the same name and type.
    Same,
    /// The old column of the same name, another type: each value is converted.
    Converted { from_type: String },
    /// Computed from an old column: `expr` is CQL (e.g. `todate(ts)`).
    Derived { from: String, expr: String },
    /// The old column `from`, renamed (`--rename`): each value is copied as is.
    Renamed { from: String },
    /// No old column gives it: the application (and the backfill) must compute it.
    Unknown,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ColumnMap {
    pub column: String,
    pub ty: String,
    pub key: bool,
    pub source: ColumnSource,
}

impl ColumnMap {
    /// The CQL expression giving this column from a row of the old table, when one does.
    pub fn expr(&self) -> Option<String> {
        match &self.source {
            ColumnSource::Same | ColumnSource::Converted { .. } => Some(self.column.clone()),
            ColumnSource::Derived { expr, .. } => Some(expr.clone()),
            ColumnSource::Renamed { from } => Some(crate::cql_text::quote(from)),
            ColumnSource::Unknown => None,
        }
    }

    /// The old column it is read from, when one.
    pub fn from(&self) -> Option<&str> {
        match &self.source {
            ColumnSource::Same | ColumnSource::Converted { .. } => Some(&self.column),
            ColumnSource::Derived { from, .. } | ColumnSource::Renamed { from } => Some(from),
            ColumnSource::Unknown => None,
        }
    }
}
