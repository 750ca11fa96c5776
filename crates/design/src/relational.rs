//! The conceptual model: PostgreSQL DDL as `pg_dump --schema-only` writes it,
//! read with `sqlparser` into entities, keys and foreign keys.

use sqlparser::ast::{ColumnOption, CreateTable, ObjectName, Statement, TableConstraint};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use crate::error::{DesignError, DesignErrorKind, Source};
use crate::pgtypes::cql_type;
use crate::split::Chunk;

/// One column of an entity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attribute {
    pub name: String,
    /// As written in the DDL (`character varying(80)`).
    pub pg_type: String,
    pub cql_type: String,
    /// `NOT NULL` (or part of the primary key): a value on every row.
    pub not_null: bool,
    /// `DEFAULT …` as written (`now()`, `gen_random_uuid()`,
    /// `nextval('…'::regclass)`): what PostgreSQL fills when the INSERT omits it.
    pub default: Option<String>,
    /// `GENERATED ALWAYS AS (expr)`: the expression PostgreSQL computes the
    /// value from on every write (no statement writes the column itself).
    pub generated: Option<String>,
    /// `citext`, or a nondeterministic collation: equality ignores case, so a
    /// UNIQUE key on it is unique case-insensitively.
    pub case_insensitive: bool,
}

/// `FOREIGN KEY (columns) REFERENCES table (referenced)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForeignKey {
    pub columns: Vec<String>,
    pub table: String,
    pub referenced: Vec<String>,
    /// `ON DELETE CASCADE` / `SET NULL` / `SET DEFAULT`: what PostgreSQL does to
    /// the children when the parent row goes (`None`: NO ACTION / RESTRICT).
    pub on_delete: Option<OnDelete>,
}

/// What a parent's delete does to the rows referring to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnDelete {
    Cascade,
    SetNull,
}

/// A `CREATE UNIQUE INDEX`: a unique key declared outside a constraint,
/// perhaps on an expression (`lower(email)`) or for some rows only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UniqueIndex {
    pub name: String,
    /// The entity's columns the index reads (also pushed to `Entity::uniques`).
    pub columns: Vec<String>,
    /// The indexed expressions that are not plain columns (`lower((email)::text)`).
    pub expressions: Vec<String>,
    /// `WHERE …` of a partial index: unique among those rows only.
    pub predicate: Option<String>,
}

/// One relational table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entity {
    pub name: String,
    pub attributes: Vec<Attribute>,
    pub primary_key: Vec<String>,
    pub uniques: Vec<Vec<String>>,
    pub foreign_keys: Vec<ForeignKey>,
    /// `CREATE UNIQUE INDEX`es on the entity (their column sets are in `uniques`).
    pub unique_indexes: Vec<UniqueIndex>,
    pub line: usize,
}

impl Entity {
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }

    /// True when the column may hold NULL: neither `NOT NULL` nor in the primary key.
    pub fn nullable(&self, column: &str) -> bool {
        self.attribute(column).is_some_and(|a| !a.not_null)
            && !self.primary_key.iter().any(|c| c == column)
    }

    /// The primary key and every unique constraint: the column sets that pick one row.
    pub fn keys(&self) -> impl Iterator<Item = &Vec<String>> {
        std::iter::once(&self.primary_key)
            .filter(|k| !k.is_empty())
            .chain(self.uniques.iter())
    }
}

/// How PostgreSQL compared a unique key, when not byte for byte.
pub fn normalization(e: &Entity, key: &[String]) -> Option<String> {
    if let Some(ix) = e
        .unique_indexes
        .iter()
        .find(|ix| ix.columns == key && !ix.expressions.is_empty())
    {
        return Some(format!(
            "PostgreSQL's unique index `{}` is on `{}`",
            ix.name,
            ix.expressions.join("`, `")
        ));
    }
    let folded: Vec<String> = key
        .iter()
        .filter(|c| e.attribute(c).is_some_and(|a| a.case_insensitive))
        .map(|c| format!("`{c}`"))
        .collect();
    (!folded.is_empty()).then(|| {
        format!(
            "{} compare{} without case in PostgreSQL (citext or a nondeterministic collation)",
            folded.join(", "),
            if folded.len() == 1 { "s" } else { "" }
        )
    })
}

