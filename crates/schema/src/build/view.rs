//! CREATE / ALTER / DROP MATERIALIZED VIEW, in the order of `CreateViewStatement`:
//! the parser (OPT-2, duplicate CLUSTERING ORDER, COMPACT STORAGE), `Raw.prepare`
//! (MV-P1, MV-P2), GEN-3, then `apply`: MV-0 (views are disabled by default in
//! 5.0), the base table, the SELECT clause, the PRIMARY KEY, the WHERE clause and
//! the options. Success carries Cassandra's "experimental" client warning.

use cqlmodel_cql::ast::{
    AlterMaterializedView, CreateMaterializedView, DropObject, Ident, InValues, Order, Relation,
    RelationKind, Selection, SelectorKind, Term, TermKind,
};

use super::names::{as_written, is_valid_chars, maybe_quote, table_display};
use super::properties as props;
use super::table_params::{self, TABLE_PROPERTIES};
use super::{Context, StepResult, WarnResult};
use crate::access::{QueryError, check_view_restrictions};
use crate::error::{SchemaError, SchemaErrorKind, SchemaWarningKind};
use crate::model::{Column, ColumnKind, Origin, Schema, Table, ViewInfo};

pub(super) fn create(
    schema: &mut Schema,
    cx: &Context<'_>,
    s: &CreateMaterializedView,
) -> WarnResult {
    parse_checks(cx, s)?;
    let ks_name = cx.keyspace_of(&s.name)?;
    if s.base_table
        .keyspace
        .as_ref()
        .is_some_and(|k| k.value != ks_name)
    {
        return Err(cx.err(SchemaErrorKind::ViewInOtherKeyspace, s.base_table.span));
    }
    if let Some(r) = s.where_clause.iter().find(|r| has_bind_marker(r)) {
        return Err(cx.err(SchemaErrorKind::ViewBindMarkers, r.span));
    }
    cx.check_keyspace_name(&ks_name, s.name.span)?;
    if !cx.settings.materialized_views_enabled {
        return Err(cx.err(SchemaErrorKind::MaterializedViewsDisabled, cx.origin.span));
    }
    let view_name = s.name.name.value.clone();
    let Some(ks) = schema.keyspaces.get(&ks_name) else {
        return Err(cx.err(SchemaErrorKind::UnknownKeyspace(ks_name), s.name.span));
    };
    let base_name = &s.base_table.name.value;
    // `keyspace.tables` holds no views, so a view as base is "doesn't exist" (MV-5 is unreachable).
    let Some(base) = ks.tables.get(base_name).filter(|t| !t.is_view()) else {
        return Err(cx.err(
            SchemaErrorKind::ViewBaseMissing(base_name.clone()),
            s.base_table.span,
        ));
    };
    match ks.tables.get(&view_name) {
        Some(t) if !t.is_view() => {
            return Err(cx.err(SchemaErrorKind::ViewNameTaken(view_name), s.name.span));
        }
        Some(_) if s.if_not_exists => return Ok(None),
        Some(_) => {
            return Err(cx.err(
                SchemaErrorKind::TableExists {
                    keyspace: ks_name,
                    table: view_name,
                },
                s.name.span,
            ));
        }
        None => {}
    }
    if base.is_counter_table() {
        return Err(cx.err(SchemaErrorKind::ViewOnCounterTable, s.base_table.span));
    }
    if base.options.gc_grace_seconds == Some(0) {
        return Err(cx.err(
            SchemaErrorKind::ViewGcGraceZero {
                view: view_name,
                base: base_name.clone(),
            },
            s.base_table.span,
        ));
    }
    let view = build_view(cx, s, base, &view_name)?;
    let base_name = base_name.clone();
    if let Some(ks) = schema.keyspaces.get_mut(&ks_name) {
        if let Some(b) = ks.tables.get_mut(&base_name) {
            b.views.push(view_name.clone());
        }
        ks.tables.insert(view_name, view);
    }
    Ok(Some(SchemaWarningKind::MaterializedViewsExperimental))
}

