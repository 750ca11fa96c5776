//! Keyspaces and user-defined types: created, altered, dropped.

use std::sync::Arc;

use cqlmodel_schema::types::UdtDef;
use cqlmodel_schema::{Keyspace, Schema, SchemaErrorKind};

use crate::cql_text::{alter_keyspace, create_keyspace, create_type, qualified, quote};
use crate::model::{Change, ChangeKind, Item, ObjectKind, Phase, Verdict};
use crate::rebuild::next_name;
use crate::type_rebuild::{TypeRebuild, same_type, uses_type};

pub fn keyspace_changes(old: &Schema, new: &Schema) -> Vec<Change> {
    let mut out = Vec::new();
    for ks in new.keyspaces.values() {
        match old.keyspace(&ks.name) {
            None => {
                let mut c = Change::new(
                    ks.name.clone(),
                    ObjectKind::Keyspace,
                    ChangeKind::Create,
                    "a keyspace only NEW has".into(),
                );
                c.push(Phase::Create, create_keyspace(ks));
                out.push(c);
            }
            Some(o) if o.replication != ks.replication || o.durable_writes != ks.durable_writes => {
                out.push(alter(o, ks));
            }
            Some(_) => {}
        }
    }
    for ks in old.keyspaces.values() {
        if new.keyspace(&ks.name).is_none() {
            let tables: Vec<&str> = ks.tables.keys().map(String::as_str).collect();
            let mut c = Change::new(
                ks.name.clone(),
                ObjectKind::Keyspace,
                ChangeKind::Drop,
                format!(
                    "NEW has no keyspace {}: dropping it deletes its {} table(s) ({}) and their data",
                    ks.name,
                    tables.len(),
                    tables.join(", ")
                ),
            );
            c.flagged = true;
            c.warnings.push(format!(
                "data loss: confirm keyspace {} is really retired; snapshot it first (nodetool snapshot -t before-drop {})",
                ks.name, ks.name
            ));
            c.push(
                Phase::Drop,
                format!("DROP KEYSPACE IF EXISTS {};", quote(&ks.name)),
            );
            out.push(c);
        }
    }
    out
}

fn alter(o: &Keyspace, ks: &Keyspace) -> Change {
    let mut c = Change::new(
        ks.name.clone(),
        ObjectKind::Keyspace,
        ChangeKind::Alter,
        "replication or durable_writes differ".into(),
    );
    let old_rf = o.replication.min_replication_factor();
    let new_rf = ks.replication.min_replication_factor();
    c.items.push(Item {
        subject: None,
        what: format!(
            "replication {} → {}",
            crate::cql_text::replication(&o.replication),
            crate::cql_text::replication(&ks.replication)
        ),
        verdict: Verdict::InPlace,
        attempted: None,
        message: None,
    });
    if new_rf > old_rf {
        c.warnings.push(
            "a higher replication factor gives new replicas no data: run `nodetool repair -full` \
             on the keyspace (every node) before reading at a consistency level that needs them"
                .into(),
        );
    }
    if new_rf < old_rf {
        c.warnings.push(
            "a lower replication factor leaves the extra copies on disk: `nodetool cleanup` on every node reclaims them"
                .into(),
        );
    }
    c.push(Phase::Create, alter_keyspace(ks));
    c
}

/// The types' changes, and the types the plan defines again under a new name
/// (a field changes type or goes away): the tables using them are rebuilt.
pub fn type_changes(old: &Schema, new: &Schema) -> (Vec<Change>, Vec<TypeRebuild>) {
    let mut out = Vec::new();
    let mut rebuilds = Vec::new();
    for ks in new.keyspaces.values() {
        for t in ks.types.values() {
            let old_t = old.keyspace(&ks.name).and_then(|k| k.types.get(&t.name));
            match old_t {
                None => {
                    let mut c = Change::new(
                        qualified(&t.keyspace, &t.name),
                        ObjectKind::Type,
                        ChangeKind::Create,
                        "a type only NEW has".into(),
                    );
                    c.push(Phase::Create, create_type(t));
                    out.push(c);
                }
                Some(o) if !same_fields(o, t) => {
                    let mut c = alter_type(o, t);
                    if c.kind == ChangeKind::Rebuild
                        && let Some(r) = rebuild_type(&mut c, old, new, t)
                    {
                        rebuilds.push(r);
                    }
                    out.push(c);
                }
                Some(_) => {}
            }
        }
    }
    for ks in old.keyspaces.values() {
        if new.keyspace(&ks.name).is_none() {
            continue; // the keyspace drop takes its types
        }
        for t in ks.types.values() {
            if new
                .keyspace(&ks.name)
                .is_some_and(|k| !k.types.contains_key(&t.name))
            {
                let mut c = Change::new(
                    qualified(&t.keyspace, &t.name),
                    ObjectKind::Type,
                    ChangeKind::Drop,
                    "NEW no longer defines it (it runs after the tables that use it are gone)"
                        .into(),
                );
                c.push(
                    Phase::Drop,
                    format!("DROP TYPE IF EXISTS {};", qualified(&t.keyspace, &t.name)),
                );
                out.push(c);
            }
        }
    }
    crate::nested_types::close_over_nesting(old, new, &mut out, &mut rebuilds);
    (out, rebuilds)
}