/// Per `(table, column)`, the name of the CHECK that lists its values and how many.
pub type CheckSizes = std::collections::BTreeMap<(String, String), (String, usize)>;

/// The whole model.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Model {
    pub entities: Vec<Entity>,
    /// `(table, column)` of the identity columns (`GENERATED … AS IDENTITY`):
    /// numbered by PostgreSQL, supplied by the application in Cassandra.
    pub identities: Vec<(String, String)>,
    /// `CREATE TYPE … AS ENUM` types by name (lowercase, without schema) and
    /// how many values each allows: a column of such a type is a tiny domain.
    pub enum_sizes: std::collections::BTreeMap<String, usize>,
    /// `(table, column)` of the columns whose domain's CHECK lists the allowed
    /// values (`VALUE IN ('a', 'b')`): the domain's name and how many values.
    pub domain_sizes: std::collections::BTreeMap<(String, String), (String, usize)>,
    /// `(table, column)` of the columns a table CHECK limits to listed values
    /// (`CHECK (status IN ('a', 'b'))`): the constraint's name and how many values.
    pub check_sizes: CheckSizes,
    /// `(table, column)` of the vector columns ANN reads rank by, and the SAI
    /// similarity function their operator asks for (`cosine` for `<=>`).
    pub vector_similarity: std::collections::BTreeMap<(String, String), String>,
    /// Where each entity is in `entities`, once the model is complete
    /// ([`Model::index_entities`]): the designer looks entities up by name for
    /// every table and write path, a scan of 10,000 entities each time.
    pub index: EntityIndex,
}

/// Entity positions by name: a cache, not part of the model (two models
/// are equal whatever their caches hold). A stale entry is never trusted:
/// [`Model::entity`] checks the name it finds and otherwise scans.
#[derive(Debug, Clone, Default)]
pub struct EntityIndex(std::collections::HashMap<String, usize>);

impl PartialEq for EntityIndex {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for EntityIndex {}

impl Model {
    pub fn entity(&self, name: &str) -> Option<&Entity> {
        if let Some(e) = self.index.0.get(name).and_then(|&i| self.entities.get(i))
            && e.name == name
        {
            return Some(e);
        }
        self.entities.iter().find(|e| e.name == name)
    }

    /// Indexes the entities by name (the first of a name wins, as a scan
    /// finds it). Entities added later are still found, by a scan.
    pub fn index_entities(&mut self) {
        let mut index = std::collections::HashMap::with_capacity(self.entities.len());
        for (i, e) in self.entities.iter().enumerate() {
            index.entry(e.name.clone()).or_insert(i);
        }
        self.index = EntityIndex(index);
    }

    /// The foreign keys between `a` and `b` (either direction), as
    /// `(child, fk)` pairs.
    pub fn links<'a>(&'a self, a: &str, b: &str) -> Vec<(&'a Entity, &'a ForeignKey)> {
        let mut out = Vec::new();
        for e in &self.entities {
            for fk in &e.foreign_keys {
                if (e.name == a && fk.table == b) || (e.name == b && fk.table == a) {
                    out.push((e, fk));
                }
            }
        }
        out
    }
}

/// The last part of a possibly schema-qualified name, unquoted, lower-cased
/// unless it was quoted.
pub fn object_name(name: &ObjectName) -> String {
    let text = name.to_string();
    let last = text.rsplit('.').next().unwrap_or(&text);
    unquote(last)
}

pub fn unquote(s: &str) -> String {
    match s.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) => inner.replace("\"\"", "\""),
        None => s.to_ascii_lowercase(),
    }
}

