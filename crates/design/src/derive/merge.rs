//! Step 3: tables with the same key structure merged, and a query served by a
//! prefix of another table's key absorbed into it.

use std::collections::HashMap;

use super::{KeyPart, Role, TableDesign, TableKind, add_columns};
use crate::relational::Model;
use crate::select::ColRef;

/// Step 3: one table per key structure, and a query whose equalities cover
/// another table's partition key plus a clustering prefix is served by it.
///
/// Both passes look only at tables that can merge (same entity and key, or
/// same grain), found through a map: a 10,000-read design compares each
/// table with its few neighbours, not with every other table.
pub fn merge(tables: Vec<TableDesign>, model: &Model) -> Vec<TableDesign> {
    let out = same_key_structure(tables, model);
    absorb_served(out, model)
}

/// Tables of one entity and grain with the same key become one. A table
/// joins the first earlier one it matches, as a scan in input order would.
fn same_key_structure(tables: Vec<TableDesign>, model: &Model) -> Vec<TableDesign> {
    type Signature = (String, Vec<String>, Vec<KeyPart>, Vec<(KeyPart, bool)>);
    let mut out: Vec<TableDesign> = Vec::new();
    let mut by_signature: HashMap<Signature, Vec<usize>> = HashMap::new();
    for t in tables {
        let (partition_key, clustering) = t.key_signature();
        let signature = (t.entity.clone(), t.grain.clone(), partition_key, clustering);
        let bucket = by_signature.entry(signature).or_default();
        let same = bucket.iter().copied().find(|&o| {
            out.get(o).is_some_and(|o| {
                o.kind == t.kind && (t.name.is_empty() || o.name.is_empty() || o.name == t.name)
            })
        });
        match same.and_then(|o| out.get_mut(o)) {
            Some(same) => absorb(same, t, model, "has the same key structure"),
            None => {
                bucket.push(out.len());
                out.push(t);
            }
        }
    }
    out
}

/// A table whose query another table serves is absorbed into it: later
/// tables first, each into the earliest table that serves it.
///
/// One pass from the last table to the first gives what restarting the scan
/// after every absorb would: absorbing never makes a table serve one it did
/// not serve before (the host's key is unchanged, its name and ordered prefix
/// only grow, and both only narrow what `serves` accepts), so a table found
/// unserved stays unserved.
fn absorb_served(out: Vec<TableDesign>, model: &Model) -> Vec<TableDesign> {
    let mut slots: Vec<Option<TableDesign>> = out.into_iter().map(Some).collect();
    // Only tables of one grain can serve each other.
    let mut by_grain: HashMap<Vec<String>, Vec<usize>> = HashMap::new();
    for (i, t) in slots.iter().enumerate() {
        if let Some(t) = t
            && t.kind == TableKind::Table
        {
            by_grain.entry(t.grain.clone()).or_default().push(i);
        }
    }
    for i in (0..slots.len()).rev() {
        let Some(x) = slots.get(i).and_then(Option::as_ref) else {
            continue;
        };
        let Some(candidates) = by_grain.get(&x.grain) else {
            continue;
        };
        let host = candidates.iter().copied().find(|&j| {
            j != i
                && slots
                    .get(j)
                    .and_then(Option::as_ref)
                    .is_some_and(|h| serves(h, x))
        });
        let Some(j) = host else { continue };
        let Some(x) = slots.get_mut(i).and_then(Option::take) else {
            continue;
        };
        if let Some(h) = slots.get_mut(j).and_then(Option::as_mut) {
            let why = if same_key_and_rows(h, &x) {
                format!(
                    "has the same partition key, clustering columns and rows{}: one table serves both",
                    how_it_differs(h, &x)
                )
            } else {
                "is served by a prefix of its primary key".to_string()
            };
            absorb(h, x, model, &why);
        }
    }
    slots.into_iter().flatten().collect()
}

/// Two tables of one grain whose partition keys hold the same columns and
/// whose clustering holds the same columns are one table written twice: the
/// same partitions, the same rows in each.
fn same_key_and_rows(host: &TableDesign, x: &TableDesign) -> bool {
    host.grain == x.grain
        && sorted(host.partition_key.iter().collect()) == sorted(x.partition_key.iter().collect())
        && sorted(host.clustering.iter().map(|(p, _)| p).collect())
            == sorted(x.clustering.iter().map(|(p, _)| p).collect())
}

/// What sets two same-key tables apart, for the decision line.
fn how_it_differs(host: &TableDesign, x: &TableDesign) -> String {
    let mut differences: Vec<&str> = Vec::new();
    if host.partition_key != x.partition_key {
        differences.push("its partition key columns in another order");
    }
    let columns = |t: &TableDesign| {
        t.clustering
            .iter()
            .map(|(p, _)| p)
            .cloned()
            .collect::<Vec<_>>()
    };
    if columns(host) != columns(x) {
        differences.push("its clustering columns in another order");
    } else if host.clustering != x.clustering {
        differences.push("read in the other clustering direction");
    }
    if differences.is_empty() {
        String::new()
    } else {
        format!(" ({})", differences.join(", "))
    }
}

fn sorted(mut parts: Vec<&KeyPart>) -> Vec<&KeyPart> {
    parts.sort();
    parts
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
