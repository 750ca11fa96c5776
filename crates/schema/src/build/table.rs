//! CREATE TABLE and DROP TABLE. CREATE TABLE follows `CreateTableStatement`:
//! the parser's own checks (TBL-1, TBL-3, TBL-9, OPT-2 in the order written,
//! then TYP-1), `Raw.prepare` (TBL-2), `validate` (option values, OPT-3…OPT-7),
//! `execute` (GEN-3), then `apply` (TBL-0, TBL-0b, and the builder in
//! `table_builder`).

use cqlmodel_cql::ast::{
    ColumnDef, CreateTable, DropObject, Ident, Order, PrimaryKey, TableOptions,
};

use super::names::as_written;
use super::table_builder::build_table;
use super::table_params;
use super::udt::raw_types;
use super::{Context, StepResult};
use crate::error::{SchemaError, SchemaErrorKind};
use crate::model::Schema;
use crate::resolve::RawType;

pub(super) fn create(schema: &mut Schema, cx: &Context<'_>, s: &CreateTable) -> StepResult {
    let raw = RawTable::parse(cx, s)?;
    let ks_name = cx.keyspace_of(&s.name)?;
    let Some(key) = raw.key.clone() else {
        return Err(cx.err(SchemaErrorKind::NoPrimaryKey(raw.name), s.name.span));
    };
    let params = table_params::build(&s.options.properties).map_err(|e| cx.lift(e))?;
    cx.check_keyspace_name(&ks_name, s.name.span)?;

    let table_name = s.name.name.value.clone();
    let Some(ks) = schema.keyspaces.get(&ks_name) else {
        return Err(cx.err(SchemaErrorKind::UnknownKeyspace(ks_name), s.name.span));
    };
    if ks.tables.contains_key(&table_name) {
        if s.if_not_exists {
            return Ok(());
        }
        return Err(cx.err(
            SchemaErrorKind::TableExists {
                keyspace: ks_name,
                table: table_name,
            },
            s.name.span,
        ));
    }
    let table = build_table(schema, cx, &raw, &key, &params, &ks_name)?;
    if let Some(ks) = schema.keyspaces.get_mut(&ks_name) {
        ks.tables.insert(table_name, table);
    }
    Ok(())
}

pub(super) fn drop(schema: &mut Schema, cx: &Context<'_>, s: &DropObject) -> StepResult {
    let ks_name = cx.keyspace_of(&s.name)?;
    cx.check_keyspace_name(&ks_name, s.name.span)?;
    let name = &s.name.name.value;
    let missing = || {
        cx.err(
            SchemaErrorKind::UnknownTable {
                keyspace: ks_name.clone(),
                table: name.clone(),
            },
            s.name.span,
        )
    };
    let Some(ks) = schema.keyspaces.get_mut(&ks_name) else {
        return if s.if_exists { Ok(()) } else { Err(missing()) };
    };
    match ks.tables.get(name) {
        None if s.if_exists => Ok(()),
        None => Err(missing()),
        Some(t) if t.is_view() => Err(cx.err(SchemaErrorKind::DropTableOnView, s.name.span)),
        Some(t) if !t.views.is_empty() => Err(cx.err(
            SchemaErrorKind::DropTableWithViews {
                keyspace: ks_name.clone(),
                views: t.views.clone(),
            },
            s.name.span,
        )),
        Some(_) => {
            ks.tables.remove(name);
            Ok(())
        }
    }
}

/// The primary key as the parser collected it.
#[derive(Clone)]
pub(super) struct Key<'a> {
    pub partition: Vec<&'a Ident>,
    pub clustering: Vec<&'a Ident>,
}

