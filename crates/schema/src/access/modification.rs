//! INSERT, UPDATE and DELETE: `ModificationStatement` and its parsed forms,
//! `Operation` (SET clauses) and `ColumnCondition` (IF clauses).

use cqlmodel_cql::ast::{
    AssignmentKind, ColumnRef, Conditions, Delete, InValues, Insert, InsertValues, Operator, Relation,
    RelationKind, Span, Term, TermKind, Update, UsingParam,
};

use super::relation::{Values, undefined_column};
use super::value::check_assignable;
use super::restrictions::{Restrictions, Settings, StatementType as RType};
use super::{AccessKind, AccessPath, Analyzer, ClusteringSlice, QueryError, StatementType};
use crate::model::{ColumnKind, Table};
use crate::types::CqlType;

/// What a batch needs to know about one of its statements.
#[derive(Debug, Clone)]
pub(crate) struct Write<'t> {
    pub table: &'t Table,
    pub is_counter: bool,
    pub has_conditions: bool,
    pub has_timestamp: bool,
    /// The partition keys written, one term list per partition (IN expanded); `None` if unknown.
    pub keys: Option<Vec<Vec<Term>>>,
    pub partitions: Values,
}

pub(super) fn analyze_insert(cx: &Analyzer<'_>, s: &Insert, _span: Span) -> AccessPath {
    finish(StatementType::Insert, cx.table(&s.table), |t| prepare_insert(t, s))
}

pub(super) fn analyze_update(cx: &Analyzer<'_>, s: &Update, _span: Span) -> AccessPath {
    finish(StatementType::Update, cx.table(&s.table), |t| prepare_update(t, s))
}

pub(super) fn analyze_delete(cx: &Analyzer<'_>, s: &Delete, _span: Span) -> AccessPath {
    finish(StatementType::Delete, cx.table(&s.table), |t| prepare_delete(t, s))
}

fn finish<'t>(
    kind: StatementType,
    table: Result<&'t Table, QueryError>,
    prepare: impl FnOnce(&'t Table) -> Result<(Write<'t>, ClusteringSlice), QueryError>,
) -> AccessPath {
    let table = match table {
        Ok(t) => t,
        Err(e) => return AccessPath::invalid(kind, None, e),
    };
    match prepare(table) {
        Ok((write, clustering)) => {
            let (access, partitions) = match write.partitions {
                Values::Known(1) => (AccessKind::SinglePartition, Some(1)),
                Values::Known(n) => (AccessKind::MultiPartition, Some(n)),
                Values::Unknown => (AccessKind::MultiPartition, None),
            };
            AccessPath {
                table: Some(table.qualified_name()),
                kind: access,
                partitions,
                clustering: Some(clustering),
                tables: vec![table.qualified_name()],
                ..AccessPath::new(kind)
            }
        }
        Err(e) => AccessPath::invalid(kind, Some(table.qualified_name()), e),
    }
}

/// The checks and restrictions of a statement, for a batch.
pub(crate) fn prepare_write<'t>(
    cx: &Analyzer<'t>,
    stmt: &cqlmodel_cql::ast::StatementKind,
) -> Result<Write<'t>, QueryError> {
    use cqlmodel_cql::ast::StatementKind as K;
    match stmt {
        K::Insert(s) => prepare_insert(cx.table(&s.table)?, s).map(|w| w.0),
        K::Update(s) => prepare_update(cx.table(&s.table)?, s).map(|w| w.0),
        K::Delete(s) => prepare_delete(cx.table(&s.table)?, s).map(|w| w.0),
        _ => Err(QueryError {
            message: "Only INSERT, UPDATE and DELETE statements are allowed in a BATCH".into(),
            span: Span::default(),
        }),
    }
}

fn err(message: impl Into<String>, span: Span) -> QueryError {
    QueryError {
        message: message.into(),
        span,
    }
}

fn column<'t>(table: &'t Table, name: &cqlmodel_cql::ast::Ident) -> Result<&'t crate::model::Column, QueryError> {
    table
        .column(&name.value)
        .ok_or_else(|| err(undefined_column(table, &name.value), name.span))
}

