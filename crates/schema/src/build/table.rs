//! CREATE TABLE and DROP TABLE, validated in the order of Cassandra's
//! `CreateTableStatement` (raw statement checks, then `builder`).

use std::collections::{BTreeMap, BTreeSet};

use cqlmodel_cql::ast::{ColumnDef, CreateTable, DropObject, Ident, Order, Span};

use super::udt::SchemaTypes;
use super::{Context, StepResult, options};
use crate::error::{SchemaError, SchemaErrorKind};
use crate::model::{Column, ColumnKind, Origin, Schema, Table, TableOptions};
use crate::resolve::resolve_type;
use crate::types::CqlType;

/// Table properties Cassandra 5.0 accepts (`TableParams.Option`, plus `id`).
/// The 3.x read-repair chances were removed in 4.0.
pub(crate) const TABLE_PROPERTIES: &[&str] = &[
    "additional_write_policy",
    "allow_auto_snapshot",
    "bloom_filter_fp_chance",
    "caching",
    "cdc",
    "comment",
    "compaction",
    "compression",
    "crc_check_chance",
    "default_time_to_live",
    "extensions",
    "gc_grace_seconds",
    "id",
    "incremental_backups",
    "max_index_interval",
    "memtable",
    "memtable_flush_period_in_ms",
    "min_index_interval",
    "read_repair",
    "speculative_retry",
];

pub(super) fn create(schema: &mut Schema, cx: &Context<'_>, s: &CreateTable) -> StepResult {
    let ks_name = cx.keyspace_of(&s.name)?;
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
    let table = TableDraft::from_ast(cx, s, &table_name)?.build(schema, cx, &ks_name, &table_name)?;
    if let Some(ks) = schema.keyspaces.get_mut(&ks_name) {
        ks.tables.insert(table_name, table);
    }
    Ok(())
}

pub(super) fn drop(schema: &mut Schema, cx: &Context<'_>, s: &DropObject) -> StepResult {
    let ks_name = cx.keyspace_of(&s.name)?;
    let name = &s.name.name.value;
    let Some(ks) = schema.keyspaces.get_mut(&ks_name) else {
        if s.if_exists {
            return Ok(());
        }
        return Err(cx.err(SchemaErrorKind::UnknownKeyspace(ks_name), s.name.span));
    };
    match ks.tables.get(name) {
        None if s.if_exists => Ok(()),
        None => Err(cx.err(
            SchemaErrorKind::UnknownTable {
                keyspace: ks_name,
                table: name.clone(),
            },
            s.name.span,
        )),
        Some(t) if t.is_view() => Err(cx.err(
            SchemaErrorKind::InvalidAlter(
                "Cannot use DROP TABLE on a materialized view. Please use DROP MATERIALIZED VIEW instead.".into(),
            ),
            s.name.span,
        )),
        Some(t) if !t.views.is_empty() => Err(cx.err(
            SchemaErrorKind::InvalidAlter(format!(
                "Cannot drop a table when materialized views still depend on it ({}.{{{}}})",
                ks_name,
                t.views.join(", ")
            )),
            s.name.span,
        )),
        Some(_) => {
            ks.tables.remove(name);
            Ok(())
        }
    }
}

/// The raw statement after `CreateTableStatement.Raw` has collected it.
struct TableDraft<'a> {
    columns: Vec<&'a ColumnDef>,
    partition_key: Vec<&'a Ident>,
    clustering: Vec<&'a Ident>,
    statics: BTreeSet<&'a str>,
    stmt: &'a CreateTable,
}

impl<'a> TableDraft<'a> {
    fn from_ast(cx: &Context<'_>, s: &'a CreateTable, table: &str) -> Result<Self, SchemaError> {
        let mut seen = BTreeSet::new();
        let mut statics = BTreeSet::new();
        let mut inline_keys = Vec::new();
        for col in &s.columns {
            if !seen.insert(col.name.value.as_str()) {
                return Err(cx.err(
                    SchemaErrorKind::DuplicateColumn {
                        column: col.name.value.clone(),
                        table: table.to_string(),
                    },
                    col.name.span,
                ));
            }
            if col.is_static {
                statics.insert(col.name.value.as_str());
            }
            if col.primary_key {
                inline_keys.push(col);
            }
        }
        let key_count = inline_keys.len() + usize::from(s.primary_key.is_some());
        if key_count > 1 {
            let span = s
                .primary_key
                .as_ref()
                .map_or_else(|| inline_keys.last().map_or(s.name.span, |c| c.span), |pk| pk.span);
            return Err(cx.err(SchemaErrorKind::MultiplePrimaryKeys, span));
        }
        let (partition_key, clustering) = match (&s.primary_key, inline_keys.first()) {
            (Some(pk), _) => (pk.partition_key.iter().collect(), pk.clustering.iter().collect()),
            (None, Some(col)) => (vec![&col.name], Vec::new()),
            (None, None) => {
                return Err(cx.err(SchemaErrorKind::NoPrimaryKey(table.to_string()), s.name.span));
            }
        };
        Ok(Self {
            columns: s.columns.iter().collect(),
            partition_key,
            clustering,
            statics,
            stmt: s,
        })
    }

