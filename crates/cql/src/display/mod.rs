//! `Display` for every AST node: canonical CQL that parses back to an equal tree.
//!
//! Keywords are upper-case, types lower-case, identifiers bare when that reads back
//! as the same name and double-quoted otherwise, strings single-quoted with `'`
//! doubled. Statements print on one line without the trailing `;`.

mod access;
mod ddl;
mod dml;
mod term;
mod types;

use std::fmt::{self, Display, Formatter};

use crate::ast::{Ident, QualifiedName, SourceFile, Statement, StatementKind};
use crate::keywords::quote_ident;

/// Items separated by `sep`.
pub(crate) struct Sep<'a, T>(pub &'a [T], pub &'a str);

impl<T: Display> Display for Sep<'_, T> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for (i, item) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(self.1)?;
            }
            item.fmt(f)?;
        }
        Ok(())
    }
}

/// Items separated by `, `.
pub(crate) fn comma<T>(items: &[T]) -> Sep<'_, T> {
    Sep(items, ", ")
}

/// A string literal: single-quoted with `'` doubled.
pub(crate) fn write_string(f: &mut Formatter<'_>, value: &str) -> fmt::Result {
    write!(f, "'{}'", value.replace('\'', "''"))
}

impl Display for Ident {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&quote_ident(&self.value))
    }
}

impl Display for QualifiedName {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(keyspace) = &self.keyspace {
            write!(f, "{keyspace}.")?;
        }
        self.name.fmt(f)
    }
}

/// A function name: like a [`QualifiedName`], except that the reserved `token` is
/// also a valid bare function name (Cassandra's `allowedFunctionName`) and that an
/// unqualified `key` is quoted.
pub(crate) struct FunctionName<'a>(pub &'a QualifiedName);

impl Display for FunctionName<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(keyspace) = &self.0.keyspace {
            write!(f, "{keyspace}.")?;
        }
        match self.0.name.as_str() {
            "token" => f.write_str("token"),
            // `CONTAINS key(...)` would read as `CONTAINS KEY (...)`.
            "key" if self.0.keyspace.is_none() => f.write_str("\"key\""),
            _ => self.0.name.fmt(f),
        }
    }
}

impl Display for SourceFile {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for statement in &self.statements {
            writeln!(f, "{statement};")?;
        }
        Ok(())
    }
}

impl Display for Statement {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl Display for StatementKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            StatementKind::CreateKeyspace(s) => s.fmt(f),
            StatementKind::AlterKeyspace(s) => s.fmt(f),
            StatementKind::DropKeyspace(s) => ddl::write_drop(f, "KEYSPACE", s),
            StatementKind::CreateTable(s) => s.fmt(f),
            StatementKind::AlterTable(s) => s.fmt(f),
            StatementKind::DropTable(s) => ddl::write_drop(f, "TABLE", s),
            StatementKind::CreateType(s) => s.fmt(f),
            StatementKind::AlterType(s) => s.fmt(f),
            StatementKind::DropType(s) => ddl::write_drop(f, "TYPE", s),
            StatementKind::CreateIndex(s) => s.fmt(f),
            StatementKind::DropIndex(s) => ddl::write_drop(f, "INDEX", s),
            StatementKind::CreateMaterializedView(s) => s.fmt(f),
            StatementKind::AlterMaterializedView(s) => s.fmt(f),
            StatementKind::DropMaterializedView(s) => ddl::write_drop(f, "MATERIALIZED VIEW", s),
            StatementKind::CreateFunction(s) => s.fmt(f),
            StatementKind::DropFunction(s) => ddl::write_drop(f, "FUNCTION", s),
            StatementKind::CreateAggregate(s) => s.fmt(f),
            StatementKind::DropAggregate(s) => ddl::write_drop(f, "AGGREGATE", s),
            StatementKind::Use(keyspace) => write!(f, "USE {keyspace}"),
            StatementKind::Truncate(table) => write!(f, "TRUNCATE {table}"),
            StatementKind::Select(s) => s.fmt(f),
            StatementKind::Insert(s) => s.fmt(f),
            StatementKind::Update(s) => s.fmt(f),
            StatementKind::Delete(s) => s.fmt(f),
            StatementKind::Batch(s) => s.fmt(f),
            StatementKind::Access(s) => s.fmt(f),
            StatementKind::CreateTrigger(s) => s.fmt(f),
            StatementKind::DropTrigger(s) => s.fmt(f),
        }
    }
}