fn prepare_insert<'t>(table: &'t Table, s: &Insert) -> Result<(Write<'t>, ClusteringSlice), QueryError> {
    let whole = s.table.span;
    check_not_view(table, whole)?;
    if table.is_counter_table() {
        return Err(err("INSERT statements are not allowed on counter tables, use UPDATE instead", whole));
    }
    let (where_clause, only_static) = match &s.values {
        InsertValues::Values { columns, values } => {
            if columns.is_empty() {
                return Err(err("No columns provided to INSERT", whole));
            }
            if columns.len() != values.len() {
                return Err(err("Unmatched column names/values", whole));
            }
            for (i, c) in columns.iter().enumerate() {
                if columns.iter().take(i).any(|d| d.value == c.value) {
                    return Err(err("The column names contains duplicates", c.span));
                }
            }
            let mut relations = Vec::new();
            let mut has_clustering = false;
            let mut regular_set = false;
            for (name, value) in columns.iter().zip(values) {
                let col = column(table, name)?;
                match col.kind {
                    ColumnKind::PartitionKey(_) | ColumnKind::Clustering(..) => {
                        has_clustering |= matches!(col.kind, ColumnKind::Clustering(..));
                        relations.push(Relation {
                            kind: RelationKind::Column {
                                column: name.clone(),
                                op: Operator::Eq,
                                value: value.clone(),
                            },
                            span: name.span.to(value.span),
                        });
                    }
                    ColumnKind::Regular | ColumnKind::Static => {
                        regular_set |= col.kind == ColumnKind::Regular;
                        check_assignable(&col.name, &col.ty, value).map_err(|m| err(m, value.span))?;
                    }
                }
            }
            let static_set = columns
                .iter()
                .any(|c| table.column(&c.value).is_some_and(|c| c.is_static()));
            (relations, !has_clustering && static_set && !regular_set)
        }
        // JSON values are only known at execution: the key is assumed complete.
        InsertValues::Json { .. } => (Vec::new(), false),
    };
    let conditions = s.if_not_exists;
    check_attributes(table, conditions, &s.using, whole)?;
    if matches!(s.values, InsertValues::Json { .. }) {
        let write = Write {
            table,
            is_counter: false,
            has_conditions: conditions,
            has_timestamp: has_timestamp(&s.using),
            keys: None,
            partitions: Values::Known(1),
        };
        return Ok((write, ClusteringSlice { single_row: true, slices: Some(1), ..Default::default() }));
    }
    let r = Restrictions::new(
        table,
        &where_clause,
        Settings {
            statement: RType::Insert,
            allow_filtering: false,
            selects_only_static: only_static,
            for_view: false,
        },
    )?;
    Ok(write_of(table, &r, &where_clause, false, conditions, &s.using))
}

fn prepare_update<'t>(table: &'t Table, s: &Update) -> Result<(Write<'t>, ClusteringSlice), QueryError> {
    let whole = s.table.span;
    check_not_view(table, whole)?;
    let conditional = s.conditions.is_some();
    let mut regular_set = false;
    let mut static_set = false;
    for a in &s.assignments {
        let name = match &a.kind {
            AssignmentKind::Set { target, .. } => target.column(),
            AssignmentKind::SelfOp { column, .. } | AssignmentKind::Prepend { column, .. } => column,
        };
        let col = column(table, name)?;
        if col.is_primary_key() {
            return Err(err(format!("PRIMARY KEY part {} found in SET part", col.name), name.span));
        }
        check_operation(&col.name, &col.ty, &a.kind, a.span)?;
        if let AssignmentKind::Set { target: ColumnRef::Column(_), value } = &a.kind
            && !col.ty.is_counter()
        {
            check_assignable(&col.name, &col.ty, value).map_err(|m| err(m, value.span))?;
        }
        if col.is_static() {
            static_set = true;
        } else {
            regular_set = true;
        }
    }
    check_conditions(table, s.conditions.as_ref())?;
    check_attributes(table, conditional, &s.using, whole)?;
    let only_static = static_set && !regular_set && conditions_only_static(table, s.conditions.as_ref());
    let r = Restrictions::new(
        table,
        &s.where_clause,
        Settings {
            statement: RType::Update,
            allow_filtering: false,
            selects_only_static: only_static,
            for_view: false,
        },
    )?;
    check_in_with_conditions(&r, conditional, "updates", whole)?;
    Ok(write_of(table, &r, &s.where_clause, table.is_counter_table(), conditional, &s.using))
}