/// The parser's checks, which abort the parse: COMPACT STORAGE, a column twice in
/// CLUSTERING ORDER, a property twice.
fn parse_checks(cx: &Context<'_>, s: &CreateMaterializedView) -> Result<(), SchemaError> {
    if s.options.compact_storage {
        return Err(cx.err(SchemaErrorKind::CompactStorageView, cx.origin.span));
    }
    let order = &s.options.clustering_order;
    for (i, o) in order.iter().enumerate() {
        if order
            .iter()
            .take(i)
            .any(|p| p.column.value == o.column.value)
        {
            return Err(cx.err(
                SchemaErrorKind::ViewDuplicateClusteringOrder {
                    column: o.column.value.clone(),
                    view: as_written(&s.name),
                },
                o.span,
            ));
        }
    }
    props::check_duplicates(&s.options.properties).map_err(|e| cx.lift(e))
}

/// `apply` from the SELECT clause on: the checks that need the base table.
fn build_view(
    cx: &Context<'_>,
    s: &CreateMaterializedView,
    base: &Table,
    view_name: &str,
) -> Result<Table, SchemaError> {
    let selected = selected_columns(cx, s, base)?;
    if let Some(c) = selected.iter().find(|c| c.is_static()) {
        return Err(cx.err(
            SchemaErrorKind::ViewStaticColumn {
                column: c.name.clone(),
                view: view_name.to_string(),
            },
            selection_span(&s.selection),
        ));
    }
    let pk = &s.primary_key;
    if pk.partition_key.is_empty() {
        return Err(cx.err(
            SchemaErrorKind::ViewNoPartitionKey(view_name.to_string()),
            pk.span,
        ));
    }
    let key: Vec<&Ident> = pk.partition_key.iter().chain(&pk.clustering).collect();
    let order: Vec<(&Ident, Order)> = s
        .options
        .clustering_order
        .iter()
        .map(|c| (&c.column, c.order))
        .collect();
    check_view_key(cx, s, base, &selected, &key, &order, view_name)?;
    check_where(cx, s, base, &key)?;

    let properties = &s.options.properties;
    props::check_known(properties, TABLE_PROPERTIES).map_err(|e| cx.lift(e))?;
    let params = table_params::build(properties).map_err(|e| cx.lift(e))?;
    table_params::validate(&params).map_err(|e| cx.lift(e))?;
    if params.default_time_to_live != 0 {
        return Err(cx.err(SchemaErrorKind::ViewTtl, s.name.span));
    }
    if !is_valid_chars(view_name) {
        return Err(cx.err(
            SchemaErrorKind::InvalidTableName {
                keyspace: base.keyspace.clone(),
                table: view_name.to_string(),
            },
            s.name.span,
        ));
    }

    Ok(Table {
        keyspace: base.keyspace.clone(),
        name: view_name.to_string(),
        columns: view_columns(cx, s, base, &selected, &key, &order),
        options: table_params::to_model(&params, properties, false),
        indexes: Vec::new(),
        view: Some(ViewInfo {
            base_table: base.name.clone(),
            include_all_columns: matches!(s.selection, Selection::Wildcard(_)),
        }),
        views: Vec::new(),
        origin: cx.origin,
    })
}

