//! From the statements of a dump to entities: domains replaced by their base
//! types, partitions folded into their parent, inheriting tables given their
//! parent's columns and key, key-less tables given a key, and every constraint
//! checked against the columns it names. Each of these choices is noted; a
//! constraint that cannot be applied is an error that leaves out only itself.

use std::collections::{BTreeMap, HashMap, HashSet};

use sqlparser::ast::{ColumnOption, ColumnOptionDef, CreateTable};

use crate::error::{DesignError, DesignErrorKind, Source};
use crate::input_notes::{InputNote, name_list};
use crate::pgdump::{Gathered, identity_option, named_type};
use crate::pgtypes::{cql_type, mapping_note};
use crate::relational::computed_option;
use crate::relational::{Attribute, Entity, Model, add_constraint, entity, object_name};

/// The shaped model.
pub(crate) struct Shape {
    pub model: Model,
    pub notes: Vec<InputNote>,
    pub errors: Vec<DesignError>,
}

/// The column a key-less table is keyed by when no unique set of non-null
/// columns identifies its rows.
pub const GENERATED_KEY: &str = "row_id";

fn note(code: &'static str, at: (usize, usize), m: String) -> InputNote {
    InputNote::new(Source::Model, code, at, m)
}

fn model_error(kind: DesignErrorKind, at: (usize, usize), m: String) -> DesignError {
    DesignError::new(kind, Source::Model, at, m)
}

pub(crate) fn shape(g: Gathered) -> Shape {
    let mut s = Shape {
        model: Model::default(),
        notes: Vec::new(),
        errors: Vec::new(),
    };
    for (reason, (count, at)) in &g.skipped {
        s.notes.push(note(
            "skipped",
            *at,
            format!("skipped {count} statement(s) with no modeling meaning: {reason}"),
        ));
    }
    let children: HashMap<&str, &str> = g
        .partitions
        .iter()
        .map(|(parent, child, _)| (child.as_str(), parent.as_str()))
        .collect();
    let mut type_notes: BTreeMap<String, (Vec<String>, (usize, usize))> = BTreeMap::new();
    let mut inherits = Vec::new();
    for (ct, at) in &g.tables {
        let name = object_name(&ct.name);
        if children.contains_key(name.as_str()) {
            continue;
        }
        if crate::pgskip::BOOKKEEPING.contains(&name.as_str()) {
            s.notes.push(note(
                "skipped",
                *at,
                format!("table `{name}` is migration bookkeeping (Rails/Django): not modeled"),
            ));
            continue;
        }
        let ct = resolve_types(ct, &g, *at, &mut s, &mut type_notes);
        let Ok(e) = entity(&ct, at.0, &g.enums, &g.case_insensitive_collations) else {
            continue;
        };
        if let Some(parents) = &ct.inherits {
            inherits.push((
                name.clone(),
                parents.iter().map(object_name).collect::<Vec<_>>(),
                *at,
            ));
        }
        if let Some(by) = &ct.partition_by {
            let parts: Vec<String> = g
                .partitions
                .iter()
                .filter(|(p, _, _)| *p == name)
                .map(|(_, c, _)| c.clone())
                .collect();
            s.notes.push(note(
                "partition",
                *at,
                format!(
                    "`{name}` is partitioned by {by} into {} partition(s) ({}): one entity; Cassandra spreads rows by the partition keys of the designed tables",
                    parts.len(),
                    name_list(&parts)
                ),
            ));
        }
        generated_columns(&ct, *at, &mut s);
        crate::pgchecks::of_table(&ct, &mut s.model.check_sizes);
        s.model.entities.push(e);
    }
    for (why, (columns, at)) in type_notes {
        s.notes.push(note(
            "type-mapping",
            at,
            format!("{why} ({})", name_list(&columns)),
        ));
    }
    // Looked up by name once per constraint, default and identity below.
    s.model.index_entities();
    apply_constraints(&mut s, &g, &children);
    apply_defaults_and_unique_indexes(&mut s, &g);
    inherit(&mut s, &inherits);
    identities(&mut s, &g);
    s.model.enum_sizes = g
        .enum_sizes
        .iter()
        .map(|(name, n)| (name.to_ascii_lowercase(), *n))
        .collect();
    validate(&mut s);
    keyless(&mut s);
    no_duration_in_keys(&mut s);
    s
}

