//! What the producer of the CQL knows about its columns and the CQL cannot
//! say: which attribute of which entity a column holds. A user's CQL gives the
//! review only names and types (two `parent_id bigint` columns look the same);
//! a generator such as `cqlmodel design` knows that `t5_by_parent.parent_id`
//! is `t5.parent_id` and not `t0.parent_id`, and passes it here, typed (never
//! as text in the CQL).

use std::collections::HashMap;

/// One attribute of one entity (`users.email`), as the producer names them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Attribute {
    pub entity: String,
    pub name: String,
}

impl Attribute {
    pub fn new(entity: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            entity: entity.into(),
            name: name.into(),
        }
    }
}

/// The attribute each known column (`ks.t` and column name) holds. A column
/// that is not listed is unknown: rules treat it as they treat user CQL.
#[derive(Debug, Clone, Default)]
pub struct Provenance {
    by_column: HashMap<String, HashMap<String, Attribute>>,
}

impl Provenance {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records that `table` (`ks.t`) column `column` holds `attribute`.
    pub fn insert(&mut self, table: &str, column: &str, attribute: Attribute) {
        self.by_column
            .entry(table.to_string())
            .or_default()
            .insert(column.to_string(), attribute);
    }

    /// The attribute `table` (`ks.t`) column `column` holds, when known.
    pub fn attribute(&self, table: &str, column: &str) -> Option<&Attribute> {
        self.by_column.get(table)?.get(column)
    }

    pub fn is_empty(&self) -> bool {
        self.by_column.is_empty()
    }
}
