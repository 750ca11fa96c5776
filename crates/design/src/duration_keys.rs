//! Interval columns that queries use as keys. PostgreSQL's `interval` maps to
//! CQL's `duration`, which Cassandra refuses in a primary key; once the queries
//! are read, an interval column one of them filters, orders or groups by is
//! stored as ISO 8601 text instead, and a note says so.

use std::collections::HashSet;

use crate::error::Source;
use crate::input_notes::{InputNote, name_list};
use crate::querylist::{Body, QuerySpec};
use crate::relational::Model;

fn note(code: &'static str, at: (usize, usize), m: String) -> InputNote {
    InputNote::new(Source::Model, code, at, m)
}

/// An interval column a query binds, orders or groups by may become a key
/// column of a designed table: text there too, for the same reason.
pub fn durations_in_query_keys(model: &mut Model, specs: &[QuerySpec], notes: &mut Vec<InputNote>) {
    let mut used: HashSet<(String, String)> = HashSet::new();
    for q in specs {
        let Body::Select(sel) = &q.body else { continue };
        let refs = sel
            .equalities
            .iter()
            .map(|(c, _)| c)
            .chain(&sel.ranges)
            .chain(sel.order.iter().map(|(c, _)| c))
            .chain(&sel.group_by)
            .chain(&sel.any_of)
            .chain(sel.joins.iter().flat_map(|(a, b)| [a, b]))
            .chain(sel.keyset.iter().flat_map(|(cs, _)| cs));
        for c in refs {
            used.insert((c.entity.clone(), c.column.clone()));
        }
    }
    let mut moved = Vec::new();
    for e in &mut model.entities {
        for a in &mut e.attributes {
            if a.cql_type == "duration" && used.contains(&(e.name.clone(), a.name.clone())) {
                a.cql_type = "text".into();
                moved.push(format!("{}.{}", e.name, a.name));
            }
        }
    }
    if !moved.is_empty() {
        notes.push(note(
            "type-mapping",
            (1, 1),
            format!(
                "interval a query filters or orders by → text in ISO 8601 form, not duration: it may key a designed table and CQL refuses a duration in a primary key ({})",
                name_list(&moved)
            ),
        ));
    }
}
