//! INSERT, UPDATE and DELETE, in the order of `ModificationStatement.Parsed.prepare`:
//! the parser (UPD-4), the table (DML-1, DML-2), the IF clause (CND-*), the
//! statement's own checks and its WHERE restrictions, the constructor (CND-11,
//! CND-12), DEL-5 / DEL-6, then `validate` (DML-V*). The errors Cassandra only
//! raises while executing, but that follow from the literals alone (CND-E*,
//! DEL-2, EXE-3/EXE-4), are kept apart so that a batch can order them after its
//! own checks.

use cqlmodel_cql::ast::{
    AssignmentKind, Delete, InValues, Insert, InsertValues, Literal, Operator, Relation,
    RelationKind, Span, Term, TermKind, Update, UsingParam,
};

use super::condition::{ConditionColumns, prepare_conditions};
use super::operation::{check_compatible, prepare_deletion, prepare_update};
use super::relation::{Op, Values, undefined_column};
use super::restrictions::{Restrictions, Settings, StatementType as RType};
use super::value::check_assignable;
use super::{AccessKind, AccessPath, Analyzer, ClusteringSlice, QueryError, StatementType};
use crate::model::{Column, ColumnKind, Table};

/// `Attributes.MAX_TTL`.
const MAX_TTL: i64 = 630_720_000;

/// A prepared INSERT / UPDATE / DELETE: what a batch needs to know about it, and
/// the errors Cassandra raises after preparing it.
#[derive(Debug, Clone)]
pub(crate) struct Write<'t> {
    pub table: &'t Table,
    pub kind: RType,
    pub is_counter: bool,
    pub has_conditions: bool,
    pub has_timestamp: bool,
    /// The partition keys written, one term list per partition (IN expanded); `None` if unknown.
    pub keys: Option<Vec<Vec<Term>>>,
    pub partitions: Values,
    /// IN on the partition key / on a clustering column (`keyIsInRelation`, `clusteringKeyRestrictionsHasIN`).
    pub key_in: bool,
    pub clustering_in: bool,
    pub clustering: ClusteringSlice,
    /// `ModificationStatement.validate`: DML-V2 … DML-V4.
    pub validate_error: Option<QueryError>,
    /// EXE-3 / EXE-4: a literal TTL out of range.
    pub ttl_error: Option<QueryError>,
    /// DEL-2: a deletion of specific columns over a range of rows.
    pub range_deletion_error: Option<QueryError>,
    pub span: Span,
}

impl Write<'_> {
    /// "updates" for UPDATE, "deletions" otherwise (sic: INSERT too).
    pub fn conditional_word(&self) -> &'static str {
        if self.kind == RType::Update {
            "updates"
        } else {
            "deletions"
        }
    }

    /// The first error of the statement run alone: prepare errors are returned
    /// by `prepare_*`; this adds `validate` and the execution checks.
    fn first_error(&self) -> Option<QueryError> {
        if let Some(e) = &self.validate_error {
            return Some(e.clone());
        }
        let err = |message: String| QueryError {
            message,
            span: self.span,
        };
        if self.has_conditions {
            // `makeCasRequest`.
            if self.key_in {
                return Some(err(format!(
                    "IN on the partition key is not supported with conditional {}",
                    self.conditional_word()
                )));
            }
            if self.clustering_in {
                return Some(err(format!(
                    "IN on the clustering key columns is not supported with conditional {}",
                    self.conditional_word()
                )));
            }
            return self.ttl_error.clone();
        }
        self.ttl_error
            .clone()
            .or_else(|| self.range_deletion_error.clone())
    }
}

pub(super) fn analyze_insert(cx: &Analyzer<'_>, s: &Insert, span: Span) -> AccessPath {
    finish(StatementType::Insert, cx.table(&s.table), |t| {
        prepare_insert(t, s, span)
    })
}

pub(super) fn analyze_update(cx: &Analyzer<'_>, s: &Update, span: Span) -> AccessPath {
    if let Err(e) = check_compatible(&s.assignments) {
        return AccessPath::invalid(StatementType::Update, None, e);
    }
    finish(StatementType::Update, cx.table(&s.table), |t| {
        prepare_update_statement(t, s, span)
    })
}

pub(super) fn analyze_delete(cx: &Analyzer<'_>, s: &Delete, span: Span) -> AccessPath {
    finish(StatementType::Delete, cx.table(&s.table), |t| {
        prepare_delete(t, s, span)
    })
}

