use super::{DataType, Ident, QualifiedName, Relation, Selection, Span, Term};

/// `name = value` in a `WITH` clause. Values are terms: constants or map literals
/// (`{'class': 'NetworkTopologyStrategy', 'dc1': '3'}`).
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    pub name: Ident,
    pub value: Term,
    pub span: Span,
}

/// `DROP KEYSPACE|TABLE|TYPE|INDEX|MATERIALIZED VIEW|FUNCTION|AGGREGATE [IF EXISTS] name`.
/// For functions and aggregates an optional argument type list selects an overload.
#[derive(Debug, Clone, PartialEq)]
pub struct DropObject {
    pub if_exists: bool,
    pub name: QualifiedName,
    pub arg_types: Option<Vec<DataType>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CreateKeyspace {
    pub if_not_exists: bool,
    pub name: Ident,
    /// `replication`, `durable_writes`, ... in source order.
    pub properties: Vec<Property>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AlterKeyspace {
    pub if_exists: bool,
    pub name: Ident,
    pub properties: Vec<Property>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Order {
    Asc,
    Desc,
}

impl Order {
    pub fn keyword(self) -> &'static str {
        match self {
            Order::Asc => "ASC",
            Order::Desc => "DESC",
        }
    }
}

/// One column of `CREATE TABLE`.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnDef {
    pub name: Ident,
    pub data_type: DataType,
    pub is_static: bool,
    /// `c int PRIMARY KEY`.
    pub primary_key: bool,
    /// `MASKED WITH fn(args)` or `MASKED WITH DEFAULT` (Cassandra 5.0 dynamic data masking).
    pub mask: Option<ColumnMask>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ColumnMask {
    Default,
    Function {
        name: QualifiedName,
        args: Vec<Term>,
    },
}

/// `PRIMARY KEY ((a, b), c, d)` or `PRIMARY KEY (a, c)`.
#[derive(Debug, Clone, PartialEq)]
pub struct PrimaryKey {
    pub partition_key: Vec<Ident>,
    pub clustering: Vec<Ident>,
    /// True when the partition key was written in its own parentheses,
    /// kept so that printing reproduces `((a), c)` as written.
    pub parenthesized_partition: bool,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ClusteringOrder {
    pub column: Ident,
    pub order: Order,
    pub span: Span,
}

/// The `WITH` clause of a table or view.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TableOptions {
    pub clustering_order: Vec<ClusteringOrder>,
    pub compact_storage: bool,
    /// `ID = <uuid>` appears in some DESCRIBE output; kept with the other properties.
    pub properties: Vec<Property>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CreateTable {
    pub if_not_exists: bool,
    pub name: QualifiedName,
    pub columns: Vec<ColumnDef>,
    /// The table-level `PRIMARY KEY (...)` clause, when not given inline.
    pub primary_key: Option<PrimaryKey>,
    pub options: TableOptions,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AlterTable {
    pub if_exists: bool,
    pub name: QualifiedName,
    pub action: AlterTableAction,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AlterTableAction {
    /// `ADD [IF NOT EXISTS] c type [static], ...` (parenthesized or not).
    Add {
        if_not_exists: bool,
        columns: Vec<ColumnDef>,
    },
    /// `DROP [IF EXISTS] c` or `DROP (c1, c2)`, optionally `USING TIMESTAMP n`.
    Drop {
        if_exists: bool,
        columns: Vec<Ident>,
        timestamp: Option<Term>,
    },
    /// `RENAME [IF EXISTS] a TO b AND c TO d`.
    Rename {
        if_exists: bool,
        renames: Vec<(Ident, Ident)>,
    },
    /// `ALTER c TYPE t` (accepted by the grammar, rejected by Cassandra 4.0+).
    AlterColumnType { column: Ident, data_type: DataType },
    /// `ALTER [IF EXISTS] c MASKED WITH ...` / `DROP MASKED`.
    Mask {
        if_exists: bool,
        column: Ident,
        mask: Option<ColumnMask>,
    },
    /// `WITH prop = value AND ...`.
    With(TableOptions),
    /// `DROP COMPACT STORAGE` (4.x: a compact table becomes a regular one).
    DropCompactStorage,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FieldDef {
    pub name: Ident,
    pub data_type: DataType,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CreateType {
    pub if_not_exists: bool,
    pub name: QualifiedName,
    pub fields: Vec<FieldDef>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AlterType {
    pub if_exists: bool,
    pub name: QualifiedName,
    pub action: AlterTypeAction,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AlterTypeAction {
    Add {
        if_not_exists: bool,
        field: FieldDef,
    },
    Rename {
        if_exists: bool,
        renames: Vec<(Ident, Ident)>,
    },
    AlterFieldType {
        field: Ident,
        data_type: DataType,
    },
}

/// What an index is built on: `c`, `keys(c)`, `values(c)`, `entries(c)`, `full(c)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndexTargetKind {
    /// A bare column: values for a frozen or non-collection column, values of a collection.
    Simple,
    Keys,
    Values,
    Entries,
    Full,
}

#[derive(Debug, Clone, PartialEq)]
pub struct IndexTarget {
    pub kind: IndexTargetKind,
    pub column: Ident,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CreateIndex {
    /// `CREATE CUSTOM INDEX`.
    pub custom: bool,
    pub if_not_exists: bool,
    /// Index names are never keyspace-qualified in CREATE INDEX.
    pub name: Option<Ident>,
    pub table: QualifiedName,
    pub targets: Vec<IndexTarget>,
    /// `USING 'sai'` / `USING 'StorageAttachedIndex'` / a class name.
    pub using: Option<String>,
    /// `WITH OPTIONS = {...}`.
    pub options: Vec<Property>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CreateMaterializedView {
    pub if_not_exists: bool,
    pub name: QualifiedName,
    pub selection: Selection,
    pub base_table: QualifiedName,
    pub where_clause: Vec<Relation>,
    pub primary_key: PrimaryKey,
    pub options: TableOptions,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AlterMaterializedView {
    pub if_exists: bool,
    pub name: QualifiedName,
    pub options: TableOptions,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FunctionArg {
    pub name: Ident,
    pub data_type: DataType,
}

/// `CREATE [OR REPLACE] FUNCTION ... LANGUAGE l AS 'body'` (DESCRIBE KEYSPACE prints these).
#[derive(Debug, Clone, PartialEq)]
pub struct CreateFunction {
    pub or_replace: bool,
    pub if_not_exists: bool,
    pub name: QualifiedName,
    pub args: Vec<FunctionArg>,
    /// `CALLED ON NULL INPUT` (true) or `RETURNS NULL ON NULL INPUT` (false).
    pub called_on_null_input: bool,
    pub returns: DataType,
    pub language: Ident,
    pub body: String,
    /// `$$body$$` (true) or `'body'` (false), kept for printing.
    pub dollar_quoted: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CreateAggregate {
    pub or_replace: bool,
    pub if_not_exists: bool,
    pub name: QualifiedName,
    pub arg_types: Vec<DataType>,
    pub state_function: Ident,
    pub state_type: DataType,
    pub final_function: Option<Ident>,
    pub init_condition: Option<Term>,
}
