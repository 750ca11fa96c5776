//! Every rejection the schema builder reports, with Cassandra's message. The
//! rule ids in the comments are those of `docs/research/ddl-and-modification-rules.md`.

use super::ErrorClass;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SchemaErrorKind {
    // ------------------------------------------------------------ keyspaces and names
    #[error(
        "No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename"
    )]
    NoKeyspace,
    /// GEN-3, as a 5.0.9 node words it.
    #[error(
        "Keyspace name must not be empty and must contain alphanumeric or underscore characters only (got \"{0}\")"
    )]
    InvalidKeyspaceName(String),
    /// GEN-3, the length (`SchemaConstants.NAME_LENGTH`); the wording is not
    /// yet checked against a node.
    #[error(
        "Keyspace name must not be more than 48 characters long (got {length} characters for \"{name}\")"
    )]
    KeyspaceNameTooLong { name: String, length: usize },
    #[error("System keyspace '{0}' is not user-modifiable")]
    SystemKeyspace(String),
    #[error("Virtual keyspace '{0}' is not user-modifiable")]
    VirtualKeyspace(String),
    #[error("Keyspace '{0}' doesn't exist")]
    UnknownKeyspace(String),
    /// `USE` of a keyspace that does not exist (`ClientState.setKeyspace`).
    #[error("Keyspace '{0}' does not exist")]
    UseUnknownKeyspace(String),
    /// KS-4.
    #[error("Cannot add existing keyspace \"{0}\"")]
    KeyspaceExists(String),
    /// KS-2.
    #[error("Missing replication strategy class")]
    MissingReplicationClass,
    /// KS-3.
    #[error("Missing mandatory option 'replication'")]
    MissingReplication,
    /// KS-5: the fully qualified class name.
    #[error("Unable to find replication strategy class '{0}'")]
    UnknownReplicationStrategy(String),
    /// KS-6.
    #[error("Unable to use given strategy class: LocalStrategy is reserved for internal use.")]
    LocalStrategy,
    /// KS-7.
    #[error(
        "Unrecognized strategy option {{{option}}} passed to {strategy} for keyspace {keyspace}"
    )]
    UnrecognizedStrategyOption {
        option: String,
        strategy: String,
        keyspace: String,
    },
    /// KS-8.
    #[error("Replication factor must be non-negative, found {0}")]
    NegativeReplicationFactor(i64),
    /// KS-9.
    #[error("Transient replication is not enabled on this node")]
    TransientReplicationDisabled,
    /// KS-10: Java's `NumberFormatException` text.
    #[error("For input string: \"{0}\"")]
    InvalidReplicationFactor(String),

    // ------------------------------------------------------------ properties (`WITH ...`)
    /// OPT-1, KS-1, IDX-A5.
    #[error("Unknown property '{0}'")]
    UnknownProperty(String),
    /// OPT-2 (4.1/5.0 wording).
    #[error("Multiple definitions for property '{0}'")]
    DuplicateProperty(String),
    /// OPT-3 (no trailing period).
    #[error("Invalid value for property '{0}'. It should be a string")]
    PropertyNotString(String),
    /// OPT-3 (with a trailing period).
    #[error("Invalid value for property '{0}'. It should be a map.")]
    PropertyNotMap(String),
    /// OPT-4.
    #[error("Invalid integer value {value} for '{property}'")]
    InvalidInteger { value: String, property: String },
    /// OPT-5.
    #[error("Invalid double value {value} for '{property}'")]
    InvalidDouble { value: String, property: String },
    /// OPT-6.
    #[error(
        "Invalid boolean value {value} for '{property}'. Positive values can be '1', 'true' or 'yes'. Negative values can be '0', 'false' or 'no'."
    )]
    InvalidBoolean { value: String, property: String },
    /// OPT-7 (no trailing period).
    #[error("Missing sub-option 'class' for the 'compaction' option")]
    MissingCompactionClass,
    /// OPT-7b: the fully qualified class name.
    #[error("Unable to find compaction strategy class '{0}'")]
    UnknownCompactionClass(String),
    /// OPT-9a (with a trailing period).
    #[error("Missing sub-option 'class' for the 'compression' option.")]
    MissingCompressionClass,
    /// OPT-9b.
    #[error("The 'class' option must not be empty. To disable compression use 'enabled' : false")]
    EmptyCompressionClass,
    /// OPT-9c.
    #[error("If the 'enabled' option is set to false no other options must be specified")]
    CompressionDisabledWithOptions,
    /// OPT-8a…OPT-8h: `{option} must be {requirement} (got {got})`.
    #[error("{option} must be {requirement} (got {got})")]
    OptionOutOfRange {
        option: String,
        requirement: String,
        got: String,
    },
    /// OPT-10.
    #[error("Invalid table id")]
    InvalidTableId,
    /// OPT-11.
    #[error("Cannot alter table id.")]
    AlterTableId,

    // ------------------------------------------------------------ types
    /// TYP-1.
    #[error("frozen<> is only allowed on collections, tuples, and user-defined types (got {0})")]
    FrozenNotAllowed(String),
    /// TYP-2: the outer collection as written.
    #[error("Non-frozen collections are not allowed inside collections: {0}")]
    NestedNonFrozenCollection(String),
    /// TYP-3.
    #[error("Non-frozen UDTs are not allowed inside collections: {0}")]
    NestedNonFrozenUdt(String),
    /// TYP-4, TYP-6.
    #[error("Counters are not allowed inside collections: {0}")]
    CounterInCollection(String),
    /// TYP-5.
    #[error("Durations are not allowed inside sets: {0}")]
    DurationInSet(String),
    /// TYP-7.
    #[error("Durations are not allowed as map keys: {0}")]
    DurationMapKey(String),
    /// TYP-8.
    #[error("Counters are not allowed inside tuples")]
    CounterInTuple,
    /// TYP-9: `ks.name`, the statement's keyspace filled in.
    #[error("Unknown type {0}")]
    UnknownType(String),
    /// TYP-10.
    #[error(
        "Statement on keyspace {statement_keyspace} cannot refer to a user type in keyspace {type_keyspace}; user types can only be used in the keyspace they are defined in"
    )]
    CrossKeyspaceType {
        statement_keyspace: String,
        type_keyspace: String,
    },
    /// TYP-11.
    #[error("vectors may only have positive dimensions; given {0}")]
    VectorDimension(i64),

    // ------------------------------------------------------------ CREATE TABLE
    /// TBL-0b (table first, then keyspace).
    #[error("Cannot add already existing table \"{table}\" to keyspace \"{keyspace}\"")]
    TableExists { keyspace: String, table: String },
    /// ALT-0, DROP TABLE.
    #[error("Table '{keyspace}.{table}' doesn't exist")]
    UnknownTable { keyspace: String, table: String },
    /// TBL-1: the table name as written.
    #[error("Duplicate column '{column}' declaration for table '{table}'")]
    DuplicateColumn { column: String, table: String },
    /// TBL-2 (sic, "specifed"): the table name as written.
    #[error("No PRIMARY KEY specifed for table '{0}' (exactly one required)")]
    NoPrimaryKey(String),
    /// TBL-3: the table name as written.
    #[error("Multiple PRIMARY KEY specified for table '{0}' (exactly one required)")]
    MultiplePrimaryKeys(String),
    /// TBL-4: the table name without keyspace.
    #[error("Unknown column '{column}' referenced in PRIMARY KEY for table '{table}'")]
    UnknownPrimaryKeyColumn { column: String, table: String },
    /// TBL-5.
    #[error("Duplicate column '{column}' in PRIMARY KEY clause for table '{table}'")]
    DuplicatePrimaryKeyColumn { column: String, table: String },
    /// TBL-6.
    #[error("Invalid non-frozen collection type {ty} for PRIMARY KEY column '{column}'")]
    NonFrozenCollectionInPrimaryKey { ty: String, column: String },
    /// TBL-6b.
    #[error("Invalid non-frozen user-defined type {ty} for PRIMARY KEY column '{column}'")]
    NonFrozenUdtInPrimaryKey { ty: String, column: String },
    /// TBL-7, MV-11.
    #[error("counter type is not supported for PRIMARY KEY column '{0}'")]
    CounterInPrimaryKey(String),
    /// TBL-8, MV-12.
    #[error("duration type is not supported for PRIMARY KEY column '{0}'")]
    DurationInPrimaryKey(String),
    /// TBL-8b.
    #[error("Static column '{0}' cannot be part of the PRIMARY KEY")]
    StaticInPrimaryKey(String),
    /// TBL-9: the table name as written.
    #[error("Duplicate column '{column}' in CLUSTERING ORDER BY clause for table '{table}'")]
    DuplicateClusteringOrder { column: String, table: String },
    /// TBL-10a (5.0 wording): the columns print as a Java list.
    #[error(
        "Only clustering key columns can be defined in CLUSTERING ORDER directive: [{}] are not clustering columns",
        .0.join(", ")
    )]
    ClusteringOrderNotClustering(Vec<String>),
    /// TBL-10b.
    #[error(
        "The order of columns in the CLUSTERING ORDER directive must match that of the clustering columns ({expected} must appear before {found})"
    )]
    ClusteringOrderWrongOrder { expected: String, found: String },
    /// TBL-10c.
    #[error("Missing CLUSTERING ORDER for column {0}")]
    ClusteringOrderMissing(String),
    /// TBL-11.
    #[error("Non-frozen UDTs with nested non-frozen collections are not supported")]
    NonFrozenUdtWithNonFrozenCollection,
    /// TBL-12, ALT-4.
    #[error(
        "Static columns are only useful (and thus allowed) if the table has at least one clustering column"
    )]
    StaticWithoutClustering,
    /// TBL-C1.
    #[error("Non-frozen collections and UDTs are not supported with COMPACT STORAGE")]
    CompactMultiCell,
    /// TBL-C2.
    #[error("Static columns are not supported in COMPACT STORAGE tables")]
    CompactStatic,
    /// TBL-C3.
    #[error("No definition found that is not part of the PRIMARY KEY")]
    CompactNoDefinition,
    /// TBL-C4: the names in byte order.
    #[error(
        "COMPACT STORAGE with composite PRIMARY KEY allows no more than one column not part of the PRIMARY KEY (got: {})",
        .0.join(", ")
    )]
    CompactTooManyColumns(Vec<String>),
    /// MV-C: COMPACT STORAGE on a view.
    #[error("COMPACT STORAGE tables are not allowed starting with version 4.0")]
    CompactStorageView,
    /// TBL-13.
    #[error("Cannot mix counter and non counter columns in the same table")]
    CounterMixed,
    /// TBL-14, ALT-16.
    #[error("Cannot set default_time_to_live on a table with counters")]
    CounterWithTtl,
    /// TBL-15 (`TableMetadata.validate`, prefixed with `ks.t: `).
    #[error(
        "{keyspace}.{table}: Table name must not be empty or contain non-alphanumeric-underscore characters (got \"{table}\")"
    )]
    InvalidTableName { keyspace: String, table: String },
    /// ALT-6.
    #[error(
        "{keyspace}.{table}: Cannot have a non counter column (\"{column}\") in a counter table"
    )]
    NonCounterInCounterTable {
        keyspace: String,
        table: String,
        column: String,
    },
    /// ALT-6.
    #[error(
        "{keyspace}.{table}: Cannot have a counter column (\"{column}\") in a non counter table"
    )]
    CounterInNonCounterTable {
        keyspace: String,
        table: String,
        column: String,
    },

    // ------------------------------------------------------------ ALTER / DROP TABLE
    /// ALT-0b.
    #[error("Cannot use ALTER TABLE on a materialized view; use ALTER MATERIALIZED VIEW instead")]
    AlterTableOnView,
    /// ALT-1.
    #[error("Altering column types is no longer supported")]
    AlterColumnType,
    /// ALT-2.
    #[error("Column with name '{0}' already exists")]
    ColumnExists(String),
    /// ALT-3.
    #[error("Cannot add new column to a COMPACT STORAGE table")]
    AddToCompactTable,
    /// `AlterTableStatement.DropCompactStorage`, first check: 5.0 refuses the
    /// statement unless `drop_compact_storage_enabled` is set (default false),
    /// before it looks at the table.
    #[error("DROP COMPACT STORAGE is disabled. Enable in cassandra.yaml to use.")]
    DropCompactStorageDisabled,
    /// `AlterTableStatement.DropCompactStorage`, with the setting on.
    #[error("Cannot DROP COMPACT STORAGE on table without COMPACT STORAGE")]
    DropCompactStorageNotCompact,
    /// ALT-7: the table prints `ks.t`.
    #[error("Column {column} was not found in table '{table}'")]
    DropUnknownColumn { column: String, table: String },
    /// ALT-8.
    #[error("Cannot drop PRIMARY KEY column {0}")]
    DropPrimaryKeyColumn(String),
    /// ALT-9.
    #[error("Cannot drop non-frozen column {column} of user type {ty}")]
    DropNonFrozenUdtColumn { column: String, ty: String },
    /// ALT-10.
    #[error("Cannot drop column {column} because it has dependent secondary indexes ({})", .indexes.join(", "))]
    DropIndexedColumn {
        column: String,
        indexes: Vec<String>,
    },
    /// ALT-11.
    #[error("Cannot drop column {column} on base table {table} with materialized views")]
    DropColumnWithViews { column: String, table: String },
    /// ALT-13.
    #[error("Cannot rename non PRIMARY KEY column {0}")]
    RenameNonPrimaryKey(String),
    /// ALT-14.
    #[error(
        "Cannot rename column {from} to {to} in table '{table}'; another column with that name already exists"
    )]
    RenameToExisting {
        from: String,
        to: String,
        table: String,
    },
    /// ALT-15.
    #[error("Can't rename column {column} because it has dependent secondary indexes ({})", .indexes.join(", "))]
    RenameIndexedColumn {
        column: String,
        indexes: Vec<String>,
    },
    /// ALT-17.
    #[error(
        "Cannot alter gc_grace_seconds of the base table of a materialized view to 0, since this value is used to TTL undelivered updates. Setting gc_grace_seconds too low might cause undelivered updates to expire before being replayed."
    )]
    ViewBaseGcGraceZero,
    #[error("Column with name '{column}' doesn't exist on table '{table}'")]
    MaskUnknownColumn { column: String, table: String },
    #[error(
        "Cannot use DROP TABLE on a materialized view. Please use DROP MATERIALIZED VIEW instead."
    )]
    DropTableOnView,
    #[error("Cannot drop a table when materialized views still depend on it ({keyspace}.{{{}}})", .views.join(", "))]
    DropTableWithViews {
        keyspace: String,
        views: Vec<String>,
    },
    /// DML-3 / ALT-12 / IDX-7 (`TableMetadata.getExistingColumn`): column and table quoted as CQL needs.
    #[error("Undefined column name {column} in table {table}")]
    UnknownColumn { column: String, table: String },

    // ------------------------------------------------------------ user types
    /// UDT-1.
    #[error("A user type with name '{0}' already exists")]
    TypeExists(String),
    /// UDT-2: the type name without keyspace.
    #[error("Duplicate field name '{field}' in type '{ty}'")]
    DuplicateField { field: String, ty: String },
    /// UDT-3.
    #[error("A user type cannot contain counters")]
    CounterInUdt,
    /// UDT-4.
    #[error("A user type cannot contain non-frozen UDTs")]
    NonFrozenUdtInUdt,
    #[error("Cannot add new field {field} to type {ty}: a field with name {field} already exists")]
    FieldExists { field: String, ty: String },
    #[error("Unkown field {field} in user type {ty}")]
    UnknownField { field: String, ty: String },
    #[error("Altering field types is no longer supported")]
    AlterFieldType,
    #[error("Type '{keyspace}.{name}' doesn't exist")]
    TypeToAlterMissing { keyspace: String, name: String },

    // ------------------------------------------------------------ CREATE / DROP INDEX
    /// IDX-A3.
    #[error("Cannot specify options for a non-CUSTOM index")]
    IndexOptionsWithoutCustom,
    /// IDX-A4.
    #[error("Cannot specify {0} as a CUSTOM option")]
    ReservedIndexOption(String),
    /// IDX-1.
    #[error("SASI indexes are disabled. Enable in cassandra.yaml to use.")]
    SasiDisabled,
    /// IDX-3: the table name only.
    #[error("Table '{0}' doesn't exist")]
    IndexTableMissing(String),
    /// IDX-4.
    #[error("Index '{0}' already exists")]
    IndexExists(String),
    /// IDX-5.
    #[error("Secondary indexes on counter tables aren't supported")]
    IndexOnCounterTable,
    /// IDX-6.
    #[error("Secondary indexes on materialized views aren't supported")]
    IndexOnView,
    /// IDX-8.
    #[error("Only CUSTOM indexes can be created without specifying a target column")]
    IndexWithoutTarget,
    /// IDX-9.
    #[error("Only CUSTOM indexes support multiple columns")]
    IndexMultipleTargets,
    /// IDX-10.
    #[error("Duplicate column '{0}' in index target list")]
    IndexDuplicateTarget(String),
    /// IDX-13: `duration columns`, `collections containing durations`, ...
    #[error("Secondary indexes are not supported on {0}")]
    IndexOnDuration(&'static str),
    /// IDX-14.
    #[error("Secondary indexes are not supported on PRIMARY KEY columns in COMPACT STORAGE tables")]
    IndexOnCompactPrimaryKey,
    /// IDX-14.
    #[error(
        "Secondary indexes are not supported on compact value column of COMPACT STORAGE tables"
    )]
    IndexOnCompactValue,
    /// IDX-15.
    #[error("Cannot create secondary index on the only partition key column {0}")]
    IndexOnOnlyPartitionKey(String),
    /// IDX-16.
    #[error(
        "Cannot create {target}() index on frozen column {column}. Frozen collections are immutable and must be fully indexed by using the 'full({column})' modifier"
    )]
    IndexFrozenNotFull {
        target: &'static str,
        column: String,
    },
    /// IDX-17.
    #[error("full() indexes can only be created on frozen collections")]
    IndexFullNotFrozen,
    /// IDX-18.
    #[error(
        "Cannot create {target}() index on {column}. Non-collection columns only support simple indexes"
    )]
    IndexNonCollection {
        target: &'static str,
        column: String,
    },
    /// IDX-19.
    #[error("Cannot create index on {target} of column {column} with non-map type")]
    IndexNonMap {
        target: &'static str,
        column: String,
    },
    /// IDX-20.
    #[error("Cannot create index on non-frozen UDT column {0}")]
    IndexNonFrozenUdt(String),
    /// IDX-21.
    #[error("Index {name} is a duplicate of existing index {existing}")]
    IndexDuplicate { name: String, existing: String },
    /// IDX-S1.
    #[error("Cannot create more than one storage-attached index on the same column: {0}")]
    SaiSameColumn(String),
    /// IDX-S2.
    #[error("Unsupported type: {0}")]
    SaiUnsupportedType(String),
    /// IDX-S3.
    #[error("SAI ANN indexes are only allowed on vector columns with float elements")]
    SaiVectorNotFloat,
    #[error("Index '{keyspace}.{name}' doesn't exist")]
    UnknownIndex { keyspace: String, name: String },

    // ------------------------------------------------------------ materialized views
    /// MV-0.
    #[error("Materialized views are disabled. Enable in cassandra.yaml to use.")]
    MaterializedViewsDisabled,
    /// MV-P1.
    #[error("Cannot create a materialized view on a table in a different keyspace")]
    ViewInOtherKeyspace,
    /// MV-P2.
    #[error("Bind variables are not allowed in CREATE MATERIALIZED VIEW statements")]
    ViewBindMarkers,
    /// TBL-9 for views.
    #[error("Duplicate column '{column}' in CLUSTERING ORDER BY clause for view '{view}'")]
    ViewDuplicateClusteringOrder { column: String, view: String },
    /// MV-2.
    #[error("Base table '{0}' doesn't exist")]
    ViewBaseMissing(String),
    /// MV-3.
    #[error("Cannot create materialized view '{0}' - a table with the same name already exists")]
    ViewNameTaken(String),
    /// MV-4.
    #[error("Materialized views are not supported on counter tables")]
    ViewOnCounterTable,
    /// MV-6.
    #[error(
        "Cannot create materialized view '{view}' for base table '{base}' with gc_grace_seconds of 0, since this value is used to TTL undelivered updates. Setting gc_grace_seconds too low might cause undelivered updates to expire before being replayed."
    )]
    ViewGcGraceZero { view: String, base: String },
    /// MV-7.
    #[error("Cannot use aliases when defining a materialized view (got {0})")]
    ViewAlias(String),
    /// MV-8.
    #[error("Can only select columns by name when defining a materialized view (got {0})")]
    ViewSelectorNotColumn(String),
    /// MV-S.
    #[error("Cannot include static column '{column}' in materialized view '{view}'")]
    ViewStaticColumn { column: String, view: String },
    /// MV-PK0.
    #[error("Must provide at least one partition key column for materialized view '{0}'")]
    ViewNoPartitionKey(String),
    /// MV-PK1.
    #[error("Unknown column '{column}' referenced in PRIMARY KEY for materialized view '{view}'")]
    ViewUnknownKeyColumn { column: String, view: String },
    /// MV-PK2.
    #[error("Duplicate column '{column}' in PRIMARY KEY clause for materialized view '{view}'")]
    ViewDuplicateKeyColumn { column: String, view: String },
    /// MV-9: the type prints as its marshal class.
    #[error("Invalid non-frozen collection type '{ty}' for PRIMARY KEY column '{column}'")]
    ViewNonFrozenCollectionKey { ty: String, column: String },
    /// MV-10.
    #[error("Invalid non-frozen user-defined type '{ty}' for PRIMARY KEY column '{column}'")]
    ViewNonFrozenUdtKey { ty: String, column: String },
    /// MV-13.
    #[error("Clustering key columns must exactly match columns in CLUSTERING ORDER BY directive")]
    ViewClusteringOrder,
    /// MV-14.
    #[error(
        "Cannot create materialized view '{view}' without primary key columns {} from base table '{base}'",
        .columns.join(", ")
    )]
    ViewMissingBaseKey {
        view: String,
        columns: Vec<String>,
        base: String,
    },
    /// MV-15.
    #[error(
        "Cannot include more than one non-primary key column in materialized view primary key (got {})",
        .0.join(", ")
    )]
    ViewTooManyNonKeyColumns(Vec<String>),
    /// MV-16.
    #[error("Cannot use token relation when defining a materialized view")]
    ViewTokenRelation,
    /// MV-18.
    #[error("Primary key columns {} must be restricted with 'IS NOT NULL' or otherwise", .0.join(", "))]
    ViewUnrestrictedKey(Vec<String>),
    /// MV-19 (joined with "," and no space).
    #[error(
        "Non-primary key columns can only be restricted with 'IS NOT NULL' (got: {} restricted illegally)",
        .0.join(",")
    )]
    ViewIllegalRestriction(Vec<String>),
    /// MV-20.
    #[error(
        "Cannot set default_time_to_live for a materialized view. Data in a materialized view always expire at the same time than the corresponding data in the parent table."
    )]
    ViewTtl,
    #[error(
        "Cannot set or alter default_time_to_live for a materialized view. Data in a materialized view always expire at the same time than the corresponding data in the parent table."
    )]
    AlterViewTtl,
    #[error("Materialized view '{keyspace}.{name}' doesn't exist")]
    UnknownView { keyspace: String, name: String },
    /// A WHERE clause of a view that `StatementRestrictions` rejects, with its message.
    #[error("{0}")]
    ViewRestriction(String),
}