fn finish<'t>(
    kind: StatementType,
    table: Result<&'t Table, QueryError>,
    prepare: impl FnOnce(&'t Table) -> Result<Write<'t>, QueryError>,
) -> AccessPath {
    let table = match table {
        Ok(t) => t,
        Err(e) => return AccessPath::invalid(kind, None, e),
    };
    let name = table.qualified_name();
    let write = match prepare(table) {
        Ok(w) => w,
        Err(e) => return AccessPath::invalid(kind, Some(name), e),
    };
    if let Some(e) = write.first_error() {
        return AccessPath::invalid(kind, Some(name), e);
    }
    let (access, partitions) = match write.partitions {
        Values::Known(1) => (AccessKind::SinglePartition, Some(1)),
        Values::Known(n) => (AccessKind::MultiPartition, Some(n)),
        Values::Unknown => (AccessKind::MultiPartition, None),
    };
    AccessPath {
        table: Some(name.clone()),
        kind: access,
        partitions,
        clustering: Some(write.clustering),
        tables: vec![name],
        ..AccessPath::new(kind)
    }
}

/// Prepares a statement of a batch (steps up to DEL-5 / DEL-6; the rest is in the `Write`).
pub(crate) fn prepare_write<'t>(
    cx: &Analyzer<'t>,
    stmt: &cqlmodel_cql::ast::Statement,
) -> Result<Write<'t>, QueryError> {
    use cqlmodel_cql::ast::StatementKind as K;
    match &stmt.kind {
        K::Insert(s) => prepare_insert(cx.table(&s.table)?, s, stmt.span),
        K::Update(s) => {
            check_compatible(&s.assignments)?;
            prepare_update_statement(cx.table(&s.table)?, s, stmt.span)
        }
        K::Delete(s) => prepare_delete(cx.table(&s.table)?, s, stmt.span),
        _ => Err(err(
            "Only INSERT, UPDATE and DELETE statements are allowed in a BATCH",
            stmt.span,
        )),
    }
}

fn err(message: impl Into<String>, span: Span) -> QueryError {
    QueryError {
        message: message.into(),
        span,
    }
}

fn column<'t>(table: &'t Table, name: &cqlmodel_cql::ast::Ident) -> Result<&'t Column, QueryError> {
    table
        .column(&name.value)
        .ok_or_else(|| err(undefined_column(table, &name.value), name.span))
}

fn prepare_insert<'t>(table: &'t Table, s: &Insert, span: Span) -> Result<Write<'t>, QueryError> {
    let whole = s.table.span;
    if table.is_counter_table() {
        return Err(err(
            "INSERT statements are not allowed on counter tables, use UPDATE instead",
            whole,
        ));
    }
    let (columns, values) = match &s.values {
        InsertValues::Values { columns, values } => (columns, values),
        // JSON values are only known at execution: the key is assumed complete.
        InsertValues::Json { .. } => {
            let mut write = new_write(table, RType::Insert, s.if_not_exists, &s.using, span);
            constructor_checks(table, s.if_not_exists, &s.using, whole)?;
            write.validate_error = validate(table, &s.using, whole);
            return Ok(write);
        }
    };
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
    let mut clustering_given = false;
    let mut ops = ConditionColumns::default();
    for (name, value) in columns.iter().zip(values) {
        let col = column(table, name)?;
        match col.kind {
            ColumnKind::PartitionKey(_) | ColumnKind::Clustering(..) => {
                clustering_given |= matches!(col.kind, ColumnKind::Clustering(..));
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
                check_assignable(&col.name, &col.ty, value).map_err(|m| err(m, value.span))?;
                if col.is_static() {
                    ops.statics = true;
                } else {
                    ops.regular = true;
                }
            }
        }
    }
    let only_static = !clustering_given && applies_only_to_static(ops, ConditionColumns::default());
    let r = restrictions(table, &relations, RType::Insert, only_static)?;
    constructor_checks(table, s.if_not_exists, &s.using, whole)?;
    let mut write = new_write(table, RType::Insert, s.if_not_exists, &s.using, span);
    fill_from_restrictions(&mut write, table, &r, &relations);
    write.validate_error = validate(table, &s.using, whole);
    Ok(write)
}