/// Domains become their base type (and their NOT NULL), composite types a JSON
/// text, unknown types an error and a blob; each mapping that changes
/// something is noted once per kind.
fn resolve_types(
    ct: &CreateTable,
    g: &Gathered,
    at: (usize, usize),
    s: &mut Shape,
    type_notes: &mut BTreeMap<String, (Vec<String>, (usize, usize))>,
) -> CreateTable {
    let mut ct = ct.clone();
    let table = object_name(&ct.name);
    for col in &mut ct.columns {
        let column = crate::relational::unquote(&col.name.to_string());
        let written = col.data_type.to_string();
        let base_name = written.to_ascii_lowercase();
        let base_name = base_name.trim_end_matches("[]");
        let base_name = base_name.rsplit('.').next().unwrap_or(base_name);
        let base_name = crate::relational::unquote(base_name);
        let mut add = |why: String| {
            type_notes
                .entry(why)
                .or_insert_with(|| (Vec::new(), at))
                .0
                .push(format!("{table}.{column}"));
        };
        if let Some(d) = g.domains.get(&base_name) {
            let array = if written.ends_with("[]") { "[]" } else { "" };
            if let Some(n) = crate::pgtypes::listed_values(&d.checks)
                && array.is_empty()
            {
                s.model
                    .domain_sizes
                    .insert((table.clone(), column.clone()), (base_name.to_string(), n));
            }
            col.data_type = named_type(&format!("{}{array}", d.base));
            if d.not_null {
                col.options.push(ColumnOptionDef {
                    name: None,
                    option: ColumnOption::NotNull,
                });
            }
            let checks = if d.checks.is_empty() {
                String::new()
            } else {
                format!(
                    "; its {} are the application's to enforce",
                    d.checks.join(", ")
                )
            };
            add(format!(
                "domain `{base_name}` → its base type `{}`{}{checks}",
                d.base,
                if d.not_null { " NOT NULL" } else { "" }
            ));
        } else if g.composites.contains(&base_name) {
            col.data_type = named_type("jsonb");
            add(format!(
                "composite type `{base_name}` → text holding its fields as JSON (a frozen UDT would keep them typed)"
            ));
        }
        let pg = col.data_type.to_string();
        if cql_type(&pg, &g.enums).is_none() {
            s.errors.push(model_error(
                DesignErrorKind::Unsupported,
                at,
                format!(
                    "column `{table}.{column}` has type `{pg}`, which has no CQL counterpart in the type table: kept as blob; map it by hand (docs/design.md, Inputs)"
                ),
            ));
            col.data_type = named_type("bytea");
        } else if let Some(why) = mapping_note(&pg) {
            add(why.to_string());
        }
        for o in &col.options {
            if let ColumnOption::Collation(c) = &o.option {
                add(format!(
                    "collation `{}` → none: CQL compares bytes; a case- or accent-insensitive collation means the application stores and looks up a normalized value",
                    object_name(c)
                ));
            }
        }
    }
    ct
}

/// Stored and virtual generated columns: PostgreSQL computes them, Cassandra
/// does not; the application writes them.
fn generated_columns(ct: &CreateTable, at: (usize, usize), s: &mut Shape) {
    for col in &ct.columns {
        for o in &col.options {
            if let Some((expr, is_virtual)) = computed_option(&o.option) {
                s.notes.push(note(
                    "generated-column",
                    at,
                    format!(
                        "`{}.{}` is a {} generated column ({expr}): Cassandra computes nothing, the application writes the value with the row",
                        object_name(&ct.name),
                        crate::relational::unquote(&col.name.to_string()),
                        if is_virtual { "virtual" } else { "stored" }
                    ),
                ));
            }
        }
    }
}

/// Entity positions by name, the first of a name winning as a scan finds it:
/// one lookup per default, unique index or inheritance, not a scan of every
/// table. Entities are neither added nor renamed while it is in use.
fn positions(model: &Model) -> HashMap<String, usize> {
    let mut index = HashMap::with_capacity(model.entities.len());
    for (i, e) in model.entities.iter().enumerate() {
        index.entry(e.name.clone()).or_insert(i);
    }
    index
}

fn entity_mut<'m>(
    model: &'m mut Model,
    positions: &HashMap<String, usize>,
    name: &str,
) -> Option<&'m mut Entity> {
    positions.get(name).and_then(|&i| model.entities.get_mut(i))
}

