//! One table (or view) that both schemas have: every difference, and for each
//! whether a statement applies it in place or the table must be rebuilt.

mod columns;
mod delta;
mod options_indexes;
mod renames;

use cqlmodel_schema::{Column, ColumnKind, Table};

use crate::cql_text::{drop_index, qualified, quote};
use crate::model::{Item, Target, Verdict};
use crate::target::{self, Refusal};
pub use crate::type_rebuild::same_type;

use columns::diff_columns;
use delta::Cx;
pub use delta::{SuspectedRename, TableDiff};
use options_indexes::{diff_indexes, diff_options};
use renames::rename_warning;

fn key_text(cols: &[&Column]) -> String {
    let parts: Vec<String> = cols
        .iter()
        .map(|c| match c.kind {
            ColumnKind::Clustering(_, o) => format!("{} {} {}", c.name, c.ty, o.keyword()),
            _ => format!("{} {}", c.name, c.ty),
        })
        .collect();
    format!("({})", parts.join(", "))
}

/// Compares two tables (or two views) of the same name.
/// `old_views` are the views OLD defines on `old`.
/// `declared` are the user's renames of regular columns of this table (`--rename`).
pub fn diff_table(
    old: &Table,
    new: &Table,
    target: Target,
    old_views: &[&Table],
    declared: &[(String, String)],
) -> TableDiff {
    let mut d = TableDiff::default();
    let name = qualified(&old.keyspace, &old.name);
    let renames = diff_primary_key(&mut d, old, new, &name, target);
    let cx = Cx {
        old,
        new,
        name: &name,
        target,
        old_views,
        declared,
    };
    diff_columns(&mut d, &cx, &renames);
    diff_options(&mut d, old, new, &name);
    if !old.is_view() {
        diff_indexes(&mut d, old, new, &renames);
    }
    if old.options.compact_storage != new.options.compact_storage {
        d.refused(
            &old.name,
            "COMPACT STORAGE changes: Cassandra 5.0 disables DROP COMPACT STORAGE by default \
             (drop_compact_storage_enabled: false) and nothing adds it"
                .into(),
            Verdict::Forbidden,
            Some(Refusal {
                attempted: format!("ALTER TABLE {name} DROP COMPACT STORAGE;"),
                message: "DROP COMPACT STORAGE is disabled. Enable in cassandra.yaml to use."
                    .into(),
            }),
        );
    }
    let rebuild = !d.rebuild_reasons.is_empty();
    let warnings: Vec<String> = d
        .suspected_renames
        .iter()
        .map(|s| rename_warning(old, &name, s, rebuild))
        .collect();
    d.rename_warnings = warnings;
    d
}

/// The key changes in a way no statement expresses: the refusal items.
fn refuse_key_change(
    d: &mut TableDiff,
    table: &str,
    name: &str,
    (op, np): (&[&Column], &[&Column]),
    (oc, nc): (&[&Column], &[&Column]),
) {
    if key_text(op) != key_text(np) {
        d.refused(
            table,
            format!(
                "the partition key changes from {} to {}: no statement changes a primary key",
                key_text(op),
                key_text(np)
            ),
            Verdict::NoSyntax,
            None,
        );
    }
    if key_text(oc) != key_text(nc) {
        let orders: Vec<String> = nc
            .iter()
            .filter_map(|c| match c.kind {
                ColumnKind::Clustering(_, o) => Some(format!("{} {}", quote(&c.name), o.keyword())),
                _ => None,
            })
            .collect();
        d.refused(
            table,
            format!(
                "the clustering changes from {} to {}: no statement changes clustering columns or their order",
                key_text(oc),
                key_text(nc)
            ),
            Verdict::NoSyntax,
            Some(Refusal {
                attempted: format!(
                    "ALTER TABLE {name} WITH CLUSTERING ORDER BY ({});",
                    orders.join(", ")
                ),
                message: "a syntax error: in Cassandra's grammar ALTER TABLE … WITH takes \
                          `name = value` properties only, and CLUSTERING ORDER BY is not one"
                    .into(),
            }),
        );
    }
}

/// The key: same columns in the same places is no change; only names differing
/// are key-column renames (the one rename Cassandra allows); anything else is a rebuild.
/// Returns the renames `(old, new)`.
fn diff_primary_key(
    d: &mut TableDiff,
    old: &Table,
    new: &Table,
    name: &str,
    target: Target,
) -> Vec<(String, String)> {
    let (op, np): (Vec<&Column>, Vec<&Column>) =
        (old.partition_key().collect(), new.partition_key().collect());
    let (oc, nc): (Vec<&Column>, Vec<&Column>) =
        (old.clustering().collect(), new.clustering().collect());
    let mut renames = Vec::new();
    let mut retypes = Vec::new();
    let same_shape = op.len() == np.len()
        && oc.len() == nc.len()
        && op
            .iter()
            .chain(&oc)
            .zip(np.iter().chain(&nc))
            .all(|(a, b)| {
                let order_ok = match (a.kind, b.kind) {
                    (ColumnKind::Clustering(_, x), ColumnKind::Clustering(_, y)) => x == y,
                    _ => true,
                };
                let type_ok = same_type(&a.ty, &b.ty)
                    || target::alter_type(target, name, &b.name, a.kind, &a.ty, &b.ty).is_none();
                let rename_ok = a.name == b.name
                    || (old.column(&b.name).is_none() && new.column(&a.name).is_none());
                order_ok && type_ok && rename_ok
            });
    if !same_shape {
        refuse_key_change(d, &old.name, name, (&op, &np), (&oc, &nc));
        return renames;
    }
    for (a, b) in op.iter().chain(&oc).zip(np.iter().chain(&nc)) {
        if a.name != b.name {
            renames.push((a.name.clone(), b.name.clone()));
        }
        if !same_type(&a.ty, &b.ty) {
            retypes.push((b.name.clone(), b.ty.clone()));
        }
    }
    for (from, to) in &renames {
        let dependent: Vec<String> = old
            .indexes
            .iter()
            .filter(|i| i.column == *from)
            .map(|i| i.name.clone())
            .collect();
        if !dependent.is_empty() {
            let r = target::rename_indexed(name, from, to, dependent.clone());
            d.items.push(Item {
                subject: Some(from.clone()),
                what: format!(
                    "the rename needs its indexes out of the way: the plan drops {} first and recreates them on {to}",
                    dependent.join(", ")
                ),
                verdict: Verdict::InPlace,
                attempted: Some(r.attempted),
                message: Some(r.message),
            });
            for i in &dependent {
                d.create.push(drop_index(&old.keyspace, i));
            }
        }
        d.create.push(format!(
            "ALTER TABLE {name} RENAME {} TO {};",
            quote(from),
            quote(to)
        ));
        d.in_place(from, format!("primary-key column {from} renamed to {to}"));
    }
    for (col, ty) in retypes {
        d.create.push(format!(
            "ALTER TABLE {name} ALTER {} TYPE {ty};",
            quote(&col)
        ));
        d.in_place(
            &col,
            format!("key column {col} becomes {ty} (ScyllaDB accepts a compatible type)"),
        );
    }
    renames
}
