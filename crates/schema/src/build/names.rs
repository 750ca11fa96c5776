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

/// Non-empty and only `[A-Za-z0-9_]`: what 5.0 checks of table and view
/// names. A 5.0.9 node accepts a 49-character table name, so no length limit
/// is applied to tables (the limit it does apply to long table names is not
/// modeled).
pub(crate) fn is_valid_chars(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
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
        if !is_valid_chars(keyspace) {
            return Err(self.err(
                SchemaErrorKind::InvalidKeyspaceName(keyspace.to_string()),
                span,
            ));
        }
        if keyspace.len() > NAME_LENGTH {
            return Err(self.err(
                SchemaErrorKind::KeyspaceNameTooLong {
                    name: keyspace.to_string(),
                    length: keyspace.len(),
                },
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
        assert!(is_valid_chars("ks_1"));
        assert!(!is_valid_chars(""));
        assert!(!is_valid_chars("bad-name"));
        assert!(is_valid_chars(&"a".repeat(49)));
    }

    #[test]
    fn quoting_follows_maybe_quote() {
        assert_eq!(maybe_quote("v"), "v");
        assert_eq!(maybe_quote("MyCol"), "\"MyCol\"");
        assert_eq!(table_display("ks", "t"), "ks.t");
    }
}
