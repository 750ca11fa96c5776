//! Executes the DDL of one or more CQL files into a [`Schema`], statement by
//! statement, the way Cassandra 5.0 would: each statement sees the schema left by
//! the ones before it, a rejected statement changes nothing, and the first check
//! that fails (in Cassandra's order: parse, prepare, validate, execute, apply)
//! is the one reported.

mod alter;
mod index;
mod keyspace;
mod names;
mod properties;
mod removed_options;
mod table;
mod table_builder;
mod table_params;
mod udt;
mod view;

use cqlmodel_cql::ast::{QualifiedName, Span, Statement, StatementKind};

use crate::error::{SchemaError, SchemaErrorKind, SchemaWarning, SchemaWarningKind};
use crate::model::{Origin, Schema};

/// The `cassandra.yaml` settings that change which DDL Cassandra accepts.
/// `Default` is Cassandra 5.0's defaults. Guardrails that are permissive by
/// default (table and column counts, `compact_tables_enabled`, ...) and the
/// masking switch (`dynamic_data_masking_enabled`, whose message was not
/// researched) are not modeled: cqlmodel behaves as with their defaults,
/// except that masked columns are accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// `materialized_views_enabled` (5.0 default: `false`). When false every
    /// CREATE MATERIALIZED VIEW fails (MV-0); enable it to model and review views.
    pub materialized_views_enabled: bool,
    /// `sasi_indexes_enabled` (default `false`).
    pub sasi_indexes_enabled: bool,
    /// `transient_replication_enabled` (default `false`): whether `'3/1'` replication factors are accepted.
    pub transient_replication_enabled: bool,
    /// `default_keyspace_rf` (default 1): the factor SimpleStrategy gets when none is given.
    pub default_keyspace_rf: u32,
    /// Not a `cassandra.yaml` setting: whether table options that older versions
    /// accepted and 5.0 rejects (`read_repair_chance`, DateTieredCompactionStrategy)
    /// are dropped with a warning instead of rejecting the table. For schema files
    /// printed by an existing cluster; default `false` (5.0 rejects them).
    pub removed_options_accepted: bool,
    /// `drop_compact_storage_enabled` (5.0 default: `false`): when false every
    /// `ALTER TABLE … DROP COMPACT STORAGE` is refused, whatever the table.
    pub drop_compact_storage_enabled: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            materialized_views_enabled: false,
            sasi_indexes_enabled: false,
            transient_replication_enabled: false,
            default_keyspace_rf: 1,
            removed_options_accepted: false,
            drop_compact_storage_enabled: false,
        }
    }
}

/// The outcome of building a schema: every statement that Cassandra would have
/// rejected is an error; the statements that are not DDL are listed apart.
#[derive(Debug, Clone, Default)]
pub struct SchemaBuild {
    pub schema: Schema,
    pub errors: Vec<SchemaError>,
    /// Client warnings of accepted statements (materialized views, SASI).
    pub warnings: Vec<SchemaWarning>,
    /// Statements a schema file should not hold (SELECT, INSERT, ...): file and span.
    pub non_ddl: Vec<(usize, Span)>,
    /// Statements accepted with no effect on the data model (roles, users,
    /// permissions, identities, triggers): file, span and their leading words
    /// (`CREATE ROLE`, `GRANT`), so that callers can say what was skipped.
    pub no_model: Vec<(usize, Span, &'static str)>,
}

/// Builds a schema from statements, in order.
#[derive(Debug, Default)]
pub struct SchemaBuilder {
    build: SchemaBuild,
    current_keyspace: Option<String>,
    settings: Settings,
    /// The keyspace [`SchemaBuilder::assume_keyspace`] added, until a
    /// `CREATE KEYSPACE` defines it.
    assumed_keyspace: Option<String>,
}

/// The replication class of a keyspace assumed by [`SchemaBuilder::assume_keyspace`].
pub const ASSUMED_REPLICATION: &str =
    "unknown (keyspace given with --keyspace, not created in the schema files)";

type StepResult = Result<(), SchemaError>;
/// A step that may end with a client warning.
type WarnResult = Result<Option<SchemaWarningKind>, SchemaError>;

impl SchemaBuilder {
    /// A builder with Cassandra 5.0's default settings.
    pub fn new() -> Self {
        Self::default()
    }

    /// A builder with the given `cassandra.yaml` settings.
    pub fn with_settings(settings: Settings) -> Self {
        Self {
            settings,
            ..Self::default()
        }
    }

