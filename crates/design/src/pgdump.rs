//! Reads a `pg_dump --schema-only` (PostgreSQL 12–17, or a Rails/Django
//! `structure.sql`) statement by statement. Each statement is classified by its
//! leading words first: the ones with modeling meaning that sqlparser does not
//! parse (domains, identity columns added by ALTER, partition attachment) are
//! read here by hand, the ones without meaning are skipped with a note, and
//! the rest go to sqlparser. A statement that cannot be read costs only
//! itself: its error is kept, the rest of the file is read, and every problem
//! of the file is reported at once.

use std::collections::{BTreeMap, HashMap};

use sqlparser::ast::{
    AlterTableOperation, ColumnOption, CreateTable, DataType, Ident, ObjectName, Statement,
    TableConstraint, UserDefinedTypeRepresentation,
};

use crate::error::{DesignError, DesignErrorKind, Source};
use crate::pgskip::skip_reason;
use crate::relational::{object_name, parse_one, statement_kind, unquote};
use crate::split::{Chunk, split_statements};

/// `CREATE DOMAIN name AS base [NOT NULL] [CHECK …]`.
#[derive(Debug, Clone)]
pub(crate) struct Domain {
    pub base: String,
    pub not_null: bool,
    pub checks: Vec<String>,
}

/// An identity column: `GENERATED ALWAYS|BY DEFAULT AS IDENTITY`.
#[derive(Debug, Clone)]
pub(crate) struct Identity {
    pub table: String,
    pub column: String,
    pub always: bool,
    pub at: (usize, usize),
}

/// Everything gathered from the statements, before the entities are shaped.
#[derive(Debug, Default)]
pub(crate) struct Gathered {
    pub tables: Vec<(CreateTable, (usize, usize))>,
    pub enums: Vec<String>,
    /// Each enum's name and how many values it allows.
    pub enum_sizes: Vec<(String, usize)>,
    pub composites: Vec<String>,
    pub domains: HashMap<String, Domain>,
    pub identities: Vec<Identity>,
    /// (parent, child, place) of `ATTACH PARTITION` and `PARTITION OF`.
    pub partitions: Vec<(String, String, (usize, usize))>,
    pub constraints: Vec<(String, TableConstraint, (usize, usize))>,
    /// (table, column, default expression) of `ALTER COLUMN … SET DEFAULT`
    /// (pg_dump writes a serial's `nextval(…)` apart from the table).
    pub defaults: Vec<(String, String, String)>,
    /// `CREATE UNIQUE INDEX` (also partial and on expressions), by table.
    pub unique_indexes: Vec<(String, sqlparser::ast::CreateIndex)>,
    /// Collations declared `deterministic = false`: case-insensitive compare.
    pub case_insensitive_collations: Vec<String>,
    /// Skipped statements per reason: how many, and the first place.
    pub skipped: BTreeMap<&'static str, (usize, (usize, usize))>,
}

/// Every statement of the dump gathered, with the errors of those that could
/// not be read (each costs only itself).
pub(crate) fn gather(text: &str) -> (Gathered, Vec<DesignError>) {
    let mut g = Gathered::default();
    let mut errors = Vec::new();
    for chunk in split_statements(text) {
        if let Err(e) = read_statement(&chunk, &mut g) {
            errors.push(e);
        }
    }
    (g, errors)
}

fn leading_words(chunk: &Chunk, n: usize) -> Vec<String> {
    chunk
        .text
        .split(|c: char| c.is_whitespace() || c == '(')
        .filter(|w| !w.is_empty())
        .take(n)
        .map(str::to_ascii_uppercase)
        .collect()
}

