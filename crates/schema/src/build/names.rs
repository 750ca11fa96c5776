//! Name rules shared by the schema statements (`SchemaConstants.isValidName`,
//! `ColumnIdentifier.maybeQuote`, `AlterSchemaStatement.execute`).

use cqlmodel_cql::ast::Span;

use super::Context;
use crate::error::{SchemaError, SchemaErrorKind};

/// `SchemaConstants.NAME_LENGTH`.
const NAME_LENGTH: usize = 48;

/// Keyspaces Cassandra manages itself (`SchemaConstants.isLocalSystemKeyspace`).
const LOCAL_SYSTEM_KEYSPACES: &[&str] = &["system", "system_schema"];
/// Virtual keyspaces of every 5.0 node.
const VIRTUAL_KEYSPACES: &[&str] = &["system_views", "system_virtual_schema"];

/// `SchemaConstants.isValidName`: 1 to 48 characters of `[A-Za-z0-9_]`.
pub(crate) fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= NAME_LENGTH
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

impl Context<'_> {
    /// The checks `AlterSchemaStatement.execute` makes before `apply`: system
    /// and virtual keyspaces, then the keyspace name (GEN-3).
    pub(crate) fn check_keyspace_name(
        &self,
        keyspace: &str,
        span: Span,
    ) -> Result<(), SchemaError> {
        if LOCAL_SYSTEM_KEYSPACES.contains(&keyspace) {
            return Err(self.err(SchemaErrorKind::SystemKeyspace(keyspace.to_string()), span));
        }
        if VIRTUAL_KEYSPACES.contains(&keyspace) {
            return Err(self.err(SchemaErrorKind::VirtualKeyspace(keyspace.to_string()), span));
        }
        if !is_valid_name(keyspace) {
            return Err(self.err(
                SchemaErrorKind::InvalidKeyspaceName(keyspace.to_string()),
                span,
            ));
        }
        Ok(())
    }
}

/// `ColumnIdentifier.maybeQuote`: bare when `[a-z][a-z0-9_]*` and not reserved.
pub(crate) fn maybe_quote(name: &str) -> String {
    cqlmodel_cql::ast::Ident::new(name).to_string()
}

/// `TableMetadata.toString()`: `ks.t`, each part quoted if needed.
pub(crate) fn table_display(keyspace: &str, table: &str) -> String {
    format!("{}.{}", maybe_quote(keyspace), maybe_quote(table))
}

/// `QualifiedName.toString()`: the name as written, with its keyspace only if written.
pub(crate) fn as_written(name: &cqlmodel_cql::ast::QualifiedName) -> String {
    match &name.keyspace {
        Some(k) => format!("{}.{}", k.value, name.name.value),
        None => name.name.value.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_schema_constants() {
        assert!(is_valid_name("ks_1"));
        assert!(!is_valid_name(""));
        assert!(!is_valid_name("bad-name"));
        assert!(!is_valid_name(&"a".repeat(49)));
        assert!(is_valid_name(&"a".repeat(48)));
    }

    #[test]
    fn quoting_follows_maybe_quote() {
        assert_eq!(maybe_quote("v"), "v");
        assert_eq!(maybe_quote("MyCol"), "\"MyCol\"");
        assert_eq!(table_display("ks", "t"), "ks.t");
    }
}
