//! The CQL abstract syntax tree.
//!
//! Invariants every node keeps:
//! - `span` is the byte range of the node in the parsed source (`start..end`).
//! - Spans never take part in equality: two trees that print the same CQL are equal
//!   wherever they came from (see [`Span`]'s `PartialEq`).
//! - `Display` prints canonical CQL that parses back to an equal tree.
//! - Identifiers are stored as Cassandra resolves them: unquoted ones lower-cased,
//!   quoted ones verbatim (`"MyCol"` stays `MyCol`).

mod access;
mod ddl;
mod dml;
mod term;
mod types;

pub use access::*;
pub use ddl::*;
pub use dml::*;
pub use term::*;
pub use types::*;

/// A byte range `start..end` in the source text.
#[derive(Debug, Clone, Copy, Default, Eq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Self {
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// True for a span that covers nothing (also the "unknown position" default).
    /// Use this, not `==`: spans compare equal whatever their offsets.
    pub fn is_empty(self) -> bool {
        self.end <= self.start
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Spans are positions, not meaning: every span equals every other so that
/// `parse(print(ast)) == ast` holds and tests compare trees, not offsets.
impl PartialEq for Span {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

/// Consistent with `PartialEq`: all spans are equal, so all hash alike (a derived
/// `Hash` would make equal `Ident`s land in different `HashSet` buckets).
impl std::hash::Hash for Span {
    fn hash<H: std::hash::Hasher>(&self, _state: &mut H) {}
}

/// An identifier as Cassandra resolves it (unquoted: lower-cased; quoted: verbatim).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ident {
    pub value: String,
    pub span: Span,
}

impl Ident {
    pub fn new(value: impl Into<String>) -> Self {
        Self {
            value: value.into(),
            span: Span::default(),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.value
    }
}

/// `keyspace.name` or `name`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct QualifiedName {
    pub keyspace: Option<Ident>,
    pub name: Ident,
    pub span: Span,
}

/// A whole source file: the statements that parsed and the errors of those that did not.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceFile {
    pub statements: Vec<Statement>,
}

/// One CQL statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    pub kind: StatementKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StatementKind {
    CreateKeyspace(CreateKeyspace),
    AlterKeyspace(AlterKeyspace),
    DropKeyspace(DropObject),
    CreateTable(CreateTable),
    AlterTable(AlterTable),
    DropTable(DropObject),
    CreateType(CreateType),
    AlterType(AlterType),
    DropType(DropObject),
    CreateIndex(CreateIndex),
    DropIndex(DropObject),
    CreateMaterializedView(CreateMaterializedView),
    AlterMaterializedView(AlterMaterializedView),
    DropMaterializedView(DropObject),
    CreateFunction(CreateFunction),
    DropFunction(DropObject),
    CreateAggregate(CreateAggregate),
    DropAggregate(DropObject),
    Use(Ident),
    Truncate(QualifiedName),
    Select(Select),
    Insert(Insert),
    Update(Update),
    Delete(Delete),
    Batch(Batch),
    /// Roles, users, permissions and identities: no data-model meaning.
    Access(AccessStatement),
    CreateTrigger(CreateTrigger),
    DropTrigger(DropTrigger),
}
