//! CREATE / ALTER / DROP TYPE.

use std::collections::BTreeMap;
use std::sync::Arc;

use cqlmodel_cql::ast::{AlterType, AlterTypeAction, CreateType, DataType, DataTypeKind, DropObject};

use super::{Context, StepResult};
use crate::error::SchemaErrorKind;
use crate::model::Schema;
use crate::resolve::{TypeLookup, resolve_type};
use crate::types::{CqlType, UdtDef};

/// User types of every keyspace, for resolution.
pub(crate) struct SchemaTypes<'a>(pub &'a Schema);

impl TypeLookup for SchemaTypes<'_> {
    fn udt(&self, keyspace: &str, name: &str) -> Option<Arc<UdtDef>> {
        self.0.keyspaces.get(keyspace)?.types.get(name).cloned()
    }
}

pub(super) fn create(schema: &mut Schema, cx: &Context<'_>, s: &CreateType) -> StepResult {
    let ks_name = cx.keyspace_of(&s.name)?;
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
    let mut seen = BTreeMap::new();
    for field in &s.fields {
        if seen.insert(field.name.value.clone(), ()).is_some() {
            return Err(cx.err(
                SchemaErrorKind::DuplicateField {
                    field: field.name.value.clone(),
                    ty: type_name.clone(),
                },
                field.name.span,
            ));
        }
        if references(&field.data_type, &ks_name, &type_name) {
            return Err(cx.err(SchemaErrorKind::RecursiveType(type_name), field.data_type.span));
        }
    }
    let mut fields = Vec::with_capacity(s.fields.len());
    for field in &s.fields {
        let ty = resolve_type(&field.data_type, &ks_name, &SchemaTypes(schema))
            .map_err(|(k, sp)| cx.err(k, sp))?;
        if ty.is_counter() {
            return Err(cx.err(SchemaErrorKind::CounterInUdt, field.data_type.span));
        }
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
    let ks_name = cx.keyspace_of(&s.name)?;
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
                    SchemaErrorKind::InvalidAlter(format!(
                        "Cannot add new field {} to type {}: a field with name {} already exists",
                        field.name.value, def.name, field.name.value
                    )),
                    field.name.span,
                ));
            }
            let ty = resolve_type(&field.data_type, &ks_name, &SchemaTypes(schema))
                .map_err(|(k, sp)| cx.err(k, sp))?;
            def.fields.push((field.name.value.clone(), ty));
        }
        AlterTypeAction::Rename { if_exists, renames } => {
            for (from, to) in renames {
                match def.fields.iter_mut().find(|(n, _)| *n == from.value) {
                    Some(f) => f.0 = to.value.clone(),
                    None if *if_exists => {}
                    None => {
                        return Err(cx.err(
                            SchemaErrorKind::InvalidAlter(format!(
                                "Unkown field {} in user type {}",
                                from.value, def.name
                            )),
                            from.span,
                        ));
                    }
                }
            }
        }
        AlterTypeAction::AlterFieldType { field, .. } => {
            return Err(cx.err(
                SchemaErrorKind::InvalidAlter(
                    "Alterations of field types are not supported".to_string(),
                ),
                field.span,
            ));
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
    let name = &s.name.name.value;
    let removed = schema
        .keyspaces
        .get_mut(&ks_name)
        .and_then(|ks| ks.types.remove(name));
    if removed.is_none() && !s.if_exists {
        return Err(cx.err(
            SchemaErrorKind::InvalidAlter(format!(
                "Type '{ks_name}.{name}' doesn't exist"
            )),
            s.name.span,
        ));
    }
    Ok(())
}

fn references(ty: &DataType, ks: &str, name: &str) -> bool {
    match &ty.kind {
        DataTypeKind::Udt(q) => {
            q.name.value == name && q.keyspace.as_ref().is_none_or(|k| k.value == ks)
        }
        DataTypeKind::List(e) | DataTypeKind::Set(e) | DataTypeKind::Frozen(e) | DataTypeKind::Vector(e, _) => {
            references(e, ks, name)
        }
        DataTypeKind::Map(k, v) => references(k, ks, name) || references(v, ks, name),
        DataTypeKind::Tuple(items) => items.iter().any(|t| references(t, ks, name)),
        DataTypeKind::Native(_) | DataTypeKind::Custom(_) => false,
    }
}

fn replace_udt(ty: &mut CqlType, def: &Arc<UdtDef>) {
    match ty {
        CqlType::Udt { def: d, .. } => {
            if d.keyspace == def.keyspace && d.name == def.name {
                *d = def.clone();
            }
        }
        CqlType::List { element, .. } | CqlType::Set { element, .. } | CqlType::Vector { element, .. } => {
            replace_udt(element, def)
        }
        CqlType::Map { key, value, .. } => {
            replace_udt(key, def);
            replace_udt(value, def);
        }
        CqlType::Tuple(items) => items.iter_mut().for_each(|t| replace_udt(t, def)),
        CqlType::Native(_) | CqlType::Custom(_) => {}
    }
}
