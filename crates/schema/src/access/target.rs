//! Finding the table a statement names, with Cassandra's messages.

use cqlmodel_cql::ast::QualifiedName;

use super::{Analyzer, QueryError};
use crate::model::Table;

impl<'a> Analyzer<'a> {
    /// The table named by `name` (`Schema.validateTable`).
    pub fn table(&self, name: &QualifiedName) -> Result<&'a Table, QueryError> {
        let ks = match (&name.keyspace, self.keyspace) {
            (Some(k), _) => k.value.as_str(),
            (None, Some(k)) => k,
            (None, None) => {
                return Err(self.error(
                    "No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename",
                    name.span,
                ));
            }
        };
        let Some(keyspace) = self.schema.keyspaces.get(ks) else {
            return Err(self.error(format!("keyspace {ks} does not exist"), name.span));
        };
        keyspace.tables.get(&name.name.value).ok_or_else(|| {
            self.error(
                format!("table {} does not exist", name.name.value),
                name.span,
            )
        })
    }
}
