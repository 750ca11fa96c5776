//! A type that holds a type the plan defines again (`site` with a field
//! `frozen<address>`, when `address` becomes `address_v2`) cannot keep pointing
//! at the old definition, and no statement changes a field's type: it is defined
//! again too (`site_v2` with `frozen<address_v2>`), and so on outwards. The
//! tables using any type on the path are rebuilt onto the new names.

use std::sync::Arc;

use cqlmodel_schema::Schema;
use cqlmodel_schema::types::UdtDef;

use crate::cql_text::{create_type, qualified};
use crate::model::{Change, ChangeKind, Item, ObjectKind, Phase, Verdict};
use crate::rebuild::next_name;
use crate::type_rebuild::{TypeRebuild, retype, uses_type};

/// Adds a rebuild for every NEW type that holds a rebuilt type (until none is
/// left), gives every rebuilt type's definition the new names of the types it
/// holds, and orders the type rebuilds so that a type is created after the types
/// it holds (and, as the drop phase runs in reverse, dropped before them).
pub fn close_over_nesting(
    old: &Schema,
    new: &Schema,
    changes: &mut Vec<Change>,
    rebuilds: &mut Vec<TypeRebuild>,
) {
    if rebuilds.is_empty() {
        return;
    }
    while let Some((t, inner)) = next_holder(old, new, rebuilds) {
        let object = qualified(&t.keyspace, &t.name);
        // A field added in place is part of the new definition anyway.
        changes.retain(|c| !(c.object_kind == ObjectKind::Type && c.object == object));
        let (change, rebuild) = holder_rebuild(old, new, &t, &rebuilds[inner]);
        changes.push(change);
        rebuilds.push(rebuild);
    }
    order_inner_first(rebuilds);
    for i in 0..rebuilds.len() {
        let fields = rebuilds[i]
            .def
            .fields
            .iter()
            .map(|(n, ty)| (n.clone(), retype(ty, &rebuilds[..i])))
            .collect();
        let def = Arc::new(UdtDef {
            keyspace: rebuilds[i].def.keyspace.clone(),
            name: rebuilds[i].def.name.clone(),
            fields,
        });
        rebuilds[i].def = def;
    }
    reorder_changes(changes, rebuilds);
    retype_created(new, changes, rebuilds);
}

/// A type only NEW has that holds a rebuilt type is created on the new names,
/// after the rebuilt types.
fn retype_created(new: &Schema, changes: &mut Vec<Change>, rebuilds: &[TypeRebuild]) {
    let mut moved = Vec::new();
    let mut i = 0;
    while i < changes.len() {
        let c = &changes[i];
        let def = (c.object_kind == ObjectKind::Type && c.kind == ChangeKind::Create)
            .then(|| c.object.split_once('.'))
            .flatten()
            .and_then(|(ks, t)| new.keyspace(ks)?.types.get(t).cloned());
        let holds_rebuilt = def.as_ref().is_some_and(|d| {
            rebuilds.iter().any(|r| {
                r.keyspace == d.keyspace
                    && d.fields
                        .iter()
                        .any(|(_, f)| uses_type(f, &r.keyspace, &r.name))
            })
        });
        match def {
            Some(d) if holds_rebuilt => {
                let mut c = changes.remove(i);
                let fields = d
                    .fields
                    .iter()
                    .map(|(n, ty)| (n.clone(), retype(ty, rebuilds)))
                    .collect();
                let def = UdtDef {
                    keyspace: d.keyspace.clone(),
                    name: d.name.clone(),
                    fields,
                };
                c.statements.clear();
                c.push(Phase::Create, create_type(&def));
                c.reason = format!(
                    "{}; it holds a type the plan defines again, and is created on the new name",
                    c.reason
                );
                moved.push(c);
            }
            _ => i += 1,
        }
    }
    changes.extend(moved);
}

/// The first NEW type (not rebuilt yet) that OLD has too and one of whose fields
/// holds a rebuilt type, with that type's index in `rebuilds`.
fn next_holder(
    old: &Schema,
    new: &Schema,
    rebuilds: &[TypeRebuild],
) -> Option<(Arc<UdtDef>, usize)> {
    for ks in new.keyspaces.values() {
        for t in ks.types.values() {
            let done = rebuilds
                .iter()
                .any(|r| r.keyspace == t.keyspace && r.name == t.name);
            let in_old = old
                .keyspace(&ks.name)
                .is_some_and(|k| k.types.contains_key(&t.name));
            if done || !in_old {
                continue;
            }
            let inner = rebuilds.iter().position(|r| {
                r.keyspace == t.keyspace
                    && t.fields
                        .iter()
                        .any(|(_, f)| uses_type(f, &r.keyspace, &r.name))
            });
            if let Some(i) = inner {
                return Some((t.clone(), i));
            }
        }
    }
    None
}

