//! The designed tables indexed by the entities they name, so that a stage
//! asking "which tables can hold `e`?" for every entity looks at a few
//! tables, not at all of them (a 10,000-table design made such scans
//! quadratic).

use std::collections::{HashMap, HashSet};

use crate::derive::{KeyPart, TableDesign};

/// For each entity, the indexes (ascending) of the tables that name it in a
/// column, a key part or a join equivalence class: every table that
/// `column_of`, `rows_by_primary_key` or a key-by-id test can match for one
/// of its attributes is among them. Also the set of table names in use.
#[derive(Debug, Default)]
pub struct TablesByEntity {
    by_entity: HashMap<String, Vec<usize>>,
    names: HashSet<String>,
}

impl TablesByEntity {
    pub fn new(tables: &[TableDesign]) -> Self {
        let mut index = Self::default();
        for (i, t) in tables.iter().enumerate() {
            index.add(i, t);
        }
        index
    }

    /// The tables that can hold an attribute of `entity`, in design order.
    pub fn naming(&self, entity: &str) -> &[usize] {
        self.by_entity.get(entity).map_or(&[], Vec::as_slice)
    }

    /// True when a table has this name.
    pub fn has_name(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// Records table `i` after it was added or given columns (an index never
    /// drops: a table only gains columns and names here).
    pub fn add(&mut self, i: usize, t: &TableDesign) {
        self.names.insert(t.name.clone());
        for entity in named_entities(t) {
            let ids = self.by_entity.entry(entity.to_string()).or_default();
            if let Err(at) = ids.binary_search(&i) {
                ids.insert(at, i);
            }
        }
    }
}

/// Every entity a table names: in its columns, its key parts and its
/// equivalence classes.
fn named_entities(t: &TableDesign) -> impl Iterator<Item = &str> {
    let parts = t
        .columns
        .iter()
        .map(|c| &c.part)
        .chain(&t.partition_key)
        .chain(t.clustering.iter().map(|(p, _)| p));
    let in_parts = parts.filter_map(|p| match p {
        KeyPart::Attr(a) | KeyPart::Bucket(a, _) | KeyPart::Sum(a) => Some(a.entity.as_str()),
        _ => None,
    });
    let in_classes = t.classes.iter().flatten().map(|a| a.entity.as_str());
    in_parts.chain(in_classes)
}
