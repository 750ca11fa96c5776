//! CREATE / ALTER / DROP TYPE. CREATE TYPE runs, in `CreateTypeStatement`'s
//! order: TYP-1 (parse) → GEN-3 → UDT-0 → UDT-1 → UDT-2 → UDT-3 / UDT-4 per
//! field → field types (a reference to the type itself is "Unknown type", UDT-5).

use std::sync::Arc;

use cqlmodel_cql::ast::{AlterType, AlterTypeAction, CreateType, DataType, DropObject};

use super::{Context, StepResult};
use crate::error::{SchemaError, SchemaErrorKind};
use crate::model::Schema;
use crate::resolve::{RawType, TypeLookup};
use crate::types::{CqlType, UdtDef};

/// User types of every keyspace, for resolution.
pub(crate) struct SchemaTypes<'a>(pub &'a Schema);

impl TypeLookup for SchemaTypes<'_> {
    fn udt(&self, keyspace: &str, name: &str) -> Option<Arc<UdtDef>> {
        self.0.keyspaces.get(keyspace)?.types.get(name).cloned()
    }
}

/// TYP-1: the raw form of each type, which fails on `frozen<native>` the way
/// Cassandra's parser does (the first one written is reported).
pub(crate) fn raw_types<'a>(
    cx: &Context<'_>,
    types: impl IntoIterator<Item = &'a DataType>,
) -> Result<Vec<RawType>, SchemaError> {
    types
        .into_iter()
        .map(|t| RawType::from_written(t).map_err(|e| cx.lift(e)))
        .collect()
}

/// Prepares a raw type in the statement's keyspace.
pub(crate) fn prepare(
    cx: &Context<'_>,
    schema: &Schema,
    raw: &RawType,
    keyspace: &str,
) -> Result<CqlType, SchemaError> {
    raw.prepare(keyspace, &SchemaTypes(schema))
        .map_err(|e| cx.lift(e))
}

pub(super) fn create(schema: &mut Schema, cx: &Context<'_>, s: &CreateType) -> StepResult {
    let raws = raw_types(cx, s.fields.iter().map(|f| &f.data_type))?;
    let ks_name = cx.keyspace_of(&s.name)?;
    cx.check_keyspace_name(&ks_name, s.name.span)?;
    let Some(ks) = schema.keyspaces.get(&ks_name) else {
        return Err(cx.err(SchemaErrorKind::UnknownKeyspace(ks_name), s.name.span));
    };
    let type_name = s.name.name.value.clone();
    if ks.types.contains_key(&type_name) {
        if s.if_not_exists {
            return Ok(());
        }
        return Err(cx.err(SchemaErrorKind::TypeExists(type_name), s.name.span));
    }
    for (i, field) in s.fields.iter().enumerate() {
        if s.fields
            .iter()
            .take(i)
            .any(|f| f.name.value == field.name.value)
        {
            return Err(cx.err(
                SchemaErrorKind::DuplicateField {
                    field: field.name.value.clone(),
                    ty: type_name,
                },
                field.name.span,
            ));
        }
    }
    for (field, raw) in s.fields.iter().zip(&raws) {
        if raw.is_counter() {
            return Err(cx.err(SchemaErrorKind::CounterInUdt, field.data_type.span));
        }
        if raw.is_non_frozen_udt() {
            return Err(cx.err(SchemaErrorKind::NonFrozenUdtInUdt, field.data_type.span));
        }
    }
    let mut fields = Vec::with_capacity(s.fields.len());
    for (field, raw) in s.fields.iter().zip(&raws) {
        let ty = prepare(cx, schema, raw, &ks_name)?;
        fields.push((field.name.value.clone(), ty));
    }
    let def = Arc::new(UdtDef {
        keyspace: ks_name.clone(),
        name: type_name.clone(),
        fields,
    });
    if let Some(ks) = schema.keyspaces.get_mut(&ks_name) {
        ks.types.insert(type_name, def);
    }
    Ok(())
}