fn prepare_delete<'t>(table: &'t Table, s: &Delete) -> Result<(Write<'t>, ClusteringSlice), QueryError> {
    let whole = s.table.span;
    check_not_view(table, whole)?;
    let mut regular = false;
    let mut statics = false;
    for target in &s.columns {
        let name = target.column();
        let col = column(table, name)?;
        if col.is_primary_key() {
            return Err(err(
                format!("Invalid identifier {} for deletion (should not be a PRIMARY KEY part)", col.name),
                name.span,
            ));
        }
        match target {
            ColumnRef::Element(..) if !col.ty.is_collection() => {
                return Err(err(
                    format!("Invalid deletion operation for non collection column {}", col.name),
                    name.span,
                ));
            }
            ColumnRef::Element(..) if !col.ty.is_multi_cell() => {
                return Err(err(
                    format!("Invalid deletion operation for frozen collection column {}", col.name),
                    name.span,
                ));
            }
            ColumnRef::Field(..) if !matches!(col.ty, CqlType::Udt { .. }) => {
                return Err(err(format!("Invalid field deletion operation for non-UDT column {}", col.name), name.span));
            }
            ColumnRef::Field(..) if !col.ty.is_multi_cell() => {
                return Err(err(
                    format!("Frozen UDT column {} does not support field deletions", col.name),
                    name.span,
                ));
            }
            _ => {}
        }
        if col.is_static() {
            statics = true;
        } else {
            regular = true;
        }
    }
    let conditional = s.conditions.is_some();
    check_conditions(table, s.conditions.as_ref())?;
    check_attributes(table, conditional, &s.using, whole)?;
    if s.using.iter().any(|u| matches!(u, UsingParam::Ttl(_))) {
        return Err(err("TTL attribute is not allowed for deletes", whole));
    }
    let only_static = statics && !regular && conditions_only_static(table, s.conditions.as_ref());
    let r = Restrictions::new(
        table,
        &s.where_clause,
        Settings {
            statement: RType::Delete,
            allow_filtering: false,
            selects_only_static: only_static,
            for_view: false,
        },
    )?;
    let full_key = all_pk_by_eq(table, &r);
    if !s.columns.is_empty() && !full_clustering(table, &r) && !only_static {
        return Err(err("Range deletions are not supported for specific columns", whole));
    }
    if conditional && !full_key {
        if !s.columns.is_empty() && regular || s.columns.is_empty() {
            return Err(err(
                "DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to delete non static columns",
                whole,
            ));
        }
        if !conditions_only_static(table, s.conditions.as_ref()) {
            return Err(err(
                "DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to use IF condition on non static columns",
                whole,
            ));
        }
    }
    check_in_with_conditions(&r, conditional, "deletions", whole)?;
    Ok(write_of(table, &r, &s.where_clause, table.is_counter_table(), conditional, &s.using))
}

fn check_not_view(table: &Table, span: Span) -> Result<(), QueryError> {
    if table.is_view() {
        return Err(err("Cannot directly modify a materialized view", span));
    }
    Ok(())
}

fn has_timestamp(using: &[UsingParam]) -> bool {
    using.iter().any(|u| matches!(u, UsingParam::Timestamp(_)))
}

/// `ModificationStatement.validate`: timestamps and TTLs with conditions and counters.
fn check_attributes(table: &Table, conditional: bool, using: &[UsingParam], span: Span) -> Result<(), QueryError> {
    let ts = has_timestamp(using);
    let ttl = using.iter().any(|u| matches!(u, UsingParam::Ttl(_)));
    if conditional && ts {
        return Err(err("Cannot provide custom timestamp for conditional updates", span));
    }
    if table.is_counter_table() && ts {
        return Err(err("Cannot provide custom timestamp for counter updates", span));
    }
    if table.is_counter_table() && ttl {
        return Err(err("Cannot provide custom TTL for counter updates", span));
    }
    Ok(())
}