fn prepare_update_statement<'t>(
    table: &'t Table,
    s: &Update,
    span: Span,
) -> Result<Write<'t>, QueryError> {
    let whole = s.table.span;
    let conditions = prepare_conditions(table, s.conditions.as_ref(), &s.using, whole)?;
    let mut ops = ConditionColumns::default();
    for a in &s.assignments {
        let name = match &a.kind {
            AssignmentKind::Set { target, .. } => target.column(),
            AssignmentKind::SelfOp { column, .. } | AssignmentKind::Prepend { column, .. } => {
                column
            }
        };
        let col = column(table, name)?;
        if col.is_primary_key() {
            return Err(err(
                format!("PRIMARY KEY part {} found in SET part", col.name),
                name.span,
            ));
        }
        prepare_update(col, a, s.conditions.is_some())?;
        if col.is_static() {
            ops.statics = true;
        } else {
            ops.regular = true;
        }
    }
    let r = restrictions(
        table,
        &s.where_clause,
        RType::Update,
        applies_only_to_static(ops, conditions),
    )?;
    let conditional = s.conditions.is_some();
    constructor_checks(table, conditional, &s.using, whole)?;
    let mut write = new_write(table, RType::Update, conditional, &s.using, span);
    fill_from_restrictions(&mut write, table, &r, &s.where_clause);
    write.validate_error = validate(table, &s.using, whole);
    Ok(write)
}

fn prepare_delete<'t>(table: &'t Table, s: &Delete, span: Span) -> Result<Write<'t>, QueryError> {
    let whole = s.table.span;
    let conditions = prepare_conditions(table, s.conditions.as_ref(), &s.using, whole)?;
    let mut ops = ConditionColumns::default();
    for target in &s.columns {
        let name = target.column();
        let col = column(table, name)?;
        if col.is_primary_key() {
            return Err(err(
                format!(
                    "Invalid identifier {} for deletion (should not be a PRIMARY KEY part)",
                    col.name
                ),
                name.span,
            ));
        }
        prepare_deletion(col, target).map_err(|m| err(m, name.span))?;
        if col.is_static() {
            ops.statics = true;
        } else {
            ops.regular = true;
        }
    }
    if s.using.iter().any(|u| matches!(u, UsingParam::Ttl(_))) {
        // Divergence: DELETE's grammar has no USING TTL, so Cassandra reports an
        // ANTLR syntax error here; cqlmodel's parser accepts it and this says why.
        return Err(err("TTL attribute is not allowed for deletes", whole));
    }
    let r = restrictions(
        table,
        &s.where_clause,
        RType::Delete,
        applies_only_to_static(ops, conditions),
    )?;
    let conditional = s.conditions.is_some();
    constructor_checks(table, conditional, &s.using, whole)?;
    if conditional && !all_key_columns_by_equality(table, &r) {
        // A DELETE without columns deletes whole rows, regular columns
        // included: a 5.0.9 node reports "... in order to delete non static
        // columns" for it before the condition's message.
        if ops.regular || s.columns.is_empty() {
            return Err(err(
                "DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to delete non static columns",
                whole,
            ));
        }
        if conditions.regular {
            return Err(err(
                "DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to use IF condition on non static columns",
                whole,
            ));
        }
    }
    let mut write = new_write(table, RType::Delete, conditional, &s.using, span);
    fill_from_restrictions(&mut write, table, &r, &s.where_clause);
    write.validate_error = validate(table, &s.using, whole);
    // `DeleteStatement.addUpdateForKey`: specific columns need whole rows.
    let has_clustering = table.clustering_len() > 0;
    let restricts_clustering = !r.clustering.is_empty();
    let is_range = restricts_clustering && !full_clustering(table, &r);
    let ops_any = ops.regular || ops.statics;
    if has_clustering && ((is_range && ops_any) || (!restricts_clustering && ops.regular)) {
        write.range_deletion_error = Some(err(
            "Range deletions are not supported for specific columns",
            whole,
        ));
    }
    Ok(write)
}

fn restrictions<'t>(
    table: &'t Table,
    where_clause: &[Relation],
    statement: RType,
    only_static: bool,
) -> Result<Restrictions<'t>, QueryError> {
    Restrictions::new(
        table,
        where_clause,
        Settings {
            statement,
            allow_filtering: false,
            selects_only_static: only_static,
            for_view: false,
        },
    )
}

/// `ModificationStatement.appliesOnlyToStaticColumns`.
fn applies_only_to_static(ops: ConditionColumns, conditions: ConditionColumns) -> bool {
    !ops.regular && !conditions.regular && (ops.statics || conditions.statics)
}

fn has_timestamp(using: &[UsingParam]) -> bool {
    using.iter().any(|u| matches!(u, UsingParam::Timestamp(_)))
}