/// The statement after `CreateTableStatement.Raw` has collected it.
pub(super) struct RawTable<'a> {
    pub stmt: &'a CreateTable,
    /// The table name as written (`QualifiedName.toString`), for TBL-1/2/3/9.
    pub name: String,
    /// Each column with its raw type, in declaration order.
    pub columns: Vec<(&'a ColumnDef, RawType)>,
    pub key: Option<Key<'a>>,
    pub order: Vec<(&'a Ident, Order)>,
}

/// One part of the statement, for the parser's checks in written order.
enum Part<'a> {
    Column(&'a ColumnDef),
    Key(&'a PrimaryKey),
    Order(usize),
    Property(usize),
}

impl<'a> RawTable<'a> {
    /// The checks Cassandra's parser makes while it reads the statement. They
    /// abort the parse, so the first in written order wins; a `frozen<>` on a
    /// native type is only collected and reported after them (TYP-1).
    fn parse(cx: &Context<'_>, s: &'a CreateTable) -> Result<Self, SchemaError> {
        let name = as_written(&s.name);
        let parts = written_parts(s);
        let opts = &s.options;

        let mut key: Option<Key<'a>> = None;
        let mut seen: Vec<&str> = Vec::new();
        let multiple = |span| cx.err(SchemaErrorKind::MultiplePrimaryKeys(name.clone()), span);
        for (_, part) in &parts {
            match part {
                Part::Column(c) => {
                    if seen.contains(&c.name.value.as_str()) {
                        return Err(cx.err(
                            SchemaErrorKind::DuplicateColumn {
                                column: c.name.value.clone(),
                                table: name.clone(),
                            },
                            c.name.span,
                        ));
                    }
                    seen.push(&c.name.value);
                    if c.primary_key {
                        if key.is_some() {
                            return Err(multiple(c.span));
                        }
                        key = Some(Key {
                            partition: vec![&c.name],
                            clustering: Vec::new(),
                        });
                    }
                }
                Part::Key(k) => {
                    if key.is_some() {
                        return Err(multiple(k.span));
                    }
                    key = Some(Key {
                        partition: k.partition_key.iter().collect(),
                        clustering: k.clustering.iter().collect(),
                    });
                }
                Part::Order(i) => check_order_not_repeated(cx, opts, *i, &name)?,
                Part::Property(i) => check_property_not_repeated(cx, opts, *i)?,
            }
        }
        let raws = raw_types(cx, s.columns.iter().map(|c| &c.data_type))?;
        Ok(Self {
            stmt: s,
            name,
            columns: s.columns.iter().zip(raws).collect(),
            key,
            order: opts
                .clustering_order
                .iter()
                .map(|c| (&c.column, c.order))
                .collect(),
        })
    }
}

/// The statement's parts sorted by where they are written.
fn written_parts(s: &CreateTable) -> Vec<(u32, Part<'_>)> {
    let mut parts: Vec<(u32, Part<'_>)> = Vec::new();
    parts.extend(s.columns.iter().map(|c| (c.span.start, Part::Column(c))));
    parts.extend(s.primary_key.iter().map(|k| (k.span.start, Part::Key(k))));
    let opts = &s.options;
    parts.extend(
        opts.clustering_order
            .iter()
            .enumerate()
            .map(|(i, o)| (o.span.start, Part::Order(i))),
    );
    parts.extend(
        opts.properties
            .iter()
            .enumerate()
            .map(|(i, p)| (p.span.start, Part::Property(i))),
    );
    parts.sort_by_key(|(start, _)| *start);
    parts
}

/// The parser refuses a column named twice in CLUSTERING ORDER (at its second mention).
fn check_order_not_repeated(
    cx: &Context<'_>,
    opts: &TableOptions,
    i: usize,
    table: &str,
) -> Result<(), SchemaError> {
    let Some(o) = opts.clustering_order.get(i) else {
        return Ok(());
    };
    if opts
        .clustering_order
        .iter()
        .take(i)
        .any(|p| p.column.value == o.column.value)
    {
        return Err(cx.err(
            SchemaErrorKind::DuplicateClusteringOrder {
                column: o.column.value.clone(),
                table: table.to_string(),
            },
            o.span,
        ));
    }
    Ok(())
}

/// The parser refuses a property set twice (at its second mention).
fn check_property_not_repeated(
    cx: &Context<'_>,
    opts: &TableOptions,
    i: usize,
) -> Result<(), SchemaError> {
    let Some(p) = opts.properties.get(i) else {
        return Ok(());
    };
    if opts
        .properties
        .iter()
        .take(i)
        .any(|q| q.name.value == p.name.value)
    {
        return Err(cx.err(
            SchemaErrorKind::DuplicateProperty(p.name.value.clone()),
            p.name.span,
        ));
    }
    Ok(())
}