/// The view's PRIMARY KEY against its base, in Cassandra's order: each key
/// column, the CLUSTERING ORDER, every base key column present, and at most one
/// base regular column in the key.
fn check_view_key(
    cx: &Context<'_>,
    s: &CreateMaterializedView,
    base: &Table,
    selected: &[&Column],
    key: &[&Ident],
    order: &[(&Ident, Order)],
    view_name: &str,
) -> Result<(), SchemaError> {
    let pk = &s.primary_key;
    for (i, ident) in key.iter().enumerate() {
        check_key_column(cx, base, selected, &key[..i], ident, view_name)?;
    }
    let order_matches = order.len() == pk.clustering.len()
        && order
            .iter()
            .zip(&pk.clustering)
            .all(|((o, _), c)| o.value == c.value);
    if !order.is_empty() && !order_matches {
        return Err(cx.err(SchemaErrorKind::ViewClusteringOrder, pk.span));
    }
    let missing: Vec<String> = base
        .columns
        .iter()
        .filter(|c| c.is_primary_key() && !key.iter().any(|k| k.value == c.name))
        .map(|c| c.name.clone())
        .collect();
    if !missing.is_empty() {
        return Err(cx.err(
            SchemaErrorKind::ViewMissingBaseKey {
                view: view_name.to_string(),
                columns: missing,
                base: base.name.clone(),
            },
            pk.span,
        ));
    }
    // Divergence: Cassandra lists these from a HashSet; cqlmodel keeps the view's key order.
    let regular_in_key: Vec<String> = key
        .iter()
        .filter(|k| base.column(&k.value).is_some_and(|c| !c.is_primary_key()))
        .map(|k| k.value.clone())
        .collect();
    if regular_in_key.len() > 1 {
        return Err(cx.err(
            SchemaErrorKind::ViewTooManyNonKeyColumns(regular_in_key),
            pk.span,
        ));
    }
    Ok(())
}

/// The view's columns: partition key, clustering (with its order), then the
/// selected base columns outside the key, as regular columns in base order.
fn view_columns(
    cx: &Context<'_>,
    s: &CreateMaterializedView,
    base: &Table,
    selected: &[&Column],
    key: &[&Ident],
    order: &[(&Ident, Order)],
) -> Vec<Column> {
    let pk = &s.primary_key;
    let in_key = |name: &str| key.iter().any(|k| k.value == name);
    let mut columns = Vec::new();
    let origin = |ident: &Ident| Origin {
        file: cx.file,
        span: ident.span,
    };
    for (i, ident) in pk.partition_key.iter().enumerate() {
        if let Some(c) = base.column(&ident.value) {
            columns.push(Column {
                kind: ColumnKind::PartitionKey(i),
                origin: origin(ident),
                ..c.clone()
            });
        }
    }
    for (i, ident) in pk.clustering.iter().enumerate() {
        let ord = order
            .iter()
            .find(|(o, _)| o.value == ident.value)
            .map_or(Order::Asc, |(_, o)| *o);
        if let Some(c) = base.column(&ident.value) {
            columns.push(Column {
                kind: ColumnKind::Clustering(i, ord),
                origin: origin(ident),
                ..c.clone()
            });
        }
    }
    for c in &base.columns {
        if selected.iter().any(|s| s.name == c.name) && !in_key(&c.name) {
            columns.push(Column {
                kind: ColumnKind::Regular,
                ..c.clone()
            });
        }
    }
    columns
}

/// The SELECT clause: MV-7, MV-8, then each column must exist in the base table.
fn selected_columns<'t>(
    cx: &Context<'_>,
    s: &CreateMaterializedView,
    base: &'t Table,
) -> Result<Vec<&'t Column>, SchemaError> {
    let selectors = match &s.selection {
        Selection::Wildcard(_) => return Ok(base.columns.iter().collect()),
        Selection::Selectors(sels) => sels,
    };
    let mut out = Vec::with_capacity(selectors.len());
    for sel in selectors {
        if let Some(alias) = &sel.alias {
            // Divergence: Cassandra prints the raw selector object here; cqlmodel prints the alias.
            return Err(cx.err(SchemaErrorKind::ViewAlias(alias.value.clone()), sel.span));
        }
        let SelectorKind::Column(name) = &sel.kind else {
            return Err(cx.err(
                SchemaErrorKind::ViewSelectorNotColumn(sel.to_string()),
                sel.span,
            ));
        };
        let Some(column) = base.column(&name.value) else {
            return Err(cx.err(
                SchemaErrorKind::UnknownColumn {
                    column: maybe_quote(&name.value),
                    table: table_display(&base.keyspace, &base.name),
                },
                name.span,
            ));
        };
        out.push(column);
    }
    Ok(out)
}