/// The change and the new definition of `t`, which holds `inner`.
fn holder_rebuild(
    old: &Schema,
    new: &Schema,
    t: &Arc<UdtDef>,
    inner: &TypeRebuild,
) -> (Change, TypeRebuild) {
    let ks = &t.keyspace;
    let taken = |n: &str| {
        [old, new]
            .iter()
            .any(|s| s.keyspace(ks).is_some_and(|k| k.types.contains_key(n)))
    };
    let plan_name = next_name(&t.name, &taken);
    let inner_old = qualified(ks, &inner.name);
    let inner_new = qualified(ks, inner.plan_name());
    let fields: Vec<&str> = t
        .fields
        .iter()
        .filter(|(_, f)| uses_type(f, ks, &inner.name))
        .map(|(n, _)| n.as_str())
        .collect();
    let why = format!(
        "field {} holds {inner_old}, which the plan defines again as {inner_new} ({})",
        fields.join(", "),
        inner.why
    );
    let name = qualified(ks, &t.name);
    let mut c = Change::new(
        name.clone(),
        ObjectKind::Type,
        ChangeKind::Rebuild,
        format!(
            "{why}: a field's type cannot change in place, so the plan defines {name} again as {} \
             and rebuilds every table that uses it onto it",
            qualified(ks, &plan_name)
        ),
    );
    for f in &fields {
        c.items.push(Item {
            subject: Some((*f).to_string()),
            what: format!(
                "field {f} holds {inner_old}: {} holds {inner_new} instead",
                qualified(ks, &plan_name)
            ),
            verdict: Verdict::Forbidden,
            attempted: inner.attempted.clone(),
            message: inner.message.clone(),
        });
    }
    c.warnings.push(format!(
        "NEW calls the type {name}, but {name} keeps its old definition until the tables using it \
         are gone: the plan creates {}. Rename it in NEW and in the application (drivers map user \
         types by name), so that NEW stays the truth",
        qualified(ks, &plan_name)
    ));
    let rebuild = TypeRebuild {
        keyspace: ks.clone(),
        name: t.name.clone(),
        def: Arc::new(UdtDef {
            keyspace: ks.clone(),
            name: plan_name,
            fields: t.fields.clone(),
        }),
        why,
        attempted: inner.attempted.clone(),
        message: inner.message.clone(),
    };
    (c, rebuild)
}

/// Whether rebuilt type `outer` holds rebuilt type `inner` (by their OLD/NEW name).
fn holds(outer: &TypeRebuild, inner: &TypeRebuild) -> bool {
    outer.keyspace == inner.keyspace
        && outer.name != inner.name
        && outer
            .def
            .fields
            .iter()
            .any(|(_, f)| uses_type(f, &inner.keyspace, &inner.name))
}

/// A stable topological order: each type after every rebuilt type it holds.
fn order_inner_first(rebuilds: &mut Vec<TypeRebuild>) {
    let mut rest = std::mem::take(rebuilds);
    while !rest.is_empty() {
        let ready = rest
            .iter()
            .position(|r| !rest.iter().any(|o| holds(r, o)))
            .unwrap_or(0); // a cycle cannot be declared in CQL; keep going regardless
        rebuilds.push(rest.remove(ready));
    }
}

/// Each rebuilt type's change with its statements on the final definition, the
/// type changes in the rebuilds' order, after the other type changes.
fn reorder_changes(changes: &mut Vec<Change>, rebuilds: &[TypeRebuild]) {
    let mut moved = Vec::new();
    for r in rebuilds {
        let object = qualified(&r.keyspace, &r.name);
        let Some(at) = changes
            .iter()
            .position(|c| c.object_kind == ObjectKind::Type && c.object == object)
        else {
            continue;
        };
        let mut c = changes.remove(at);
        c.statements.clear();
        c.push(Phase::Create, create_type(&r.def));
        c.push(Phase::Drop, format!("DROP TYPE IF EXISTS {object};"));
        moved.push(c);
    }
    changes.extend(moved);
}