/// Fields compared as written: a type whose nested type gains a field is unchanged.
fn same_fields(a: &UdtDef, b: &UdtDef) -> bool {
    a.fields.len() == b.fields.len()
        && a.fields
            .iter()
            .zip(&b.fields)
            .all(|((an, at), (bn, bt))| an == bn && same_type(at, bt))
}

/// Fields may be appended (ADD) or renamed in place (RENAME); nothing else.
fn alter_type(old: &Arc<UdtDef>, new: &Arc<UdtDef>) -> Change {
    let name = qualified(&new.keyspace, &new.name);
    let mut c = Change::new(
        name.clone(),
        ObjectKind::Type,
        ChangeKind::Alter,
        "fields added or renamed".into(),
    );
    let mut renames = Vec::new();
    for (i, (fname, fty)) in old.fields.iter().enumerate() {
        match new.fields.get(i) {
            Some((n, t)) if n == fname && same_type(t, fty) => {}
            Some((n, t)) if same_type(t, fty) && !old.fields.iter().any(|(o, _)| o == n) => {
                renames.push(format!("{} TO {}", quote(fname), quote(n)));
                c.items.push(item(
                    fname,
                    format!("field {fname} renamed to {n}"),
                    Verdict::InPlace,
                    None,
                ));
            }
            Some((n, t)) if n == fname => {
                c.items.push(item(
                    fname,
                    format!("field {fname} changes type from {fty} to {t}"),
                    Verdict::Forbidden,
                    Some((
                        format!("ALTER TYPE {name} ALTER {} TYPE {t};", quote(fname)),
                        SchemaErrorKind::AlterFieldType.to_string(),
                    )),
                ));
            }
            _ => {
                c.items.push(item(
                    fname,
                    format!("field {fname} removed or moved: a type's fields can only be appended or renamed"),
                    Verdict::NoSyntax,
                    None,
                ));
            }
        }
    }
    if !renames.is_empty() {
        c.push(
            Phase::Create,
            format!("ALTER TYPE {name} RENAME {};", renames.join(" AND ")),
        );
    }
    for (n, t) in new.fields.iter().skip(old.fields.len()) {
        c.push(
            Phase::Create,
            format!("ALTER TYPE {name} ADD {} {t};", quote(n)),
        );
        c.items.push(item(
            n,
            format!("add field {n} {t}: existing values read it as null"),
            Verdict::InPlace,
            None,
        ));
    }
    if c.items.iter().any(|i| i.verdict != Verdict::InPlace) {
        c.flagged = true;
        c.kind = ChangeKind::Rebuild;
        c.reason = "a field changes type or goes away: no statement does that; define a new type \
                    and rebuild every table that uses this one (cqlmodel does not plan that rebuild)"
            .into();
    }
    c
}

/// The type is defined again under a new name, and the tables using it move
/// onto it (their rebuilds are planned with the tables). The types holding it
/// are defined again too (`nested_types`).
fn rebuild_type(
    c: &mut Change,
    old: &Schema,
    new: &Schema,
    t: &Arc<UdtDef>,
) -> Option<TypeRebuild> {
    let ks = &t.keyspace;
    let taken = |n: &str| {
        [old, new]
            .iter()
            .any(|s| s.keyspace(ks).is_some_and(|k| k.types.contains_key(n)))
    };
    let plan_name = next_name(&t.name, &taken);
    let def = Arc::new(UdtDef {
        keyspace: ks.clone(),
        name: plan_name.clone(),
        fields: t.fields.clone(),
    });
    let users: Vec<String> = old
        .keyspace(ks)
        .into_iter()
        .flat_map(|k| k.tables.values())
        .filter(|x| !x.is_view() && x.columns.iter().any(|col| uses_type(&col.ty, ks, &t.name)))
        .map(|x| x.name.clone())
        .collect();
    let refused = c.items.iter().find(|i| i.verdict != Verdict::InPlace);
    let why: Vec<&str> = c
        .items
        .iter()
        .filter(|i| i.verdict != Verdict::InPlace)
        .map(|i| i.what.as_str())
        .collect();
    let rebuild = TypeRebuild {
        keyspace: ks.clone(),
        name: t.name.clone(),
        def: def.clone(),
        why: why.join("; "),
        attempted: refused.and_then(|i| i.attempted.clone()),
        message: refused.and_then(|i| i.message.clone()),
    };
    let name = qualified(ks, &t.name);
    c.flagged = false;
    c.reason = format!(
        "{}: no statement does that, so the plan defines the type again as {} and rebuilds every \
         table that uses {name} onto it ({})",
        rebuild.why,
        qualified(ks, &plan_name),
        if users.is_empty() {
            "none does in OLD".to_string()
        } else {
            users.join(", ")
        }
    );
    c.statements.clear();
    c.push(Phase::Create, create_type(&def));
    c.push(Phase::Drop, format!("DROP TYPE IF EXISTS {name};"));
    c.warnings.push(format!(
        "NEW calls the type {name}, but {name} keeps its old fields until the tables using it are gone: \
         the plan creates {}. Rename it in NEW and in the application (drivers map user types by name), \
         so that NEW stays the truth",
        qualified(ks, &plan_name)
    ));
    Some(rebuild)
}

fn item(subject: &str, what: String, verdict: Verdict, refusal: Option<(String, String)>) -> Item {
    let (attempted, message) = match refusal {
        Some((a, m)) => (Some(a), Some(m)),
        None => (None, None),
    };
    Item {
        subject: Some(subject.to_string()),
        what,
        verdict,
        attempted,
        message,
    }
}