/// `Operation.RawUpdate.prepare` checks for each SET assignment.
fn check_operation(name: &str, ty: &CqlType, kind: &AssignmentKind, span: Span) -> Result<(), QueryError> {
    let text = || match kind {
        AssignmentKind::Set { target, .. } => match target {
            ColumnRef::Column(c) => c.value.clone(),
            ColumnRef::Element(c, k) => format!("{}[{}] = {}", c.value, k, set_value(kind)),
            ColumnRef::Field(c, f) => format!("{}.{} = {}", c.value, f.value, set_value(kind)),
        },
        AssignmentKind::SelfOp { column, op, value, .. } => format!(
            "{} = {} {} {}",
            column.value,
            column.value,
            if *op == cqlmodel_cql::ast::AssignOp::Add { "+" } else { "-" },
            value
        ),
        // Cassandra echoes a prepend with `-` (sic).
        AssignmentKind::Prepend { column, value } => format!("{} = {} - {}", column.value, value, column.value),
    };
    match kind {
        AssignmentKind::Set { target: ColumnRef::Column(_), .. } => {
            if ty.is_counter() {
                return Err(err(
                    format!("Cannot set the value of counter column {name} (counters can only be incremented/decremented, not set)"),
                    span,
                ));
            }
        }
        AssignmentKind::Set { target: ColumnRef::Element(..), .. } => {
            if !ty.is_collection() {
                return Err(err(format!("Invalid operation ({}) for non collection column {name}", text()), span));
            }
            if !ty.is_multi_cell() {
                return Err(err(format!("Invalid operation ({}) for frozen collection column {name}", text()), span));
            }
            if matches!(ty, CqlType::Set { .. }) {
                return Err(err(format!("Invalid operation ({}) for set column {name}", text()), span));
            }
        }
        AssignmentKind::Set { target: ColumnRef::Field(..), .. } => {
            if !matches!(ty, CqlType::Udt { .. }) {
                return Err(err(format!("Invalid operation ({}) for non-UDT column {name}", text()), span));
            }
            if !ty.is_multi_cell() {
                return Err(err(format!("Invalid operation ({}) for frozen UDT column {name}", text()), span));
            }
        }
        AssignmentKind::SelfOp { op, .. } => {
            let counter_or_collection = ty.is_counter() || (ty.is_collection() && ty.is_multi_cell());
            if !counter_or_collection {
                if ty.is_collection() {
                    return Err(err(format!("Invalid operation ({}) for frozen collection column {name}", text()), span));
                }
                return Err(err(format!("Invalid operation ({}) for non counter column {name}", text()), span));
            }
            if *op == cqlmodel_cql::ast::AssignOp::Sub && matches!(ty, CqlType::Map { .. }) {
                // Map subtraction takes a set of keys: accepted.
            }
        }
        AssignmentKind::Prepend { .. } => {
            if !matches!(ty, CqlType::List { .. }) {
                return Err(err(format!("Invalid operation ({}) for non list column {name}", text()), span));
            }
            if !ty.is_multi_cell() {
                return Err(err(format!("Invalid operation ({}) for frozen list column {name}", text()), span));
            }
        }
    }
    Ok(())
}

/// `ColumnCondition` checks: no conditions on key columns, none on counter tables.
fn check_conditions(table: &Table, conditions: Option<&Conditions>) -> Result<(), QueryError> {
    let Some(conditions) = conditions else { return Ok(()) };
    if let Conditions::If(list) = conditions {
        for c in list {
            let name = c.target.column();
            let col = column(table, name)?;
            if col.ty.is_counter() {
                return Err(err("Conditions on counters are not supported", c.span));
            }
            if let ColumnRef::Column(_) = c.target
                && !matches!(c.op, Operator::In)
            {
                check_assignable(&col.name, &col.ty, &c.value).map_err(|m| err(m, c.value.span))?;
            }
            if col.is_primary_key() {
                return Err(err(format!("PRIMARY KEY column '{}' cannot have IF conditions", col.name), c.span));
            }
        }
    }
    if table.is_counter_table() {
        return Err(err("Conditional updates are not supported on counter tables", Span::default()));
    }
    Ok(())
}