fn read_statement(chunk: &Chunk, g: &mut Gathered) -> Result<(), DesignError> {
    let at = (chunk.line, chunk.column);
    let words = leading_words(chunk, 8);
    let upper = chunk.text.to_ascii_uppercase();
    let is_alter_table =
        words.first().is_some_and(|w| w == "ALTER") && words.get(1).is_some_and(|w| w == "TABLE");
    if words.first().is_some_and(|w| w == "CREATE") && words.get(1).is_some_and(|w| w == "DOMAIN") {
        let (name, domain) = domain(chunk, at)?;
        g.domains.insert(name, domain);
        return Ok(());
    }
    if is_alter_table && upper.contains(" ADD GENERATED ") {
        g.identities.push(alter_identity(chunk, &upper, at)?);
        return Ok(());
    }
    if is_alter_table && upper.contains(" ATTACH PARTITION ") {
        let (parent, child) = attach_partition(chunk, at)?;
        g.partitions.push((parent, child, at));
        return Ok(());
    }
    let starts = |a: &[&str]| {
        words
            .iter()
            .map(String::as_str)
            .take(a.len())
            .eq(a.iter().copied())
    };
    if starts(&["CREATE", "COLLATION"])
        && let Some(name) = crate::relational::nondeterministic_collation(&chunk.text)
    {
        // A nondeterministic collation compares case-insensitively (ICU
        // level 2): a UNIQUE key under it is unique without case.
        g.case_insensitive_collations.push(name);
    }
    if starts(&["CREATE", "UNIQUE", "INDEX"]) {
        if let Statement::CreateIndex(index) = parse_one(chunk, Source::Model)? {
            g.unique_indexes
                .push((object_name(&index.table_name), index));
        }
        return Ok(());
    }
    if let Some(reason) = skip_reason(&words) {
        let entry = g.skipped.entry(reason).or_insert((0, at));
        entry.0 += 1;
        return Ok(());
    }
    match parse_one(chunk, Source::Model)? {
        Statement::CreateTable(ct) => {
            if let Some(parent) = &ct.partition_of {
                g.partitions
                    .push((object_name(parent), object_name(&ct.name), at));
            }
            g.tables.push((ct, at));
        }
        Statement::CreateType {
            name,
            representation,
        } => match representation {
            Some(UserDefinedTypeRepresentation::Enum { labels }) => {
                g.enum_sizes.push((object_name(&name), labels.len()));
                g.enums.push(object_name(&name));
            }
            _ => g.composites.push(object_name(&name)),
        },
        Statement::AlterTable(alter) => alter_table(alter, at, g),
        other => {
            return Err(DesignError::new(
                DesignErrorKind::Unsupported,
                Source::Model,
                at,
                format!(
                    "`{}` is outside what a schema dump holds (CREATE TABLE, CREATE TYPE, CREATE DOMAIN, ALTER TABLE): the statement is left out of the model",
                    statement_kind(&other)
                ),
            ));
        }
    }
    Ok(())
}

/// `ALTER TABLE … ADD CONSTRAINT` and `ALTER COLUMN … SET DEFAULT`; other
/// column settings are counted as skipped.
fn alter_table(alter: sqlparser::ast::AlterTable, at: (usize, usize), g: &mut Gathered) {
    let table = object_name(&alter.name);
    for op in alter.operations {
        match op {
            AlterTableOperation::AddConstraint { constraint, .. } => {
                g.constraints.push((table.clone(), constraint, at));
            }
            AlterTableOperation::AlterColumn {
                column_name,
                op: sqlparser::ast::AlterColumnOperation::SetDefault { value },
            } => g.defaults.push((
                table.clone(),
                unquote(&column_name.to_string()),
                value.to_string(),
            )),
            _ => {
                let entry = g
                    .skipped
                    .entry("column defaults and other column settings (the write statements say what they write)")
                    .or_insert((0, at));
                entry.0 += 1;
            }
        }
    }
}

fn syntax(at: (usize, usize), m: String) -> DesignError {
    DesignError::new(DesignErrorKind::Syntax, Source::Model, at, m)
}

/// The words of a statement, quoted identifiers kept whole.
fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

