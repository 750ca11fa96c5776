//! `--rename ks.t.old=new`: the user says a regular column of OLD became a
//! column of another name in NEW. Cassandra renames only primary-key columns,
//! so the table is rebuilt with the rename as the row transformation, instead
//! of the drop + add (which loses every value of the old column) the schemas
//! say on their own.

use std::str::FromStr;

use cqlmodel_schema::Schema;
use serde::Serialize;

/// One declared rename of a regular column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ColumnRename {
    pub keyspace: String,
    pub table: String,
    pub from: String,
    pub to: String,
}

/// A `--rename` that is malformed or does not describe the two schemas.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenameError {
    #[error("--rename {0}: expected KEYSPACE.TABLE.OLD_COLUMN=NEW_COLUMN")]
    Shape(String),
    #[error("--rename {given}: {why}")]
    NotApplicable { given: String, why: String },
}

impl FromStr for ColumnRename {
    type Err = RenameError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let shape = || RenameError::Shape(s.to_string());
        let (path, to) = s.split_once('=').ok_or_else(shape)?;
        let parts: Vec<&str> = path.split('.').collect();
        let [keyspace, table, from] = parts.as_slice() else {
            return Err(shape());
        };
        let fields = [*keyspace, *table, *from, to];
        if fields
            .iter()
            .any(|f| f.is_empty() || f.contains(['.', '=']))
        {
            return Err(shape());
        }
        Ok(ColumnRename {
            keyspace: keyspace.to_string(),
            table: table.to_string(),
            from: from.to_string(),
            to: to.to_string(),
        })
    }
}

impl std::fmt::Display for ColumnRename {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}.{}.{}={}",
            self.keyspace, self.table, self.from, self.to
        )
    }
}

impl ColumnRename {
    /// Checks that the rename describes OLD and NEW: the table is in both, the
    /// old column is a regular column only OLD has, the new one only NEW has.
    pub fn check(&self, old: &Schema, new: &Schema) -> Result<(), RenameError> {
        let fail = |why: String| RenameError::NotApplicable {
            given: self.to_string(),
            why,
        };
        let name = format!("{}.{}", self.keyspace, self.table);
        let (Some(o), Some(n)) = (
            old.table(&self.keyspace, &self.table),
            new.table(&self.keyspace, &self.table),
        ) else {
            return Err(fail(format!("{name} is not a table of both OLD and NEW")));
        };
        match (o.column(&self.from), n.column(&self.from)) {
            (None, _) => return Err(fail(format!("OLD's {name} has no column {}", self.from))),
            (Some(c), _) if c.is_primary_key() => {
                return Err(fail(format!(
                    "{} is a primary-key column: Cassandra renames it in place, no flag needed",
                    self.from
                )));
            }
            (Some(_), Some(_)) => {
                return Err(fail(format!("NEW's {name} still has {}", self.from)));
            }
            _ => {}
        }
        match (o.column(&self.to), n.column(&self.to)) {
            (_, None) => Err(fail(format!("NEW's {name} has no column {}", self.to))),
            (Some(_), _) => Err(fail(format!("OLD's {name} already has {}", self.to))),
            (None, Some(c)) if c.is_primary_key() => Err(fail(format!(
                "{} is in NEW's primary key: a key change is a rebuild already",
                self.to
            ))),
            _ => Ok(()),
        }
    }
}

/// The declared renames of table `keyspace.table`, as `(from, to)`.
pub fn renames_of(renames: &[ColumnRename], keyspace: &str, table: &str) -> Vec<(String, String)> {
    renames
        .iter()
        .filter(|r| r.keyspace == keyspace && r.table == table)
        .map(|r| (r.from.clone(), r.to.clone()))
        .collect()
}
