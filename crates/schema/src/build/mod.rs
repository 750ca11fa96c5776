//! Executes the DDL of one or more CQL files into a [`Schema`], statement by
//! statement, the way Cassandra would: each statement sees the schema left by
//! the ones before it, and a rejected statement changes nothing.

mod alter;
mod index;
mod keyspace;
mod options;
mod table;
mod udt;
mod view;

use cqlmodel_cql::ast::{QualifiedName, Span, Statement, StatementKind};

use crate::error::{SchemaError, SchemaErrorKind};
use crate::model::{Origin, Schema};

/// The outcome of building a schema: every statement that Cassandra would have
/// rejected is an error; the statements that are not DDL are listed apart.
#[derive(Debug, Clone, Default)]
pub struct SchemaBuild {
    pub schema: Schema,
    pub errors: Vec<SchemaError>,
    /// Statements a schema file should not hold (SELECT, INSERT, ...): file and span.
    pub non_ddl: Vec<(usize, Span)>,
}

/// Builds a schema from statements, in order.
#[derive(Debug, Default)]
pub struct SchemaBuilder {
    build: SchemaBuild,
    current_keyspace: Option<String>,
}

type StepResult = Result<(), SchemaError>;

impl SchemaBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts from an existing schema (e.g. to apply migrations on top of it).
    pub fn with_schema(schema: Schema) -> Self {
        Self {
            build: SchemaBuild {
                schema,
                ..SchemaBuild::default()
            },
            current_keyspace: None,
        }
    }

    /// The keyspace `USE` selected last, if any.
    pub fn current_keyspace(&self) -> Option<&str> {
        self.current_keyspace.as_deref()
    }

    pub fn add_statements<'a>(
        &mut self,
        file: usize,
        statements: impl IntoIterator<Item = &'a Statement>,
    ) {
        for statement in statements {
            if let Err(e) = self.apply(file, statement) {
                self.build.errors.push(e);
            }
        }
    }

    pub fn finish(self) -> SchemaBuild {
        self.build
    }

    fn apply(&mut self, file: usize, statement: &Statement) -> StepResult {
        let origin = Origin {
            file,
            span: statement.span,
        };
        let cx = Context {
            file,
            origin,
            current_keyspace: self.current_keyspace.as_deref(),
        };
        let schema = &mut self.build.schema;
        match &statement.kind {
            StatementKind::Use(ks) => {
                if !schema.keyspaces.contains_key(&ks.value) {
                    return Err(SchemaErrorKind::UnknownKeyspace(ks.value.clone()).at(file, ks.span));
                }
                self.current_keyspace = Some(ks.value.clone());
                Ok(())
            }
            StatementKind::CreateKeyspace(s) => keyspace::create(schema, &cx, s),
            StatementKind::AlterKeyspace(s) => keyspace::alter(schema, &cx, s),
            StatementKind::DropKeyspace(s) => keyspace::drop(schema, &cx, s),
            StatementKind::CreateType(s) => udt::create(schema, &cx, s),
            StatementKind::AlterType(s) => udt::alter(schema, &cx, s),
            StatementKind::DropType(s) => udt::drop(schema, &cx, s),
            StatementKind::CreateTable(s) => table::create(schema, &cx, s),
            StatementKind::AlterTable(s) => alter::alter_table(schema, &cx, s),
            StatementKind::DropTable(s) => table::drop(schema, &cx, s),
            StatementKind::CreateIndex(s) => index::create(schema, &cx, s),
            StatementKind::DropIndex(s) => index::drop(schema, &cx, s),
            StatementKind::CreateMaterializedView(s) => view::create(schema, &cx, s),
            StatementKind::AlterMaterializedView(s) => view::alter(schema, &cx, s),
            StatementKind::DropMaterializedView(s) => view::drop(schema, &cx, s),
            // Functions and aggregates do not shape tables; cqlmodel accepts and ignores them.
            StatementKind::CreateFunction(_)
            | StatementKind::DropFunction(_)
            | StatementKind::CreateAggregate(_)
            | StatementKind::DropAggregate(_) => Ok(()),
            StatementKind::Truncate(_)
            | StatementKind::Select(_)
            | StatementKind::Insert(_)
            | StatementKind::Update(_)
            | StatementKind::Delete(_)
            | StatementKind::Batch(_) => {
                self.build.non_ddl.push((file, statement.span));
                Ok(())
            }
        }
    }
}

/// Builds a schema from the statements of one file.
pub fn build_schema<'a>(file: usize, statements: impl IntoIterator<Item = &'a Statement>) -> SchemaBuild {
    let mut builder = SchemaBuilder::new();
    builder.add_statements(file, statements);
    builder.finish()
}

/// What a statement needs to know about where it runs.
pub(crate) struct Context<'a> {
    pub file: usize,
    pub origin: Origin,
    pub current_keyspace: Option<&'a str>,
}

impl Context<'_> {
    pub fn err(&self, kind: SchemaErrorKind, span: Span) -> SchemaError {
        kind.at(self.file, span)
    }

    /// The keyspace a possibly-qualified name lives in.
    pub fn keyspace_of(&self, name: &QualifiedName) -> Result<String, SchemaError> {
        match (&name.keyspace, self.current_keyspace) {
            (Some(ks), _) => Ok(ks.value.clone()),
            (None, Some(current)) => Ok(current.to_string()),
            (None, None) => Err(self.err(SchemaErrorKind::NoKeyspace, name.span)),
        }
    }
}