    fn build(
        self,
        schema: &Schema,
        cx: &Context<'_>,
        keyspace: &str,
        table: &str,
    ) -> Result<Table, SchemaError> {
        let s = self.stmt;
        let opts = table_options(cx, &s.options)?;

        // Cassandra resolves column types in the byte order of their names.
        let mut by_name: Vec<&ColumnDef> = self.columns.clone();
        by_name.sort_by(|a, b| a.name.value.as_bytes().cmp(b.name.value.as_bytes()));
        let mut types: BTreeMap<&str, CqlType> = BTreeMap::new();
        for col in &by_name {
            let ty = resolve_type(&col.data_type, keyspace, &SchemaTypes(schema))
                .map_err(|(k, sp)| cx.err(k, sp))?;
            types.insert(col.name.value.as_str(), ty);
        }
        for col in &by_name {
            if let Some(CqlType::Udt { def, frozen: false }) = types.get(col.name.value.as_str())
                && def.fields.iter().any(|(_, t)| t.is_multi_cell())
            {
                return Err(cx.err(
                    SchemaErrorKind::NonFrozenUdtWithNonFrozenCollection,
                    col.data_type.span,
                ));
            }
        }

        let mut pk_seen = BTreeSet::new();
        for ident in self.partition_key.iter().chain(self.clustering.iter()) {
            let name = ident.value.as_str();
            let Some(ty) = types.get(name) else {
                return Err(cx.err(
                    SchemaErrorKind::UnknownPrimaryKeyColumn {
                        column: name.to_string(),
                        table: table.to_string(),
                    },
                    ident.span,
                ));
            };
            if !pk_seen.insert(name) {
                return Err(cx.err(
                    SchemaErrorKind::DuplicatePrimaryKeyColumn {
                        column: name.to_string(),
                        table: table.to_string(),
                    },
                    ident.span,
                ));
            }
            check_key_type(cx, name, ty, ident.span)?;
            if self.statics.contains(name) {
                return Err(cx.err(SchemaErrorKind::StaticInPrimaryKey(name.to_string()), ident.span));
            }
        }

        let order: Vec<(&Ident, Order)> = s
            .options
            .clustering_order
            .iter()
            .map(|c| (&c.column, c.order))
            .collect();
        check_clustering_order(cx, &order, &self.clustering)?;

        if s.options.compact_storage {
            return Err(cx.err(SchemaErrorKind::CompactStorage, s.name.span));
        }
        if !self.statics.is_empty() && self.clustering.is_empty() {
            let span = self
                .columns
                .iter()
                .find(|c| c.is_static)
                .map_or(s.name.span, |c| c.span);
            return Err(cx.err(SchemaErrorKind::StaticWithoutClustering, span));
        }

        let is_key = |n: &str| pk_seen.contains(n);
        let has_counters = types.values().any(CqlType::is_counter);
        if has_counters {
            if let Some(col) = by_name.iter().find(|c| {
                !is_key(&c.name.value) && types.get(c.name.value.as_str()).is_some_and(|t| !t.is_counter())
            }) {
                return Err(cx.err(SchemaErrorKind::CounterMixed, col.span));
            }
            if opts.default_time_to_live.is_some_and(|t| t > 0) {
                return Err(cx.err(SchemaErrorKind::CounterWithTtl, s.name.span));
            }
        }

        let mut columns = Vec::with_capacity(self.columns.len());
        let origin_of = |span: Span| Origin { file: cx.file, span };
        let column = |ident: &Ident, kind: ColumnKind, masked: bool, span: Span| -> Column {
            Column {
                name: ident.value.clone(),
                ty: types.get(ident.value.as_str()).cloned().unwrap_or(CqlType::Custom(String::new())),
                kind,
                masked,
                origin: origin_of(span),
            }
        };
        let def_of = |name: &str| self.columns.iter().find(|c| c.name.value == name);
        for (i, ident) in self.partition_key.iter().enumerate() {
            let def = def_of(&ident.value);
            columns.push(column(
                ident,
                ColumnKind::PartitionKey(i),
                def.is_some_and(|d| d.mask.is_some()),
                def.map_or(ident.span, |d| d.span),
            ));
        }
        for (i, ident) in self.clustering.iter().enumerate() {
            let def = def_of(&ident.value);
            let ord = order
                .iter()
                .find(|(c, _)| c.value == ident.value)
                .map_or(Order::Asc, |(_, o)| *o);
            columns.push(column(
                ident,
                ColumnKind::Clustering(i, ord),
                def.is_some_and(|d| d.mask.is_some()),
                def.map_or(ident.span, |d| d.span),
            ));
        }
        for def in &self.columns {
            if is_key(&def.name.value) {
                continue;
            }
            let kind = if def.is_static {
                ColumnKind::Static
            } else {
                ColumnKind::Regular
            };
            columns.push(column(&def.name, kind, def.mask.is_some(), def.span));
        }
        Ok(Table {
            keyspace: keyspace.to_string(),
            name: table.to_string(),
            columns,
            options: opts,
            indexes: Vec::new(),
            view: None,
            views: Vec::new(),
            origin: cx.origin,
        })
    }
}