/// The `ModificationStatement` constructor: CND-11, then CND-12.
fn constructor_checks(
    table: &Table,
    conditional: bool,
    using: &[UsingParam],
    span: Span,
) -> Result<(), QueryError> {
    if conditional && table.is_counter_table() {
        return Err(err(
            "Conditional updates are not supported on counter tables",
            span,
        ));
    }
    if conditional && has_timestamp(using) {
        return Err(err(
            "Cannot provide custom timestamp for conditional updates",
            span,
        ));
    }
    Ok(())
}

/// `ModificationStatement.validate`: DML-V2, DML-V3, DML-V4 (DML-V1 is CND-12).
fn validate(table: &Table, using: &[UsingParam], span: Span) -> Option<QueryError> {
    let counter = table.is_counter_table();
    if counter && has_timestamp(using) {
        return Some(err(
            "Cannot provide custom timestamp for counter updates",
            span,
        ));
    }
    if counter && using.iter().any(|u| matches!(u, UsingParam::Ttl(_))) {
        return Some(err("Cannot provide custom TTL for counter updates", span));
    }
    if table.is_view() {
        return Some(err("Cannot directly modify a materialized view", span));
    }
    None
}

/// `Attributes.getTimeToLive`: EXE-3 / EXE-4 for a literal TTL.
fn ttl_error(using: &[UsingParam]) -> Option<QueryError> {
    using.iter().find_map(|u| {
        let UsingParam::Ttl(term) = u else {
            return None;
        };
        let TermKind::Literal(Literal::Integer(text)) = &term.kind else {
            return None;
        };
        let ttl = text.parse::<i64>().ok()?;
        if ttl < 0 {
            return Some(err(
                format!("A TTL must be greater or equal to 0, but was {ttl}"),
                term.span,
            ));
        }
        (ttl > MAX_TTL).then(|| {
            err(
                format!("ttl is too large. requested ({ttl}) maximum ({MAX_TTL})"),
                term.span,
            )
        })
    })
}

fn new_write<'t>(
    table: &'t Table,
    kind: RType,
    conditional: bool,
    using: &[UsingParam],
    span: Span,
) -> Write<'t> {
    Write {
        table,
        kind,
        is_counter: table.is_counter_table(),
        has_conditions: conditional,
        has_timestamp: has_timestamp(using),
        keys: None,
        partitions: Values::Known(1),
        key_in: false,
        clustering_in: false,
        clustering: ClusteringSlice {
            single_row: true,
            slices: Some(1),
            ..ClusteringSlice::default()
        },
        validate_error: None,
        ttl_error: ttl_error(using),
        range_deletion_error: None,
        span,
    }
}

fn fill_from_restrictions<'t>(
    write: &mut Write<'t>,
    table: &'t Table,
    r: &Restrictions<'_>,
    where_clause: &[Relation],
) {
    write.keys = partition_keys(table, where_clause);
    write.partitions = r.partition_count();
    write.key_in = r.key_is_in_relation();
    write.clustering_in = r
        .clustering_restrictions()
        .any(|c| matches!(c.op, Op::In(_)));
    write.clustering = ClusteringSlice {
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
}

/// `hasAllPKColumnsRestrictedByEqualities`: EQ or IN on every key column.
fn all_key_columns_by_equality(table: &Table, r: &Restrictions<'_>) -> bool {
    table
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_primary_key())
        .all(|(i, _)| r.restricted_by_eq_or_in(i))
}

/// Every clustering column fixed by EQ or IN: the statement names whole rows.
fn full_clustering(table: &Table, r: &Restrictions<'_>) -> bool {
    table
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c.kind, ColumnKind::Clustering(..)))
        .all(|(i, _)| r.restricted_by_eq_or_in(i))
}

/// The partition keys a statement writes, as term lists (IN lists expanded), when
/// every key component is a literal or a named bind marker.
fn partition_keys(table: &Table, where_clause: &[Relation]) -> Option<Vec<Vec<Term>>> {
    let mut keys: Vec<Vec<Term>> = vec![Vec::new()];
    for pk in table.partition_key() {
        let values: Vec<Term> = where_clause.iter().find_map(|r| match &r.kind {
            RelationKind::Column {
                column,
                op: Operator::Eq,
                value,
            } if column.value == pk.name => Some(vec![value.clone()]),
            RelationKind::ColumnIn {
                column,
                negated: false,
                values: InValues::List(list),
            } if column.value == pk.name => Some(list.clone()),
            _ => None,
        })?;
        if values.iter().any(|v| {
            matches!(
                v.kind,
                TermKind::BindMarker(cqlmodel_cql::ast::BindMarker::Anonymous)
            )
        }) {
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