pub(crate) fn parse_one(chunk: &Chunk, source: Source) -> Result<Statement, DesignError> {
    let start = (chunk.line, chunk.column);
    if let Some((at, message)) = crate::sql_limits::too_many_operators(&chunk.text) {
        return Err(DesignError::new(
            DesignErrorKind::Syntax,
            source,
            crate::split::in_file(start, at),
            message,
        ));
    }
    let mut parsed = Parser::parse_sql(&PostgreSqlDialect {}, &chunk.text).map_err(|e| {
        let message = e.to_string();
        let at = location_of(&message).map_or(start, |at| crate::split::in_file(start, at));
        let clean = message
            .split(" at Line:")
            .next()
            .unwrap_or(&message)
            .trim_start_matches("sql parser error: ")
            .to_string();
        DesignError::new(DesignErrorKind::Syntax, source, at, clean)
    })?;
    if parsed.len() != 1 {
        return Err(DesignError::new(
            DesignErrorKind::Syntax,
            source,
            (chunk.line, chunk.column),
            "expected one statement",
        ));
    }
    parsed.pop().ok_or_else(|| {
        DesignError::new(
            DesignErrorKind::Syntax,
            source,
            (chunk.line, chunk.column),
            "empty",
        )
    })
}

/// sqlparser ends its messages with `at Line: 3, Column: 14`.
fn location_of(message: &str) -> Option<(usize, usize)> {
    let rest = message.rsplit("Line: ").next()?;
    let (line, col) = rest.split_once(", Column: ")?;
    let col: String = col.chars().take_while(char::is_ascii_digit).collect();
    Some((line.trim().parse().ok()?, col.parse().ok()?))
}