/// `INHERITS (parent)`: the parent's columns first, and its key when the child
/// declares none.
fn inherit(s: &mut Shape, inherits: &[(String, Vec<String>, (usize, usize))]) {
    let at_index = positions(&s.model);
    for (child, parents, at) in inherits {
        for parent in parents {
            let Some(p) = s.model.entity(parent).cloned() else {
                s.errors.push(model_error(
                    DesignErrorKind::UnknownTable,
                    *at,
                    format!("`{child}` inherits from unknown table `{parent}`"),
                ));
                continue;
            };
            let Some(c) = entity_mut(&mut s.model, &at_index, child) else {
                continue;
            };
            let own = std::mem::take(&mut c.attributes);
            c.attributes = p.attributes.clone();
            c.attributes
                .extend(own.into_iter().filter(|a| p.attribute(&a.name).is_none()));
            if c.primary_key.is_empty() {
                c.primary_key = p.primary_key.clone();
            }
            s.notes.push(note(
                "inherits",
                *at,
                format!(
                    "`{child}` inherits `{parent}`: its columns and its key ({}); PostgreSQL does not enforce the parent's key on the child, the designed tables do",
                    p.primary_key.join(", ")
                ),
            ));
        }
    }
}

/// Column defaults written apart (`ALTER COLUMN … SET DEFAULT`) and unique
/// indexes: the write paths use both (who supplies a value, what to claim).
fn apply_defaults_and_unique_indexes(s: &mut Shape, g: &Gathered) {
    let at_index = positions(&s.model);
    for (table, column, value) in &g.defaults {
        if let Some(a) = entity_mut(&mut s.model, &at_index, table)
            .and_then(|e| e.attributes.iter_mut().find(|a| a.name == *column))
        {
            a.default = Some(value.clone());
        }
    }
    for (table, index) in &g.unique_indexes {
        if let Some(e) = entity_mut(&mut s.model, &at_index, table) {
            crate::relational::add_unique_index(e, index);
        }
    }
}

fn apply_constraints(s: &mut Shape, g: &Gathered, children: &HashMap<&str, &str>) {
    let index: HashMap<String, usize> = s
        .model
        .entities
        .iter()
        .enumerate()
        .map(|(i, e)| (e.name.clone(), i))
        .collect();
    for (table, constraint, at) in &g.constraints {
        // A partition's own key and foreign keys repeat its parent's; the
        // bookkeeping tables are not modeled.
        if children.contains_key(table.as_str())
            || crate::pgskip::BOOKKEEPING.contains(&table.as_str())
        {
            continue;
        }
        let Some(e) = index.get(table).and_then(|i| s.model.entities.get_mut(*i)) else {
            s.errors.push(model_error(
                DesignErrorKind::UnknownTable,
                *at,
                format!("ALTER TABLE on unknown table `{table}`: the constraint is left out"),
            ));
            continue;
        };
        add_constraint(e, constraint);
        crate::pgchecks::of_constraint(table, constraint, &mut s.model.check_sizes);
    }
    // A foreign key to a partition means its parent.
    for e in &mut s.model.entities {
        for fk in &mut e.foreign_keys {
            if let Some(parent) = children.get(fk.table.as_str()) {
                fk.table = (*parent).to_string();
            }
        }
    }
}

fn identities(s: &mut Shape, g: &Gathered) {
    let mut found: Vec<(String, String, bool, (usize, usize))> = g
        .identities
        .iter()
        .map(|i| (i.table.clone(), i.column.clone(), i.always, i.at))
        .collect();
    for (ct, at) in &g.tables {
        for col in &ct.columns {
            for o in &col.options {
                if let Some(always) = identity_option(&o.option) {
                    let column = crate::relational::unquote(&col.name.to_string());
                    found.push((object_name(&ct.name), column, always, *at));
                }
            }
        }
    }
    for (table, column, always, at) in found {
        if s.model.entity(&table).is_none() {
            continue;
        }
        s.model.identities.push((table.clone(), column.clone()));
        s.notes.push(note(
            "identity",
            at,
            format!(
                "`{table}.{column}` is an identity column (GENERATED {}): PostgreSQL numbers it from a sequence, Cassandra has none; the application supplies the value (a uuid or timeuuid needs no coordination)",
                if always { "ALWAYS" } else { "BY DEFAULT" }
            ),
        ));
    }
}

/// A table without a primary key: keyed by its first unique set of non-null
/// columns, else by a generated `row_id timeuuid`.
fn keyless(s: &mut Shape) {
    for e in &mut s.model.entities {
        if !e.primary_key.is_empty() {
            continue;
        }
        let natural = e
            .uniques
            .iter()
            .find(|u| u.iter().all(|c| e.attribute(c).is_some_and(|a| a.not_null)))
            .cloned();
        let at = (e.line, 1);
        let message = match natural {
            Some(key) => {
                let m = format!(
                    "`{}` has no primary key: keyed by its unique non-null columns ({})",
                    e.name,
                    key.join(", ")
                );
                e.primary_key = key;
                m
            }
            None => {
                e.attributes.insert(
                    0,
                    Attribute {
                        name: GENERATED_KEY.into(),
                        pg_type: "timeuuid".into(),
                        cql_type: "timeuuid".into(),
                        not_null: true,
                        // The write paths fill it with CQL's now() (see
                        // writes/defaults.rs), as the note says.
                        default: Some("now()".into()),
                        generated: None,
                        case_insensitive: false,
                    },
                );
                e.primary_key = vec![GENERATED_KEY.into()];
                format!(
                    "`{}` has no primary key and no unique non-null columns: keyed by a generated `{GENERATED_KEY} timeuuid` (the application sets it with now() at insert); declare a primary key if some columns identify a row",
                    e.name
                )
            }
        };
        s.notes.push(note("generated-key", at, message));
    }
}

