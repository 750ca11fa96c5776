//! What a plan is made from: the two schemas, the target, the application's
//! statements, the statistics and the declared renames.

use cqlmodel_schema::{Origin, Schema};
use cqlmodel_stats::Stats;

use crate::dual_write::AppStatement;
use crate::target::Target;

/// The text a schema object was defined by (views are re-created from it).
pub type SourceText<'a> = &'a dyn Fn(&Origin) -> Option<String>;

pub struct MigrateInput<'a> {
    pub old: &'a Schema,
    pub new: &'a Schema,
    pub target: Target,
    /// The application's statements (on OLD's tables).
    pub queries: &'a [AppStatement],
    pub stats: Option<&'a Stats>,
    pub source: SourceText<'a>,
    /// Regular columns the user says were renamed (`--rename`, checked against
    /// both schemas): rebuilds that copy the old column into the new one.
    pub renames: &'a [crate::rename::ColumnRename],
}