    /// Starts from an existing schema (e.g. to apply migrations on top of it).
    pub fn with_schema(schema: Schema) -> Self {
        Self::with_schema_and_settings(schema, Settings::default())
    }

    /// Starts from an existing schema, with the given settings.
    pub fn with_schema_and_settings(schema: Schema, settings: Settings) -> Self {
        Self {
            build: SchemaBuild {
                schema,
                ..SchemaBuild::default()
            },
            current_keyspace: None,
            settings,
            assumed_keyspace: None,
        }
    }

    /// Runs the statements that follow in `keyspace`, as `cqlsh -k keyspace`
    /// does. When no earlier statement created it, the keyspace is assumed to
    /// exist with an unknown replication (`Replication::Other`, so no check
    /// reads a factor that no file gave); returns whether it was assumed.
    /// A later `CREATE KEYSPACE` of the same name in the files takes the
    /// assumption's place.
    pub fn assume_keyspace(&mut self, keyspace: &str, origin: Origin) -> bool {
        self.current_keyspace = Some(keyspace.to_string());
        if self.build.schema.keyspaces.contains_key(keyspace) {
            return false;
        }
        self.build.schema.keyspaces.insert(
            keyspace.to_string(),
            crate::model::Keyspace {
                name: keyspace.to_string(),
                replication: crate::model::Replication::Other {
                    class: ASSUMED_REPLICATION.to_string(),
                    options: Default::default(),
                },
                durable_writes: true,
                types: Default::default(),
                tables: Default::default(),
                origin,
            },
        );
        self.assumed_keyspace = Some(keyspace.to_string());
        true
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Changes a setting for the statements still to come (a schema file that
    /// says its cluster enables `drop_compact_storage_enabled`).
    pub fn settings_mut(&mut self) -> &mut Settings {
        &mut self.settings
    }

    /// The keyspace `USE` selected last, if any.
    pub fn current_keyspace(&self) -> Option<&str> {
        self.current_keyspace.as_deref()
    }

    /// The schema as the statements so far left it.
    pub fn schema(&self) -> &Schema {
        &self.build.schema
    }

    /// The rejections so far.
    pub fn errors(&self) -> &[SchemaError] {
        &self.build.errors
    }

    /// The client warnings so far.
    pub fn warnings(&self) -> &[SchemaWarning] {
        &self.build.warnings
    }

    pub fn add_statements<'a>(
        &mut self,
        file: usize,
        statements: impl IntoIterator<Item = &'a Statement>,
    ) {
        for statement in statements {
            let statement = if self.settings.removed_options_accepted {
                let (kept, removed) = removed_options::strip(statement);
                for (kind, span) in removed {
                    self.build.warnings.push(SchemaWarning { kind, file, span });
                }
                kept
            } else {
                std::borrow::Cow::Borrowed(statement)
            };
            match self.apply(file, &statement) {
                Ok(Some(kind)) => self.build.warnings.push(SchemaWarning {
                    kind,
                    file,
                    span: statement.span,
                }),
                Ok(None) => {}
                Err(e) => self.build.errors.push(e),
            }
        }
    }

    /// Records a statement accepted with no effect on the model.
    fn no_model(&mut self, file: usize, span: Span, words: &'static str) -> WarnResult {
        self.build.no_model.push((file, span, words));
        Ok(None)
    }

    pub fn finish(self) -> SchemaBuild {
        self.build
    }

    fn apply(&mut self, file: usize, statement: &Statement) -> WarnResult {
        let origin = Origin {
            file,
            span: statement.span,
        };
        let cx = Context {
            file,
            origin,
            current_keyspace: self.current_keyspace.as_deref(),
            settings: &self.settings,
        };
        let schema = &mut self.build.schema;
        let done = |r: StepResult| r.map(|()| None);
        match &statement.kind {
            // The message of `ClientState.setKeyspace` is taken from memory (not re-read in 5.0).
            StatementKind::Use(ks) => {
                if !schema.keyspaces.contains_key(&ks.value) {
                    return Err(
                        SchemaErrorKind::UseUnknownKeyspace(ks.value.clone()).at(file, ks.span)
                    );
                }
                self.current_keyspace = Some(ks.value.clone());
                Ok(None)
            }
            StatementKind::CreateKeyspace(s) => {
                if self.assumed_keyspace.as_deref() == Some(s.name.value.as_str()) {
                    self.assumed_keyspace = None;
                    let assumed = schema.keyspaces.remove(&s.name.value);
                    let result = keyspace::create(schema, &cx, s);
                    if let Some(assumed) = assumed {
                        match schema.keyspaces.get_mut(&s.name.value) {
                            // Objects created before the CREATE KEYSPACE stay.
                            Some(created) if result.is_ok() => {
                                created.types = assumed.types;
                                created.tables = assumed.tables;
                            }
                            _ => {
                                schema.keyspaces.insert(s.name.value.clone(), assumed);
                            }
                        }
                    }
                    return done(result);
                }
                done(keyspace::create(schema, &cx, s))
            }
            StatementKind::AlterKeyspace(s) => done(keyspace::alter(schema, &cx, s)),
            StatementKind::DropKeyspace(s) => done(keyspace::drop(schema, &cx, s)),
            StatementKind::CreateType(s) => done(udt::create(schema, &cx, s)),
            StatementKind::AlterType(s) => done(udt::alter(schema, &cx, s)),
            StatementKind::DropType(s) => done(udt::drop(schema, &cx, s)),
            StatementKind::CreateTable(s) => done(table::create(schema, &cx, s)),
            StatementKind::AlterTable(s) => done(alter::alter_table(schema, &cx, s)),
            StatementKind::DropTable(s) => done(table::drop(schema, &cx, s)),
            StatementKind::CreateIndex(s) => index::create(schema, &cx, s),
            StatementKind::DropIndex(s) => done(index::drop(schema, &cx, s)),
            StatementKind::CreateMaterializedView(s) => view::create(schema, &cx, s),
            StatementKind::AlterMaterializedView(s) => done(view::alter(schema, &cx, s)),
            StatementKind::DropMaterializedView(s) => done(view::drop(schema, &cx, s)),
            // Functions and aggregates do not shape tables; cqlmodel accepts and ignores them.
            StatementKind::CreateFunction(_)
            | StatementKind::DropFunction(_)
            | StatementKind::CreateAggregate(_)
            | StatementKind::DropAggregate(_) => Ok(None),
            // Who may do what, and code run on writes: no table changes shape.
            StatementKind::Access(s) => self.no_model(file, statement.span, s.keywords()),
            StatementKind::CreateTrigger(_) => {
                self.no_model(file, statement.span, "CREATE TRIGGER")
            }
            StatementKind::DropTrigger(_) => self.no_model(file, statement.span, "DROP TRIGGER"),
            StatementKind::Truncate(_)
            | StatementKind::Select(_)
            | StatementKind::Insert(_)
            | StatementKind::Update(_)
            | StatementKind::Delete(_)
            | StatementKind::Batch(_) => {
                self.build.non_ddl.push((file, statement.span));
                Ok(None)
            }
        }
    }
}

/// Builds a schema from the statements of one file, with Cassandra 5.0's default settings.
pub fn build_schema<'a>(
    file: usize,
    statements: impl IntoIterator<Item = &'a Statement>,
) -> SchemaBuild {
    build_schema_with(Settings::default(), file, statements)
}

/// Builds a schema from the statements of one file, with the given settings.
pub fn build_schema_with<'a>(
    settings: Settings,
    file: usize,
    statements: impl IntoIterator<Item = &'a Statement>,
) -> SchemaBuild {
    let mut builder = SchemaBuilder::with_settings(settings);
    builder.add_statements(file, statements);
    builder.finish()
}

/// What a statement needs to know about where it runs.
pub(crate) struct Context<'a> {
    pub file: usize,
    pub origin: Origin,
    pub current_keyspace: Option<&'a str>,
    pub settings: &'a Settings,
}

impl Context<'_> {
    pub fn err(&self, kind: SchemaErrorKind, span: Span) -> SchemaError {
        kind.at(self.file, span)
    }

    /// Wraps a `(kind, span)` pair from the helpers that do not know the file.
    pub fn lift(&self, (kind, span): (SchemaErrorKind, Span)) -> SchemaError {
        kind.at(self.file, span)
    }

    /// The keyspace a possibly-qualified name lives in (`ClientState.getKeyspace`).
    pub fn keyspace_of(&self, name: &QualifiedName) -> Result<String, SchemaError> {
        match (&name.keyspace, self.current_keyspace) {
            (Some(ks), _) => Ok(ks.value.clone()),
            (None, Some(current)) => Ok(current.to_string()),
            (None, None) => Err(self.err(SchemaErrorKind::NoKeyspace, name.span)),
        }
    }
}
