//! Reads the write paths make of tables no query reads: a cascade's lookup
//! of the children's keys, a key read before a write. They are part of the
//! workload, so queries.cql lists them (and the design's own review does not
//! call such a table "written, never read").

use std::collections::HashMap;

use cqlmodel_cql::keywords::quote_ident;

use crate::derive::{TableDesign, TableKind};
use crate::writes::WritePath;

/// One read a write path makes: its name, summed rate and CQL.
pub(super) struct WriteRead {
    pub name: String,
    pub rate: Option<f64>,
    pub cql: String,
}

/// For every table or view that serves no query but that a write path's
/// statement reads first (its structured `reads` name it), a read of one
/// partition by its key.
pub(super) fn write_path_reads(
    keyspace: &str,
    tables: &[TableDesign],
    paths: &[WritePath],
) -> Vec<WriteRead> {
    let readers = readers_by_table(paths);
    tables
        .iter()
        .filter(|t| t.queries.is_empty() && t.kind != TableKind::Counter)
        .filter_map(|t| read_of(keyspace, t, readers.get(t.name.as_str())?))
        .collect()
}

/// Each table's readers: the write paths with a statement that reads it first
/// while writing another table, in the paths' order, each path once. Built
/// once, so a design of n tables does not scan every path per table.
fn readers_by_table(paths: &[WritePath]) -> HashMap<&str, Vec<&WritePath>> {
    let mut readers: HashMap<&str, Vec<&WritePath>> = HashMap::new();
    for p in paths {
        for s in &p.statements {
            for read in s.tables_read().filter(|r| *r != s.table) {
                let list = readers.entry(read).or_default();
                if !list.last().is_some_and(|last| std::ptr::eq(*last, p)) {
                    list.push(p);
                }
            }
        }
    }
    readers
}

fn read_of(keyspace: &str, t: &TableDesign, readers: &[&WritePath]) -> Option<WriteRead> {
    let keys: Vec<String> = t
        .partition_key
        .iter()
        .filter_map(|p| t.column_for(p))
        .map(|c| format!("{} = ?", quote_ident(&c.name)))
        .collect();
    if keys.len() != t.partition_key.len() {
        return None;
    }
    let rates: Vec<f64> = readers.iter().filter_map(|p| p.rate).collect();
    Some(WriteRead {
        name: format!("{}_read_by_writes", t.name),
        rate: (!rates.is_empty()).then(|| rates.iter().sum()),
        cql: format!(
            "SELECT * FROM {}.{} WHERE {}",
            quote_ident(keyspace),
            quote_ident(&t.name),
            keys.join(" AND ")
        ),
    })
}