fn conditions_only_static(table: &Table, conditions: Option<&Conditions>) -> bool {
    match conditions {
        None | Some(Conditions::IfExists) => true,
        Some(Conditions::If(list)) => list
            .iter()
            .all(|c| table.column(&c.target.column().value).is_some_and(|c| c.is_static())),
    }
}

/// `IN on the partition key is not supported with conditional updates|deletions`:
/// Cassandra says "deletions" for DELETE and INSERT (sic), "updates" for UPDATE.
fn check_in_with_conditions(r: &Restrictions<'_>, conditional: bool, what: &str, span: Span) -> Result<(), QueryError> {
    if conditional && r.key_is_in_relation() {
        return Err(err(format!("IN on the partition key is not supported with conditional {what}"), span));
    }
    if conditional && r.clustering_restrictions().any(|c| matches!(c.op, super::relation::Op::In(_))) {
        return Err(err(format!("IN on the clustering key columns is not supported with conditional {what}"), span));
    }
    Ok(())
}

fn all_pk_by_eq(table: &Table, r: &Restrictions<'_>) -> bool {
    table
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_primary_key())
        .all(|(i, _)| r.restricted_by_eq(i))
}

fn full_clustering(table: &Table, r: &Restrictions<'_>) -> bool {
    let clustering: Vec<usize> = table
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c.kind, ColumnKind::Clustering(..)))
        .map(|(i, _)| i)
        .collect();
    clustering.iter().all(|c| {
        r.clustering_restrictions()
            .any(|x| x.columns.contains(c) && matches!(x.op, super::relation::Op::Eq | super::relation::Op::In(_)))
    })
}

fn write_of<'t>(
    table: &'t Table,
    r: &Restrictions<'_>,
    where_clause: &[Relation],
    is_counter: bool,
    conditional: bool,
    using: &[UsingParam],
) -> (Write<'t>, ClusteringSlice) {
    let clustering = ClusteringSlice {
        prefix: table
            .clustering()
            .enumerate()
            .filter(|(i, _)| r.clustering.contains_key(i))
            .map(|(_, c)| c.name.clone())
            .collect(),
        range: None,
        slices: None,
        single_row: full_clustering(table, r),
    };
    let write = Write {
        table,
        is_counter,
        has_conditions: conditional,
        has_timestamp: has_timestamp(using),
        keys: partition_keys(table, where_clause),
        partitions: r.partition_count(),
    };
    (write, clustering)
}

/// The partition keys a statement writes, as term lists (IN lists expanded), when
/// every key component is a literal or a named bind marker.
fn partition_keys(table: &Table, where_clause: &[Relation]) -> Option<Vec<Vec<Term>>> {
    let mut keys: Vec<Vec<Term>> = vec![Vec::new()];
    for pk in table.partition_key() {
        let values: Vec<Term> = where_clause.iter().find_map(|r| match &r.kind {
            RelationKind::Column { column, op: Operator::Eq, value } if column.value == pk.name => {
                Some(vec![value.clone()])
            }
            RelationKind::ColumnIn { column, negated: false, values: InValues::List(list) } if column.value == pk.name => {
                Some(list.clone())
            }
            _ => None,
        })?;
        if values
            .iter()
            .any(|v| matches!(v.kind, TermKind::BindMarker(cqlmodel_cql::ast::BindMarker::Anonymous)))
        {
            return None;
        }
        let mut next = Vec::with_capacity(keys.len() * values.len());
        for k in &keys {
            for v in &values {
                let mut k = k.clone();
                k.push(v.clone());
                next.push(k);
            }
        }
        keys = next;
    }
    Some(keys)
}

fn set_value(kind: &AssignmentKind) -> String {
    match kind {
        AssignmentKind::Set { value, .. } | AssignmentKind::SelfOp { value, .. } | AssignmentKind::Prepend { value, .. } => {
            value.to_string()
        }
    }
}