pub(crate) fn statement_kind(s: &Statement) -> String {
    let text = s.to_string();
    text.split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

pub(crate) fn entity(
    ct: &CreateTable,
    line: usize,
    enums: &[String],
    case_insensitive_collations: &[String],
) -> Result<Entity, DesignError> {
    let name = object_name(&ct.name);
    let mut e = Entity {
        name: name.clone(),
        attributes: Vec::new(),
        primary_key: Vec::new(),
        uniques: Vec::new(),
        foreign_keys: Vec::new(),
        unique_indexes: Vec::new(),
        line,
    };
    for col in &ct.columns {
        let pg_type = col.data_type.to_string();
        let column = unquote(&col.name.to_string());
        let Some(cql) = cql_type(&pg_type, enums) else {
            return Err(DesignError::new(
                DesignErrorKind::Unsupported,
                Source::Model,
                (line, 1),
                format!(
                    "column `{name}.{column}` has type `{pg_type}`, which has no CQL counterpart in the type table"
                ),
            ));
        };
        let mut not_null = false;
        let mut default = None;
        let mut generated = None;
        let mut case_insensitive = pg_type.to_ascii_lowercase().ends_with("citext");
        for opt in &col.options {
            match &opt.option {
                ColumnOption::NotNull => not_null = true,
                ColumnOption::PrimaryKey(_) => {
                    not_null = true;
                    e.primary_key = vec![column.clone()];
                }
                ColumnOption::Unique(_) => e.uniques.push(vec![column.clone()]),
                ColumnOption::ForeignKey(fk) => {
                    let mut key = foreign_key(
                        vec![column.clone()],
                        &fk.foreign_table,
                        &fk.referred_columns,
                    );
                    key.on_delete = on_delete(fk.on_delete);
                    e.foreign_keys.push(key);
                }
                ColumnOption::Default(expr) => default = Some(expr.to_string()),
                other if computed_option(other).is_some() => {
                    generated = computed_option(other).map(|(expr, _)| expr);
                }
                ColumnOption::Collation(c) => {
                    case_insensitive |= case_insensitive_collations.contains(&object_name(c));
                }
                _ => {}
            }
        }
        e.attributes.push(Attribute {
            name: column,
            pg_type,
            cql_type: cql,
            not_null,
            default,
            generated,
            case_insensitive,
        });
    }
    for c in &ct.constraints {
        add_constraint(&mut e, c);
    }
    Ok(e)
}

fn index_columns(cols: &[sqlparser::ast::IndexColumn]) -> Vec<String> {
    cols.iter()
        .map(|c| unquote(&c.column.expr.to_string()))
        .collect()
}

/// A column's `REFERENCES t (c)` and a table's `FOREIGN KEY (…) REFERENCES t (…)` alike.
fn foreign_key(
    columns: Vec<String>,
    table: &ObjectName,
    referred: &[sqlparser::ast::Ident],
) -> ForeignKey {
    ForeignKey {
        columns,
        table: object_name(table),
        referenced: referred.iter().map(|c| unquote(&c.to_string())).collect(),
        on_delete: None,
    }
}

fn on_delete(action: Option<sqlparser::ast::ReferentialAction>) -> Option<OnDelete> {
    match action? {
        sqlparser::ast::ReferentialAction::Cascade => Some(OnDelete::Cascade),
        sqlparser::ast::ReferentialAction::SetNull => Some(OnDelete::SetNull),
        _ => None,
    }
}

/// `CREATE COLLATION name (…, deterministic = false)`: its name.
pub(crate) fn nondeterministic_collation(text: &str) -> Option<String> {
    let flat: String = text
        .to_ascii_lowercase()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if !flat.contains("deterministic=false") && !flat.contains("deterministic='false'") {
        return None;
    }
    let rest = text.split_whitespace().nth(2)?;
    let name = rest.split('(').next()?;
    let last = name.rsplit('.').next()?;
    Some(unquote(last))
}

/// A unique index: the entity's columns it reads are a unique key (of
/// their normalized value when the index is on an expression).
pub(crate) fn add_unique_index(e: &mut Entity, index: &sqlparser::ast::CreateIndex) {
    let mut columns = Vec::new();
    let mut expressions = Vec::new();
    for c in &index.columns {
        let text = c.column.expr.to_string();
        let plain = unquote(&text);
        if e.attribute(&plain).is_some() {
            columns.push(plain);
            continue;
        }
        expressions.push(text.clone());
        let words: Vec<String> = text
            .split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
            .map(str::to_ascii_lowercase)
            .collect();
        for a in &e.attributes {
            if words.contains(&a.name) && !columns.contains(&a.name) {
                columns.push(a.name.clone());
            }
        }
    }
    if columns.is_empty() {
        return;
    }
    if !e.uniques.contains(&columns) {
        e.uniques.push(columns.clone());
    }
    e.unique_indexes.push(UniqueIndex {
        name: index.name.as_ref().map(object_name).unwrap_or_default(),
        columns,
        expressions,
        predicate: index.predicate.as_ref().map(ToString::to_string),
    });
}

pub(crate) fn add_constraint(e: &mut Entity, c: &TableConstraint) {
    match c {
        TableConstraint::PrimaryKey(pk) => e.primary_key = index_columns(&pk.columns),
        TableConstraint::Unique(u) => e.uniques.push(index_columns(&u.columns)),
        TableConstraint::ForeignKey(fk) => {
            let mut key = foreign_key(
                fk.columns.iter().map(|c| unquote(&c.to_string())).collect(),
                &fk.foreign_table,
                &fk.referred_columns,
            );
            key.on_delete = on_delete(fk.on_delete);
            e.foreign_keys.push(key);
        }
        _ => {}
    }
}

/// The expression of a generated (computed) column, and whether it is virtual.
pub(crate) fn computed_option(option: &ColumnOption) -> Option<(String, bool)> {
    match option {
        ColumnOption::Generated {
            generation_expr: Some(expr),
            generation_expr_mode,
            ..
        } => Some((
            expr.to_string(),
            // PostgreSQL 18 makes a column without STORED virtual.
            !matches!(
                generation_expr_mode,
                Some(sqlparser::ast::GeneratedExpressionMode::Stored)
            ),
        )),
        _ => None,
    }
}
