//! Step 3: tables with the same key structure merged, and a query served by a
//! prefix of another table's key absorbed into it.

use super::{KeyPart, Role, TableDesign, TableKind, add_columns};
use crate::relational::Model;
use crate::select::ColRef;

/// Step 3: one table per key structure, and a query whose equalities cover
/// another table's partition key plus a clustering prefix is served by it.
pub fn merge(mut tables: Vec<TableDesign>, model: &Model) -> Vec<TableDesign> {
    let mut out: Vec<TableDesign> = Vec::new();
    for t in tables.drain(..) {
        // The cheap comparisons first: this runs for every pair of candidates,
        // and key_signature() clones both keys.
        if let Some(same) = out.iter_mut().find(|o| {
            o.entity == t.entity
                && o.grain == t.grain
                && o.kind == t.kind
                && (t.name.is_empty() || o.name.is_empty() || o.name == t.name)
                && o.key_signature() == t.key_signature()
        }) {
            absorb(same, t, model, "has the same key structure");
        } else {
            out.push(t);
        }
    }
    // Later tables are absorbed into earlier ones first: the query listed
    // first keeps its table's clustering order, a later one reads it reversed.
    loop {
        let pair = (0..out.len()).rev().find_map(|i| {
            let x = out.get(i)?;
            (0..out.len())
                .filter(|&j| j != i)
                .find(|&j| out.get(j).is_some_and(|h| serves(h, x)))
                .map(|j| (i, j))
        });
        let Some((i, j)) = pair else { break };
        let x = out.remove(i);
        let j = if j > i { j - 1 } else { j };
        if let Some(h) = out.get_mut(j) {
            absorb(h, x, model, "is served by a prefix of its primary key");
        }
    }
    out
}

/// True when `host` answers `x`'s query: same rows (grain), host's partition
/// key within x's, x's other equality attributes a clustering prefix of host's,
/// then x's ordered clustering columns next in host's clustering (either
/// direction: a reversed read), and x's uniqueness columns anywhere in host's key.
fn serves(host: &TableDesign, x: &TableDesign) -> bool {
    // Two queries the user named different tables (`@table`) keep them.
    if !host.name.is_empty() && !x.name.is_empty() && host.name != x.name {
        return false;
    }
    if host.grain != x.grain
        || host.kind != TableKind::Table
        || x.kind != TableKind::Table
        || !host
            .partition_key
            .iter()
            .all(|p| x.partition_key.contains(p))
    {
        return false;
    }
    let mut extra: Vec<&KeyPart> = x
        .partition_key
        .iter()
        .filter(|p| !host.partition_key.contains(p))
        .collect();
    let host_ck: Vec<&KeyPart> = host.clustering.iter().map(|(p, _)| p).collect();
    let Some(prefix) = host_ck.get(..extra.len()) else {
        return false;
    };
    let mut prefix = prefix.to_vec();
    extra.sort();
    prefix.sort();
    if extra != prefix {
        return false;
    }
    let ordered: Vec<&KeyPart> = x
        .clustering
        .iter()
        .take(x.ordered)
        .map(|(p, _)| p)
        .collect();
    let next = host_ck.iter().skip(extra.len()).take(ordered.len());
    if !next.eq(ordered.iter()) {
        return false;
    }
    // A reversed read flips every clustering column: x's directions must all
    // match host's or all be opposite.
    let dirs: Vec<bool> = x
        .clustering
        .iter()
        .take(x.ordered)
        .zip(host.clustering.iter().skip(extra.len()))
        .map(|((_, a), (_, b))| a == b)
        .collect();
    if dirs.iter().any(|d| *d) && dirs.iter().any(|d| !*d) {
        return false;
    }
    let host_key: Vec<&KeyPart> = host
        .partition_key
        .iter()
        .chain(host_ck.iter().copied())
        .collect();
    x.clustering
        .iter()
        .skip(x.ordered)
        .all(|(p, _)| host_key.contains(&p))
}

fn absorb(host: &mut TableDesign, x: TableDesign, model: &Model, why: &str) {
    // The merged table must keep serving the most ordered of its queries: a
    // later merge may not reverse columns one of them orders by.
    host.ordered = host.ordered.max(x.ordered);
    for q in &x.queries {
        if !host.queries.contains(q) {
            host.queries.push(q.clone());
        }
    }
    host.decisions.push(format!(
        "{} merged here: its table {why}",
        x.queries.join(", ")
    ));
    for class in x.classes {
        if !host.classes.contains(&class) {
            host.classes.push(class);
        }
    }
    let wanted: Vec<ColRef> = x
        .columns
        .iter()
        .filter_map(|c| match &c.part {
            KeyPart::Attr(a) => Some(a.clone()),
            _ => None,
        })
        .collect();
    let by_partition: Vec<ColRef> = host
        .columns
        .iter()
        .filter(|c| c.role == Role::Static)
        .filter_map(|c| match &c.part {
            KeyPart::Attr(a) => Some(a.clone()),
            _ => None,
        })
        .collect();
    if host.name.is_empty() {
        host.name = x.name;
    }
    add_columns(model, host, &wanted, &by_partition);
}