impl SchemaErrorKind {
    /// The exception class Cassandra throws for this rejection.
    pub fn class(&self) -> ErrorClass {
        use SchemaErrorKind as K;
        match self {
            K::UnknownProperty(_)
            | K::DuplicateProperty(_)
            | K::PropertyNotString(_)
            | K::PropertyNotMap(_)
            | K::InvalidInteger { .. }
            | K::InvalidDouble { .. }
            | K::InvalidBoolean { .. }
            | K::FrozenNotAllowed(_)
            | K::CompactStorageView => ErrorClass::Syntax,
            K::MissingReplicationClass
            | K::UnknownReplicationStrategy(_)
            | K::UnrecognizedStrategyOption { .. }
            | K::NegativeReplicationFactor(_)
            | K::TransientReplicationDisabled
            | K::InvalidReplicationFactor(_)
            | K::MissingCompactionClass
            | K::UnknownCompactionClass(_)
            | K::MissingCompressionClass
            | K::EmptyCompressionClass
            | K::CompressionDisabledWithOptions
            | K::OptionOutOfRange { .. }
            | K::InvalidTableId
            | K::AlterTableId
            | K::InvalidTableName { .. }
            | K::NonCounterInCounterTable { .. }
            | K::CounterInNonCounterTable { .. } => ErrorClass::Configuration,
            K::KeyspaceExists(_) | K::TableExists { .. } => ErrorClass::AlreadyExists,
            _ => ErrorClass::Invalid,
        }
    }
}