/// MV-PK1, MV-PK2, MV-9 … MV-12 for one column of the view's PRIMARY KEY.
fn check_key_column(
    cx: &Context<'_>,
    base: &Table,
    selected: &[&Column],
    before: &[&Ident],
    ident: &Ident,
    view: &str,
) -> Result<(), SchemaError> {
    let name = &ident.value;
    let err = |kind| Err(cx.err(kind, ident.span));
    let Some(column) = base
        .column(name)
        .filter(|c| selected.iter().any(|s| s.name == c.name))
    else {
        return err(SchemaErrorKind::ViewUnknownKeyColumn {
            column: name.clone(),
            view: view.to_string(),
        });
    };
    if before.iter().any(|b| b.value == *name) {
        return err(SchemaErrorKind::ViewDuplicateKeyColumn {
            column: name.clone(),
            view: view.to_string(),
        });
    }
    let ty = &column.ty;
    if ty.is_multi_cell() {
        let marshal = ty.marshal_class();
        return err(if ty.is_collection() {
            SchemaErrorKind::ViewNonFrozenCollectionKey {
                ty: marshal,
                column: name.clone(),
            }
        } else {
            SchemaErrorKind::ViewNonFrozenUdtKey {
                ty: marshal,
                column: name.clone(),
            }
        });
    }
    if ty.is_counter() {
        return err(SchemaErrorKind::CounterInPrimaryKey(name.clone()));
    }
    if ty.references_duration() {
        return err(SchemaErrorKind::DurationInPrimaryKey(name.clone()));
    }
    Ok(())
}

/// The WHERE clause: MV-16, the restrictions of a SELECT, MV-18, MV-19.
fn check_where(
    cx: &Context<'_>,
    s: &CreateMaterializedView,
    base: &Table,
    key: &[&Ident],
) -> Result<(), SchemaError> {
    if let Some(r) = s
        .where_clause
        .iter()
        .find(|r| matches!(r.kind, RelationKind::Token { .. }))
    {
        return Err(cx.err(SchemaErrorKind::ViewTokenRelation, r.span));
    }
    if let Err(QueryError { message, span }) = check_view_restrictions(base, &s.where_clause) {
        return Err(cx.err(SchemaErrorKind::ViewRestriction(message), span));
    }
    let restricted = |name: &str| {
        s.where_clause
            .iter()
            .any(|r| relation_columns(r).contains(&name))
    };
    // Divergence: Cassandra lists these from a HashSet; cqlmodel keeps the view's key order.
    let unrestricted: Vec<String> = key
        .iter()
        .filter(|k| !restricted(&k.value))
        .map(|k| k.value.clone())
        .collect();
    if !unrestricted.is_empty() {
        return Err(cx.err(
            SchemaErrorKind::ViewUnrestrictedKey(unrestricted),
            s.primary_key.span,
        ));
    }
    let mut illegal: Vec<String> = Vec::new();
    for r in &s.where_clause {
        if matches!(r.kind, RelationKind::IsNotNull { .. }) {
            continue;
        }
        for name in relation_columns(r) {
            let non_key = base.column(name).is_some_and(|c| !c.is_primary_key());
            if non_key && !illegal.iter().any(|n| n == name) {
                illegal.push(name.to_string());
            }
        }
    }
    if !illegal.is_empty() {
        return Err(cx.err(
            SchemaErrorKind::ViewIllegalRestriction(illegal),
            cx.origin.span,
        ));
    }
    Ok(())
}

fn selection_span(selection: &Selection) -> cqlmodel_cql::ast::Span {
    match selection {
        Selection::Wildcard(span) => *span,
        Selection::Selectors(sels) => sels.first().map(|s| s.span).unwrap_or_default(),
    }
}

fn relation_columns(r: &Relation) -> Vec<&str> {
    match &r.kind {
        RelationKind::Column { column, .. }
        | RelationKind::ColumnIn { column, .. }
        | RelationKind::MapEntry { column, .. }
        | RelationKind::IsNotNull { column } => vec![column.value.as_str()],
        RelationKind::MultiColumn { columns, .. }
        | RelationKind::MultiColumnIn { columns, .. }
        | RelationKind::Token { columns, .. } => columns.iter().map(|c| c.value.as_str()).collect(),
    }
}

