//! A user type whose field changes type (or goes away) cannot change in place:
//! Cassandra 5.0 says `Altering field types is no longer supported`. The plan
//! defines the type again under a new name (`address` → `address_v2`) and every
//! table whose columns use it moves onto the new type by a rebuild. This module
//! holds the new definitions and rewrites a table's column types onto them.

use std::sync::Arc;

use cqlmodel_schema::Table;
use cqlmodel_schema::types::{CqlType, UdtDef};

/// One type the plan defines again under a new name.
#[derive(Debug, Clone)]
pub struct TypeRebuild {
    pub keyspace: String,
    /// The name OLD and NEW give the type.
    pub name: String,
    /// NEW's definition under the plan's name.
    pub def: Arc<UdtDef>,
    /// The fields that change, in words (`zip text → int`).
    pub why: String,
    /// The ALTER TYPE a user would try, and the target's message refusing it.
    pub attempted: Option<String>,
    pub message: Option<String>,
}

impl TypeRebuild {
    pub fn plan_name(&self) -> &str {
        &self.def.name
    }
}

/// Types compared as written: a user type is the same type after it gains a field.
pub fn same_type(a: &CqlType, b: &CqlType) -> bool {
    a == b || a.to_string() == b.to_string()
}

/// Whether `ty` holds the user type `keyspace.name` at any depth.
pub fn uses_type(ty: &CqlType, keyspace: &str, name: &str) -> bool {
    match ty {
        CqlType::Udt { def, .. } => {
            (def.keyspace == keyspace && def.name == name)
                || def.fields.iter().any(|(_, t)| uses_type(t, keyspace, name))
        }
        CqlType::List { element, .. }
        | CqlType::Set { element, .. }
        | CqlType::Vector { element, .. } => uses_type(element, keyspace, name),
        CqlType::Map { key, value, .. } => {
            uses_type(key, keyspace, name) || uses_type(value, keyspace, name)
        }
        CqlType::Tuple(items) => items.iter().any(|t| uses_type(t, keyspace, name)),
        CqlType::Native(_) | CqlType::Custom(_) => false,
    }
}

/// Whether `ty` holds any user type at any depth.
pub fn holds_user_type(ty: &CqlType) -> bool {
    match ty {
        CqlType::Udt { .. } => true,
        CqlType::List { element, .. }
        | CqlType::Set { element, .. }
        | CqlType::Vector { element, .. } => holds_user_type(element),
        CqlType::Map { key, value, .. } => holds_user_type(key) || holds_user_type(value),
        CqlType::Tuple(items) => items.iter().any(holds_user_type),
        CqlType::Native(_) | CqlType::Custom(_) => false,
    }
}

/// `ty` with every rebuilt type replaced by its new definition.
pub fn retype(ty: &CqlType, rebuilds: &[TypeRebuild]) -> CqlType {
    let boxed = |t: &CqlType| Box::new(retype(t, rebuilds));
    match ty {
        CqlType::Udt { def, frozen } => {
            let found = rebuilds
                .iter()
                .find(|r| r.keyspace == def.keyspace && r.name == def.name);
            match found {
                Some(r) => CqlType::Udt {
                    def: r.def.clone(),
                    frozen: *frozen,
                },
                None => ty.clone(),
            }
        }
        CqlType::List { element, frozen } => CqlType::List {
            element: boxed(element),
            frozen: *frozen,
        },
        CqlType::Set { element, frozen } => CqlType::Set {
            element: boxed(element),
            frozen: *frozen,
        },
        CqlType::Vector { element, dimension } => CqlType::Vector {
            element: boxed(element),
            dimension: *dimension,
        },
        CqlType::Map { key, value, frozen } => CqlType::Map {
            key: boxed(key),
            value: boxed(value),
            frozen: *frozen,
        },
        CqlType::Tuple(items) => {
            CqlType::Tuple(items.iter().map(|t| retype(t, rebuilds)).collect())
        }
        CqlType::Native(_) | CqlType::Custom(_) => ty.clone(),
    }
}

/// The columns of a table that use a rebuilt type, each with the outermost one it
/// uses (the last in `rebuilds`, which lists a type after the types it holds).
pub fn used_by<'a>(table: &Table, rebuilds: &'a [TypeRebuild]) -> Vec<(&'a TypeRebuild, String)> {
    let mut out = Vec::new();
    for c in &table.columns {
        let outermost = rebuilds
            .iter()
            .rev()
            .find(|r| r.keyspace == table.keyspace && uses_type(&c.ty, &r.keyspace, &r.name));
        if let Some(r) = outermost {
            out.push((r, c.name.clone()));
        }
    }
    out
}

/// NEW's table with its columns on the plan's new types; `None` when it uses none.
pub fn retyped(table: &Table, rebuilds: &[TypeRebuild]) -> Option<Table> {
    if used_by(table, rebuilds).is_empty() {
        return None;
    }
    let mut t = table.clone();
    for c in &mut t.columns {
        c.ty = retype(&c.ty, rebuilds);
    }
    Some(t)
}

/// `text` with every whole-word `from` replaced by `to` (type names in a type's text).
pub fn rename_word(text: &str, from: &str, to: &str) -> String {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + from.len()..].chars().next();
        out.push_str(&rest[..at]);
        if before.is_some_and(is_ident) || after.is_some_and(is_ident) {
            out.push_str(from);
        } else {
            out.push_str(to);
        }
        rest = &rest[at + from.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::rename_word;

    #[test]
    fn only_whole_type_names_are_renamed() {
        assert_eq!(
            rename_word("map<text, frozen<address>>", "address", "address_v2"),
            "map<text, frozen<address_v2>>"
        );
        assert_eq!(
            rename_word("frozen<home_address>", "address", "x"),
            "frozen<home_address>"
        );
        assert_eq!(rename_word("address", "address", "a2"), "a2");
    }
}
