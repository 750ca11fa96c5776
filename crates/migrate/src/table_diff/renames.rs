//! Renames of regular columns: the ones the user declares (`--rename`) and
//! the ones a dropped and an added column of one type suggest.

use cqlmodel_schema::{Column, Table};

use super::delta::{Cx, SuspectedRename, TableDiff};
use crate::cql_text::quote;
use crate::model::{Item, Verdict};
use crate::target;
use crate::type_rebuild::same_type;

/// Every dropped column that shares its type with an added one may be a rename
/// (whatever else changes on the table): as written, its values are lost. Each
/// becomes a `Manual` item (the change needs a decision) naming the candidates.
pub(super) fn suspect_renames(
    d: &mut TableDiff,
    cx: &Cx<'_>,
    added: &[&Column],
    dropped: &[&Column],
) {
    for a in dropped {
        let candidates: Vec<&str> = added
            .iter()
            .filter(|b| same_type(&a.ty, &b.ty) && a.is_static() == b.is_static())
            .map(|b| b.name.as_str())
            .collect();
        let Some(first) = candidates.first() else {
            continue;
        };
        let r = target::rename_regular(cx.target, cx.name, &a.name, first);
        let added_text = match candidates.as_slice() {
            [one] => format!("{one} is added"),
            many => format!("{} are added", many.join(", ")),
        };
        d.items.push(Item {
            subject: Some(a.name.clone()),
            what: format!(
                "{} {} is dropped and {added_text} with the same type: a rename would be refused; \
                 planned as written unless declared (--rename)",
                a.name, a.ty
            ),
            verdict: Verdict::Manual,
            attempted: Some(r.attempted.clone()),
            message: Some(r.message.clone()),
        });
        d.suspected_renames.push(SuspectedRename {
            from: a.name.clone(),
            candidates: candidates.iter().map(|c| c.to_string()).collect(),
            ty: a.ty.to_string(),
            message: r.message,
        });
    }
}

/// The warning of a suspected rename, once the table's fate is known: an
/// ALTER plan can copy the values in place; a rebuild copies them when declared.
pub(super) fn rename_warning(
    table: &Table,
    name: &str,
    s: &SuspectedRename,
    rebuild: bool,
) -> String {
    let first = s.candidates.first().map(String::as_str).unwrap_or_default();
    let into = match s.candidates.as_slice() {
        [one] => one.clone(),
        many => format!("one of {}", many.join(", ")),
    };
    let declare = format!(
        "Or declare the rename (`--rename {name}.{}={first}`, naming the right column): the table is then rebuilt with {} copied into it.",
        s.from, s.from
    );
    if rebuild {
        return format!(
            "{} dropped and {into} added with the same type ({}): if this is a rename, Cassandra refuses it \
             (`{}`), and the rebuild as written does not copy {}: its values go with the old table. \
             Declare the rename (`--rename {name}.{}={first}`, naming the right column) and the backfill and \
             the dual writes copy {} into it.",
            s.from, s.ty, s.message, s.from, s.from, s.from
        );
    }
    format!(
        "{} dropped and {into} added with the same type ({}): if this is a rename, Cassandra refuses it \
         (`{}`), and the plan as written loses every value of {}. To keep them: after phase 1, \
         write both columns from the application, copy the old values in place keeping their write time \
         and TTL, switch reads to the new column, and only then run phase 7:\n{}\n{declare}",
        s.from,
        s.ty,
        s.message,
        s.from,
        copy_in_place(table, name, &s.from, first),
    )
}

/// The renames the user declared: Cassandra refuses them in place, so each is
/// a rebuild whose backfill copies the old column into the new one (instead of
/// a drop that loses its values). Removed from `added` and `dropped`.
pub(super) fn declared_renames(
    d: &mut TableDiff,
    cx: &Cx<'_>,
    added: &mut Vec<&Column>,
    dropped: &mut Vec<&Column>,
) {
    for (from, to) in cx.declared {
        let (Some(a), Some(b)) = (
            dropped.iter().position(|c| c.name == *from),
            added.iter().position(|c| c.name == *to),
        ) else {
            continue;
        };
        let (old_col, new_col) = (dropped.remove(a), added.remove(b));
        let converted = if same_type(&old_col.ty, &new_col.ty) {
            String::new()
        } else {
            format!(
                ", its values converted from {} to {}",
                old_col.ty, new_col.ty
            )
        };
        let r = target::rename_regular(cx.target, cx.name, from, to);
        d.refused(
            from,
            format!(
                "regular column {from} renamed to {to} (--rename){converted}: {} renames only \
                 primary-key columns; the rebuild copies each value of {from} into {to} with its \
                 write time and TTL",
                cx.target.name()
            ),
            Verdict::Forbidden,
            Some(r),
        );
    }
}

/// DSBulk commands that copy one column into another of the same table, each
/// value with its write time and remaining TTL (a newer write to the new column wins).
fn copy_in_place(table: &Table, name: &str, from: &str, to: &str) -> String {
    let keys: Vec<String> = table
        .columns
        .iter()
        .filter(|c| c.is_primary_key())
        .map(|c| quote(&c.name))
        .collect();
    let (f, t) = (quote(from), quote(to));
    let key_eq: Vec<String> = keys.iter().map(|k| format!("{k} = :{k}")).collect();
    format!(
        "dsbulk unload -h localhost -url unload/{name}.{from} -query \"SELECT {}, {f}, writetime({f}) AS wt, ttl({f}) AS ttl FROM {name}\"\n\
         dsbulk load -h localhost -url unload/{name}.{from} -query \"UPDATE {name} USING TIMESTAMP :wt AND TTL :ttl SET {t} = :{from} WHERE {}\"",
        keys.join(", "),
        key_eq.join(" AND ")
    )
}