pub(super) fn alter(schema: &mut Schema, cx: &Context<'_>, s: &AlterType) -> StepResult {
    if let AlterTypeAction::Add { field, .. } = &s.action {
        raw_types(cx, [&field.data_type])?;
    }
    let ks_name = cx.keyspace_of(&s.name)?;
    cx.check_keyspace_name(&ks_name, s.name.span)?;
    let Some(existing) = SchemaTypes(schema).udt(&ks_name, &s.name.name.value) else {
        if s.if_exists {
            return Ok(());
        }
        return Err(cx.err(
            SchemaErrorKind::UnknownType(format!("{}.{}", ks_name, s.name.name.value)),
            s.name.span,
        ));
    };
    let mut def = (*existing).clone();
    match &s.action {
        AlterTypeAction::Add {
            if_not_exists,
            field,
        } => {
            if def.fields.iter().any(|(n, _)| *n == field.name.value) {
                if *if_not_exists {
                    return Ok(());
                }
                return Err(cx.err(
                    SchemaErrorKind::FieldExists {
                        field: field.name.value.clone(),
                        ty: def.name.clone(),
                    },
                    field.name.span,
                ));
            }
            let raw = RawType::from_written(&field.data_type).map_err(|e| cx.lift(e))?;
            let ty = prepare(cx, schema, &raw, &ks_name)?;
            def.fields.push((field.name.value.clone(), ty));
        }
        AlterTypeAction::Rename { if_exists, renames } => {
            for (from, to) in renames {
                match def.fields.iter_mut().find(|(n, _)| *n == from.value) {
                    Some(f) => f.0 = to.value.clone(),
                    None if *if_exists => {}
                    None => {
                        return Err(cx.err(
                            SchemaErrorKind::UnknownField {
                                field: from.value.clone(),
                                ty: def.name.clone(),
                            },
                            from.span,
                        ));
                    }
                }
            }
        }
        AlterTypeAction::AlterFieldType { field, .. } => {
            return Err(cx.err(SchemaErrorKind::AlterFieldType, field.span));
        }
    }
    let def = Arc::new(def);
    if let Some(ks) = schema.keyspaces.get_mut(&ks_name) {
        ks.types.insert(def.name.clone(), def.clone());
        // Tables keep their resolved copies; refresh the ones that use this type.
        for table in ks.tables.values_mut() {
            for column in &mut table.columns {
                replace_udt(&mut column.ty, &def);
            }
        }
    }
    Ok(())
}

pub(super) fn drop(schema: &mut Schema, cx: &Context<'_>, s: &DropObject) -> StepResult {
    let ks_name = cx.keyspace_of(&s.name)?;
    cx.check_keyspace_name(&ks_name, s.name.span)?;
    let name = &s.name.name.value;
    let removed = schema
        .keyspaces
        .get_mut(&ks_name)
        .and_then(|ks| ks.types.remove(name));
    if removed.is_none() && !s.if_exists {
        return Err(cx.err(
            SchemaErrorKind::TypeToAlterMissing {
                keyspace: ks_name,
                name: name.clone(),
            },
            s.name.span,
        ));
    }
    Ok(())
}

fn replace_udt(ty: &mut CqlType, def: &Arc<UdtDef>) {
    match ty {
        CqlType::Udt { def: d, .. } => {
            if d.keyspace == def.keyspace && d.name == def.name {
                *d = def.clone();
            }
        }
        CqlType::List { element, .. }
        | CqlType::Set { element, .. }
        | CqlType::Vector { element, .. } => replace_udt(element, def),
        CqlType::Map { key, value, .. } => {
            replace_udt(key, def);
            replace_udt(value, def);
        }
        CqlType::Tuple(items) => items.iter_mut().for_each(|t| replace_udt(t, def)),
        CqlType::Native(_) | CqlType::Custom(_) => {}
    }
}