/// `CREATE DOMAIN public.email AS text [COLLATE c] [DEFAULT …] [NOT NULL]
/// [CONSTRAINT n] CHECK (…)`, as pg_dump writes it.
fn domain(chunk: &Chunk, at: (usize, usize)) -> Result<(String, Domain), DesignError> {
    let text = chunk.text.as_str();
    let upper = text.to_ascii_uppercase();
    let w = words(text);
    let name = w
        .get(2)
        .map(|n| last_part(n))
        .ok_or_else(|| syntax(at, "CREATE DOMAIN without a name".into()))?;
    let Some(as_at) = upper.find(" AS ") else {
        return Err(syntax(
            at,
            format!("CREATE DOMAIN {name} without `AS type`"),
        ));
    };
    let rest = text.get(as_at + 4..).unwrap_or_default();
    let rest_upper = rest.to_ascii_uppercase();
    let end = [
        " COLLATE ",
        " DEFAULT ",
        " NOT NULL",
        " NULL",
        " CONSTRAINT ",
        " CHECK ",
    ]
    .iter()
    .filter_map(|k| rest_upper.replace(['\n', '\t'], " ").find(k))
    .min()
    .unwrap_or(rest.len());
    let base = rest.get(..end).unwrap_or(rest).trim().to_string();
    let checks = rest_upper
        .match_indices("CHECK")
        // The word CHECK, not a constraint named `…_check`.
        .filter(|(i, _)| {
            rest_upper
                .get(..*i)
                .is_some_and(|b| b.ends_with(char::is_whitespace))
        })
        .filter_map(|(i, _)| rest.get(i..))
        .map(|c| {
            let c = c.split_whitespace().collect::<Vec<_>>().join(" ");
            balanced_prefix(&c)
        })
        .collect();
    Ok((
        name,
        Domain {
            base,
            not_null: rest_upper.contains("NOT NULL"),
            checks,
        },
    ))
}

/// `CHECK ((VALUE > 0))`: the text up to the parenthesis that closes the first one.
fn balanced_prefix(s: &str) -> String {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return s.get(..=i).unwrap_or(s).to_string();
                }
            }
            _ => {}
        }
    }
    s.to_string()
}

fn last_part(name: &str) -> String {
    let name = name.trim_end_matches(',');
    let last = name.rsplit('.').next().unwrap_or(name);
    unquote(last)
}

/// The table name of `ALTER TABLE [ONLY] [IF EXISTS] name …` and the words after it.
fn alter_target<'a>(w: &'a [&'a str]) -> Option<(String, &'a [&'a str])> {
    let mut i = 2;
    while w
        .get(i)
        .is_some_and(|x| matches!(x.to_ascii_uppercase().as_str(), "ONLY" | "IF" | "EXISTS"))
    {
        i += 1;
    }
    Some((last_part(w.get(i)?), w.get(i + 1..)?))
}

/// `ALTER TABLE t ALTER COLUMN c ADD GENERATED ALWAYS AS IDENTITY (SEQUENCE NAME …)`.
fn alter_identity(chunk: &Chunk, upper: &str, at: (usize, usize)) -> Result<Identity, DesignError> {
    let w = words(&chunk.text);
    let bad = || {
        syntax(
            at,
            "expected `ALTER TABLE t ALTER COLUMN c ADD GENERATED … AS IDENTITY`".into(),
        )
    };
    let (table, rest) = alter_target(&w).ok_or_else(bad)?;
    let column = match rest {
        [alter, column_kw, c, ..]
            if alter.eq_ignore_ascii_case("ALTER") && column_kw.eq_ignore_ascii_case("COLUMN") =>
        {
            last_part(c)
        }
        [alter, c, ..] if alter.eq_ignore_ascii_case("ALTER") => last_part(c),
        _ => return Err(bad()),
    };
    Ok(Identity {
        table,
        column,
        always: upper.contains("GENERATED ALWAYS"),
        at,
    })
}

/// `ALTER TABLE ONLY parent ATTACH PARTITION child FOR VALUES …`.
fn attach_partition(chunk: &Chunk, at: (usize, usize)) -> Result<(String, String), DesignError> {
    let w = words(&chunk.text);
    let (parent, rest) = alter_target(&w).ok_or_else(|| {
        syntax(
            at,
            "expected `ALTER TABLE parent ATTACH PARTITION child …`".into(),
        )
    })?;
    match rest {
        [attach, partition, child, ..]
            if attach.eq_ignore_ascii_case("ATTACH")
                && partition.eq_ignore_ascii_case("PARTITION") =>
        {
            Ok((parent, last_part(child)))
        }
        _ => Err(syntax(
            at,
            "expected `ALTER TABLE parent ATTACH PARTITION child …`".into(),
        )),
    }
}

/// A type name as sqlparser prints it, for a type built from text.
pub(crate) fn named_type(name: &str) -> DataType {
    DataType::Custom(ObjectName::from(vec![Ident::new(name)]), Vec::new())
}

/// True when a column option declares an identity (`GENERATED … AS IDENTITY`).
pub(crate) fn identity_option(option: &ColumnOption) -> Option<bool> {
    let text = option.to_string().to_ascii_uppercase();
    (text.contains("IDENTITY") && text.contains("GENERATED")).then(|| text.contains("ALWAYS"))
}