/// The checks `CreateTableStatement.builder` makes on each PRIMARY KEY column's type.
pub(crate) fn check_key_type(cx: &Context<'_>, name: &str, ty: &CqlType, span: Span) -> Result<(), SchemaError> {
    if ty.is_multi_cell() {
        let kind = if ty.is_collection() {
            SchemaErrorKind::NonFrozenCollectionInPrimaryKey {
                ty: ty.to_string(),
                column: name.to_string(),
            }
        } else {
            SchemaErrorKind::NonFrozenUdtInPrimaryKey {
                ty: ty.to_string(),
                column: name.to_string(),
            }
        };
        return Err(cx.err(kind, span));
    }
    if ty.is_counter() {
        return Err(cx.err(SchemaErrorKind::CounterInPrimaryKey(name.to_string()), span));
    }
    if references_duration(ty) {
        return Err(cx.err(SchemaErrorKind::DurationInPrimaryKey(name.to_string()), span));
    }
    Ok(())
}

fn references_duration(ty: &CqlType) -> bool {
    match ty {
        CqlType::Native(n) => *n == cqlmodel_cql::ast::NativeType::Duration,
        CqlType::List { element, .. } | CqlType::Set { element, .. } | CqlType::Vector { element, .. } => {
            references_duration(element)
        }
        CqlType::Map { key, value, .. } => references_duration(key) || references_duration(value),
        CqlType::Tuple(items) => items.iter().any(references_duration),
        CqlType::Udt { def, .. } => def.fields.iter().any(|(_, t)| references_duration(t)),
        CqlType::Custom(_) => false,
    }
}

pub(crate) fn check_clustering_order(
    cx: &Context<'_>,
    order: &[(&Ident, Order)],
    clustering: &[&Ident],
) -> Result<(), SchemaError> {
    if order.len() > clustering.len() {
        let span = order.last().map_or(Span::default(), |(c, _)| c.span);
        return Err(cx.err(SchemaErrorKind::ClusteringOrderNotClustering, span));
    }
    for (n, (id, _)) in order.iter().enumerate() {
        let Some(expected) = clustering.get(n) else { break };
        if id.value != expected.value {
            if order.iter().any(|(c, _)| c.value == expected.value) {
                return Err(cx.err(
                    SchemaErrorKind::ClusteringOrderWrongOrder {
                        expected: expected.value.clone(),
                        found: id.value.clone(),
                    },
                    id.span,
                ));
            }
            return Err(cx.err(SchemaErrorKind::ClusteringOrderMissing(expected.value.clone()), id.span));
        }
    }
    Ok(())
}

/// Decodes the `WITH` properties of a table or view.
pub(crate) fn table_options(
    cx: &Context<'_>,
    opts: &cqlmodel_cql::ast::TableOptions,
) -> Result<TableOptions, SchemaError> {
    let props = &opts.properties;
    options::check_names(props, TABLE_PROPERTIES).map_err(|(k, sp)| cx.err(k, sp))?;
    let non_negative = |name: &str| -> Result<Option<u64>, SchemaError> {
        let Some(p) = options::find(props, name) else {
            return Ok(None);
        };
        let v = options::integer(p).map_err(|(k, sp)| cx.err(k, sp))?;
        u64::try_from(v).map(Some).map_err(|_| {
            cx.err(
                SchemaErrorKind::InvalidProperty(format!("{name} must be greater than or equal to 0 (got {v})")),
                p.value.span,
            )
        })
    };
    let default_time_to_live = non_negative("default_time_to_live")?;
    if let Some(ttl) = default_time_to_live
        && ttl > 630_720_000
    {
        return Err(cx.err(
            SchemaErrorKind::InvalidProperty(format!(
                "default_time_to_live must be less than or equal to 630720000 (got {ttl})"
            )),
            options::find(props, "default_time_to_live").map_or(Span::default(), |p| p.value.span),
        ));
    }
    let gc_grace_seconds = non_negative("gc_grace_seconds")?;
    let compaction = match options::find(props, "compaction") {
        None => None,
        Some(p) => {
            let Some(mut map) = options::map(&p.value) else {
                return Err(cx.err(
                    SchemaErrorKind::InvalidProperty("Invalid value for property 'compaction'. It should be a map.".into()),
                    p.value.span,
                ));
            };
            let Some(class) = map.remove("class") else {
                return Err(cx.err(
                    SchemaErrorKind::InvalidProperty("Missing sub-option 'class' for the 'compaction' option.".into()),
                    p.value.span,
                ));
            };
            Some(crate::model::Compaction { class, options: map })
        }
    };
    let comment = options::find(props, "comment").and_then(|p| options::constant(&p.value));
    Ok(TableOptions {
        default_time_to_live,
        gc_grace_seconds,
        compaction,
        comment,
        compact_storage: opts.compact_storage,
        raw: props.iter().map(|p| (p.name.value.clone(), p.value.clone())).collect(),
    })
}