fn has_bind_marker(r: &Relation) -> bool {
    fn term(t: &Term) -> bool {
        match &t.kind {
            TermKind::BindMarker(_) => true,
            TermKind::Literal(_) => false,
            TermKind::List(items) | TermKind::Set(items) | TermKind::Tuple(items) => {
                items.iter().any(term)
            }
            TermKind::Map(entries) => entries.iter().any(|(k, v)| term(k) || term(v)),
            TermKind::Udt(fields) => fields.iter().any(|(_, v)| term(v)),
            TermKind::FunctionCall { args, .. } => args.iter().any(term),
            TermKind::TypeHint { term: t, .. } | TermKind::Negate(t) => term(t),
            TermKind::Binary { left, right, .. } => term(left) || term(right),
        }
    }
    let values = |v: &InValues| match v {
        InValues::List(items) => items.iter().any(term),
        InValues::Marker(_) => true,
    };
    match &r.kind {
        RelationKind::Column { value, .. }
        | RelationKind::MultiColumn { value, .. }
        | RelationKind::Token { value, .. } => term(value),
        RelationKind::MapEntry { key, value, .. } => term(key) || term(value),
        RelationKind::ColumnIn { values: v, .. }
        | RelationKind::MultiColumnIn { values: v, .. } => values(v),
        RelationKind::IsNotNull { .. } => false,
    }
}

pub(super) fn alter(
    schema: &mut Schema,
    cx: &Context<'_>,
    s: &AlterMaterializedView,
) -> StepResult {
    props::check_duplicates(&s.options.properties).map_err(|e| cx.lift(e))?;
    let ks_name = cx.keyspace_of(&s.name)?;
    cx.check_keyspace_name(&ks_name, s.name.span)?;
    let Some(view) = schema
        .keyspaces
        .get_mut(&ks_name)
        .and_then(|k| k.tables.get_mut(&s.name.name.value))
        .filter(|t| t.is_view())
    else {
        if s.if_exists {
            return Ok(());
        }
        return Err(cx.err(
            SchemaErrorKind::UnknownView {
                keyspace: ks_name,
                name: s.name.name.value.clone(),
            },
            s.name.span,
        ));
    };
    let properties = &s.options.properties;
    props::check_known(properties, TABLE_PROPERTIES).map_err(|e| cx.lift(e))?;
    let merged = table_params::merge(&view.options, properties);
    let params = table_params::build(&merged).map_err(|e| cx.lift(e))?;
    table_params::validate(&params).map_err(|e| cx.lift(e))?;
    if props::find(properties, "default_time_to_live").is_some() && params.default_time_to_live > 0
    {
        return Err(cx.err(SchemaErrorKind::AlterViewTtl, s.name.span));
    }
    view.options = table_params::to_model(&params, &merged, false);
    Ok(())
}

pub(super) fn drop(schema: &mut Schema, cx: &Context<'_>, s: &DropObject) -> StepResult {
    let ks_name = cx.keyspace_of(&s.name)?;
    cx.check_keyspace_name(&ks_name, s.name.span)?;
    let name = &s.name.name.value;
    let info = schema
        .keyspaces
        .get(&ks_name)
        .and_then(|ks| ks.tables.get(name))
        .and_then(|t| t.view.clone());
    match (schema.keyspaces.get_mut(&ks_name), info) {
        (Some(ks), Some(info)) => {
            ks.tables.remove(name);
            if let Some(base) = ks.tables.get_mut(&info.base_table) {
                base.views.retain(|v| v != name);
            }
            Ok(())
        }
        _ if s.if_exists => Ok(()),
        _ => Err(cx.err(
            SchemaErrorKind::UnknownView {
                keyspace: ks_name,
                name: name.clone(),
            },
            s.name.span,
        )),
    }
}