/// CQL refuses a duration in a primary key and cannot order one: an interval
/// column that is part of a key (or a foreign key, which becomes one in a
/// joined table) is text instead.
fn no_duration_in_keys(s: &mut Shape) {
    let mut keyed: HashSet<(String, String)> = HashSet::new();
    for e in &s.model.entities {
        for c in e.keys().flatten() {
            keyed.insert((e.name.clone(), c.clone()));
        }
        for fk in &e.foreign_keys {
            for c in &fk.columns {
                keyed.insert((e.name.clone(), c.clone()));
            }
            for c in &fk.referenced {
                keyed.insert((fk.table.clone(), c.clone()));
            }
        }
    }
    let mut moved = Vec::new();
    for e in &mut s.model.entities {
        for a in &mut e.attributes {
            if a.cql_type == "duration" && keyed.contains(&(e.name.clone(), a.name.clone())) {
                a.cql_type = "text".into();
                moved.push((format!("{}.{}", e.name, a.name), e.line));
            }
        }
    }
    if let Some((_, line)) = moved.first() {
        let names: Vec<String> = moved.iter().map(|(n, _)| n.clone()).collect();
        s.notes.push(note(
            "type-mapping",
            (*line, 1),
            format!(
                "interval in a key → text in ISO 8601 form, not duration: CQL refuses a duration in a primary key ({})",
                name_list(&names)
            ),
        ));
    }
}

/// Keys and foreign keys name real columns and tables; one that does not is
/// left out with an error, the rest of the model stays.
fn validate(s: &mut Shape) {
    let names: HashSet<String> = s.model.entities.iter().map(|e| e.name.clone()).collect();
    let snapshot: HashMap<String, (Vec<String>, HashSet<String>)> = s
        .model
        .entities
        .iter()
        .map(|e| {
            (
                e.name.clone(),
                (
                    e.primary_key.clone(),
                    e.attributes.iter().map(|a| a.name.clone()).collect(),
                ),
            )
        })
        .collect();
    for e in &mut s.model.entities {
        let at = (e.line, 1);
        let has = |e: &Entity, c: &str| e.attribute(c).is_some();
        if let Some(c) = e.primary_key.iter().find(|c| !has(e, c)).cloned() {
            s.errors.push(model_error(
                DesignErrorKind::Model,
                at,
                format!(
                    "primary key of `{}` names unknown column `{c}`: the table is keyed as a key-less one",
                    e.name
                ),
            ));
            e.primary_key.clear();
        }
        let before = e.uniques.len();
        let uniques = std::mem::take(&mut e.uniques);
        e.uniques = uniques
            .into_iter()
            .filter(|u| u.iter().all(|c| has(e, c)))
            .collect();
        if e.uniques.len() != before {
            s.errors.push(model_error(
                DesignErrorKind::Model,
                at,
                format!(
                    "a unique constraint of `{}` names an unknown column: left out",
                    e.name
                ),
            ));
        }
        let fks = std::mem::take(&mut e.foreign_keys);
        for fk in fks {
            let problem = if let Some(c) = fk.columns.iter().find(|c| !has(e, c)) {
                Some(format!("names unknown column `{c}`"))
            } else if !names.contains(&fk.table) {
                Some(format!("references unknown table `{}`", fk.table))
            } else {
                snapshot.get(&fk.table).and_then(|(pk, cols)| {
                    let referenced = if fk.referenced.is_empty() {
                        pk
                    } else {
                        &fk.referenced
                    };
                    referenced
                        .iter()
                        .find(|c| !cols.contains(*c))
                        .map(|c| format!("references unknown column `{}.{c}`", fk.table))
                })
            };
            match problem {
                Some(p) => s.errors.push(model_error(
                    DesignErrorKind::Model,
                    at,
                    format!("foreign key of `{}` {p}: left out", e.name),
                )),
                None => e.foreign_keys.push(fk),
            }
        }
    }
}
