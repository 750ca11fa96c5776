//! SELECT: `SelectStatement.RawStatement.prepare` — the selection, the
//! restrictions, DISTINCT, GROUP BY, ORDER BY, limits, then the need for filtering.

use cqlmodel_cql::ast::{
    Literal, Order, Select, Selection, Selector, SelectorKind, Span, Term, TermKind,
};

use super::relation::{Op, Values, undefined_column};
use super::restrictions::{
    REQUIRES_ALLOW_FILTERING, Restrictions, Settings, StatementType as RType,
};
use super::{AccessKind, AccessPath, Analyzer, ClusteringSlice, QueryError, StatementType};
use crate::model::{ColumnKind, Table};

pub(super) fn analyze(cx: &Analyzer<'_>, s: &Select, span: Span) -> AccessPath {
    let table = match cx.table(&s.table) {
        Ok(t) => t,
        Err(e) => return AccessPath::invalid(StatementType::Select, None, e),
    };
    let name = Some(table.qualified_name());
    match prepare(table, s, s.allow_filtering, span) {
        Ok(mut path) => {
            path.table = name;
            if s.allow_filtering {
                // Would Cassandra have refused it without ALLOW FILTERING?
                path.needs_allow_filtering = matches!(
                    prepare(table, s, false, span),
                    Err(e) if e.message == REQUIRES_ALLOW_FILTERING || e.message.contains("cannot be restricted")
                );
                path.filtering = path.filtering || path.needs_allow_filtering;
            }
            path
        }
        Err(e) => {
            let mut path = AccessPath::invalid(StatementType::Select, name, e);
            if !s.allow_filtering {
                // The same query with ALLOW FILTERING: if it passes, the only problem is filtering.
                path.needs_allow_filtering = prepare(table, s, true, span).is_ok();
                path.filtering = path.needs_allow_filtering;
            }
            path
        }
    }
}

fn prepare(
    table: &Table,
    s: &Select,
    allow_filtering: bool,
    span: Span,
) -> Result<AccessPath, QueryError> {
    let selected = selected_columns(table, &s.selection)?;
    let only_static = selects_only_static(table, &s.selection, &selected);

    // Ordering columns are resolved before the restrictions (getOrderings).
    let orderings = resolve_orderings(table, s)?;

    let restrictions = Restrictions::new(
        table,
        &s.where_clause,
        Settings {
            statement: RType::Select,
            allow_filtering,
            selects_only_static: only_static,
            for_view: false,
        },
    )?;

    if s.distinct {
        if let Some(p) = &s.per_partition_limit {
            return Err(QueryError {
                message: "PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries".into(),
                span: p.span,
            });
        }
        validate_distinct(table, &selected, &restrictions, span)?;
    }

    let aggregate = is_aggregate(&s.selection);
    let grouped = validate_group_by(table, s, &restrictions)?;
    if aggregate
        && !grouped
        && let Some(p) = &s.per_partition_limit
    {
        return Err(QueryError {
            message: "PER PARTITION LIMIT is not allowed with aggregate queries.".into(),
            span: p.span,
        });
    }

    let reversed = check_ordering(table, &orderings, &restrictions, span)?;

    if !allow_filtering
        && (restrictions.is_key_range || restrictions.uses_index)
        && restrictions.need_filtering()
    {
        return Err(QueryError {
            message: REQUIRES_ALLOW_FILTERING.into(),
            span,
        });
    }

    let limit = positive_limit(s.limit.as_ref(), "LIMIT must be strictly positive")?;
    // Cassandra checks both limits with the same code and message.
    let per_partition_limit = positive_limit(
        s.per_partition_limit.as_ref(),
        "LIMIT must be strictly positive",
    )?;

    let (kind, partitions) = read_kind(&restrictions);
    // `SelectStatement`: an aggregate (or grouped) read that does not restrict
    // the partition key warns the client; the node test showed it for GROUP BY.
    let mut warnings = Vec::new();
    if (aggregate || grouped) && restrictions.partition.is_empty() && restrictions.token.is_none() {
        warnings.push(AGGREGATION_WITHOUT_PARTITION_KEY.to_string());
    }
    Ok(AccessPath {
        kind,
        partitions,
        warnings,
        filtering: restrictions.filtered
            || (restrictions.uses_index && restrictions.need_filtering()),
        needs_allow_filtering: false,
        index: restrictions.index.map(|i| i.name.clone()),
        reversed,
        clustering: Some(clustering_slice(table, &restrictions)),
        limit,
        per_partition_limit,
        ..AccessPath::new(StatementType::Select)
    })
}

/// The ORDER BY columns, each checked to exist, in written order.
fn resolve_orderings(table: &Table, s: &Select) -> Result<Vec<Ordering>, QueryError> {
    let mut orderings = Vec::with_capacity(s.order_by.len());
    for o in &s.order_by {
        let Some((idx, col)) = find(table, &o.column.value) else {
            return Err(QueryError {
                message: undefined_column(table, &o.column.value),
                span: o.column.span,
            });
        };
        orderings.push((idx, col.kind, o.order, o.span, o.ann_of.is_some()));
    }
    Ok(orderings)
}

/// Whether an ORDER BY (other than ANN) is allowed with these restrictions, and
/// whether it reads the clustering in reverse.
fn check_ordering(
    table: &Table,
    orderings: &[Ordering],
    restrictions: &Restrictions<'_>,
    span: Span,
) -> Result<bool, QueryError> {
    let ann = orderings.iter().any(|o| o.4);
    if orderings.is_empty() || ann {
        return Ok(false);
    }
    if restrictions.uses_index {
        return Err(QueryError {
            message: "ORDER BY with 2ndary indexes is not supported, except for ANN queries."
                .into(),
            span: orderings.first().map_or(span, |o| o.3),
        });
    }
    if restrictions.is_key_range {
        return Err(QueryError {
            message:
                "ORDER BY is only supported when the partition key is restricted by an EQ or an IN."
                    .into(),
            span: orderings.first().map_or(span, |o| o.3),
        });
    }
    is_reversed(table, orderings, restrictions)
}

/// The kind of read and how many partitions it reads (`None`: unknown).
fn read_kind(restrictions: &Restrictions<'_>) -> (AccessKind, Option<u64>) {
    if restrictions.is_key_range {
        return (AccessKind::RangeScan, None);
    }
    // An IN of several values (even equal ones, even none) makes a group read of
    // the listed partitions.
    match (
        restrictions.key_is_in_relation(),
        restrictions.partition_count(),
    ) {
        (false, _) => (AccessKind::SinglePartition, Some(1)),
        (true, Values::Known(n)) => (AccessKind::MultiPartition, Some(n)),
        (true, Values::Unknown) => (AccessKind::MultiPartition, None),
    }
}

/// Cassandra's client warning for an aggregation over more than one partition.
pub(crate) const AGGREGATION_WITHOUT_PARTITION_KEY: &str =
    "Aggregation query used without partition key";

fn find<'t>(table: &'t Table, name: &str) -> Option<(usize, &'t crate::model::Column)> {
    table
        .columns
        .iter()
        .enumerate()
        .find(|(_, c)| c.name == name)
}

/// A selected or grouped column the table lacks: Cassandra 5.0 names the
/// table (`TableMetadata.getExistingColumn`), as the node test showed.
fn undefined(table: &Table, name: &str, span: Span) -> QueryError {
    QueryError {
        message: undefined_column(table, name),
        span,
    }
}

/// Every column the selection reads, checking that each exists.
fn selected_columns(table: &Table, selection: &Selection) -> Result<Vec<usize>, QueryError> {
    let Selection::Selectors(selectors) = selection else {
        return Ok((0..table.columns.len()).collect());
    };
    let mut out = Vec::new();
    for sel in selectors {
        collect_columns(table, sel, &mut out)?;
        if type_unknown(sel) {
            return Err(QueryError {
                message: format!(
                    "Cannot infer type for term {} in selection clause (try using a cast to force a type)",
                    sel_text(sel)
                ),
                span: sel.span,
            });
        }
    }
    Ok(out)
}

/// A selection term whose type Cassandra cannot infer with no type expected
/// (`Selectable.getExactTypeIfKnown` is null): `{k: v}` may be a map or a UDT
/// literal, so it always needs a hint or a cast; a tuple or collection
/// holding one inherits that.
fn type_unknown(sel: &Selector) -> bool {
    match &sel.kind {
        SelectorKind::Map(_) => true,
        SelectorKind::Tuple(_) | SelectorKind::List(_) | SelectorKind::Set(_) => {
            sel.kind.items().into_iter().any(type_unknown)
        }
        _ => false,
    }
}

/// The term as Cassandra prints it in the message (without an alias).
fn sel_text(sel: &Selector) -> String {
    let mut bare = sel.clone();
    bare.alias = None;
    bare.to_string()
}

fn collect_columns(table: &Table, sel: &Selector, out: &mut Vec<usize>) -> Result<(), QueryError> {
    match &sel.kind {
        SelectorKind::Column(c) => {
            let (idx, _) =
                find(table, &c.value).ok_or_else(|| undefined(table, &c.value, c.span))?;
            out.push(idx);
        }
        SelectorKind::WriteTime(c) | SelectorKind::MaxWriteTime(c) | SelectorKind::Ttl(c) => {
            let (idx, col) =
                find(table, &c.value).ok_or_else(|| undefined(table, &c.value, c.span))?;
            if col.is_primary_key() {
                let function = match sel.kind {
                    SelectorKind::Ttl(_) => "ttl",
                    SelectorKind::MaxWriteTime(_) => "maxwritetime",
                    _ => "writetime",
                };
                return Err(QueryError {
                    message: format!(
                        "Cannot use selection function {function} on PRIMARY KEY part {}",
                        col.name
                    ),
                    span: sel.span,
                });
            }
            out.push(idx);
        }
        SelectorKind::Function { args, .. } => {
            for a in args {
                collect_columns(table, a, out)?;
            }
        }
        SelectorKind::Binary { left, right, .. } => {
            collect_columns(table, left, out)?;
            collect_columns(table, right, out)?;
        }
        SelectorKind::Negate(inner) => collect_columns(table, inner, out)?,
        SelectorKind::Cast { selector, .. }
        | SelectorKind::TypeHint { selector, .. }
        | SelectorKind::Field { selector, .. }
        | SelectorKind::Element { selector, .. } => {
            collect_columns(table, selector, out)?;
        }
        SelectorKind::Tuple(_)
        | SelectorKind::List(_)
        | SelectorKind::Set(_)
        | SelectorKind::Map(_) => {
            for item in sel.kind.items() {
                collect_columns(table, item, out)?;
            }
        }
        SelectorKind::CountStar | SelectorKind::Term(_) => {}
    }
    Ok(())
}

/// `selectOnlyStaticColumns`: only static (and partition key) columns, at least one static.
fn selects_only_static(table: &Table, selection: &Selection, selected: &[usize]) -> bool {
    if !table.has_static_columns()
        || matches!(selection, Selection::Wildcard(_))
        || selected.is_empty()
    {
        return false;
    }
    let kinds = || {
        selected
            .iter()
            .filter_map(|i| table.columns.get(*i))
            .map(|c| c.kind)
    };
    kinds().any(|k| k == ColumnKind::Static)
        && kinds().all(|k| matches!(k, ColumnKind::Static | ColumnKind::PartitionKey(_)))
}

fn validate_distinct(
    table: &Table,
    selected: &[usize],
    r: &Restrictions<'_>,
    span: Span,
) -> Result<(), QueryError> {
    let restricts_rows = !r.clustering.is_empty()
        || r.non_pk
            .keys()
            .any(|c| table.columns.get(*c).is_some_and(|c| !c.is_static()));
    if restricts_rows {
        return Err(QueryError {
            message: "SELECT DISTINCT with WHERE clause only supports restriction by partition key and/or static columns."
                .into(),
            span,
        });
    }
    for idx in selected {
        if let Some(c) = table.columns.get(*idx)
            && !matches!(c.kind, ColumnKind::PartitionKey(_) | ColumnKind::Static)
        {
            return Err(QueryError {
                message: format!(
                    "SELECT DISTINCT queries must only request partition key columns and/or static columns (not {})",
                    c.name
                ),
                span,
            });
        }
    }
    if !r.is_key_range {
        return Ok(());
    }
    for (idx, c) in table.columns.iter().enumerate() {
        if matches!(c.kind, ColumnKind::PartitionKey(_)) && !selected.contains(&idx) {
            return Err(QueryError {
                message: format!(
                    "SELECT DISTINCT queries must request all the partition key columns (missing {})",
                    c.name
                ),
                span,
            });
        }
    }
    Ok(())
}

fn is_aggregate(selection: &Selection) -> bool {
    fn agg(sel: &Selector) -> bool {
        match &sel.kind {
            SelectorKind::CountStar => true,
            SelectorKind::Function { name, args } => {
                let n = name.name.value.to_ascii_lowercase();
                matches!(n.as_str(), "count" | "min" | "max" | "sum" | "avg")
                    || args.iter().any(agg)
            }
            SelectorKind::Cast { selector, .. }
            | SelectorKind::Field { selector, .. }
            | SelectorKind::Element { selector, .. }
            | SelectorKind::Negate(selector) => agg(selector),
            SelectorKind::Binary { left, right, .. } => agg(left) || agg(right),
            other => other.items().into_iter().any(agg),
        }
    }
    match selection {
        Selection::Wildcard(_) => false,
        Selection::Selectors(s) => s.iter().any(agg),
    }
}

/// `getAggregationSpecFactory`: GROUP BY on a prefix of the primary key.
fn validate_group_by(table: &Table, s: &Select, r: &Restrictions<'_>) -> Result<bool, QueryError> {
    if s.group_by.is_empty() {
        return Ok(false);
    }
    let pk: Vec<(usize, &crate::model::Column)> = table
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_primary_key())
        .collect();
    let mut it = pk.iter();
    let mut clustering_prefix = 0;
    let order_msg = "Group by currently only support groups of columns following their declared order in the PRIMARY KEY";
    for g in &s.group_by {
        let (idx, col) = find(table, &g.value).ok_or_else(|| undefined(table, &g.value, g.span))?;
        if !col.is_primary_key() {
            return Err(QueryError {
                message: format!(
                    "Group by is currently only supported on the columns of the PRIMARY KEY, got {}",
                    col.name
                ),
                span: g.span,
            });
        }
        loop {
            let Some((pk_idx, pk_col)) = it.next() else {
                return Err(QueryError {
                    message: order_msg.into(),
                    span: g.span,
                });
            };
            if matches!(pk_col.kind, ColumnKind::Clustering(..)) {
                clustering_prefix += 1;
            }
            if *pk_idx == idx {
                break;
            }
            if !r.restricted_by_eq(*pk_idx) {
                return Err(QueryError {
                    message: order_msg.into(),
                    span: g.span,
                });
            }
        }
    }
    if it
        .next()
        .is_some_and(|(_, c)| matches!(c.kind, ColumnKind::PartitionKey(_)))
    {
        return Err(QueryError {
            message: "Group by is not supported on only a part of the partition key".into(),
            span: s.group_by.first().map_or(Span::default(), |g| g.span),
        });
    }
    if clustering_prefix > 0 && s.distinct {
        return Err(QueryError {
            message: "Grouping on clustering columns is not allowed for SELECT DISTINCT queries"
                .into(),
            span: s.group_by.first().map_or(Span::default(), |g| g.span),
        });
    }
    Ok(true)
}

type Ordering = (usize, ColumnKind, Order, Span, bool);

/// `SelectStatement.isReversed`.
fn is_reversed(
    table: &Table,
    orderings: &[Ordering],
    r: &Restrictions<'_>,
) -> Result<bool, QueryError> {
    let clustering: Vec<usize> = table
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c.kind, ColumnKind::Clustering(..)))
        .map(|(i, _)| i)
        .collect();
    let mut reversed_map: Vec<Option<bool>> = vec![None; clustering.len()];
    let mut i = 0;
    for (idx, kind, order, span, _) in orderings {
        let ColumnKind::Clustering(pos, declared) = *kind else {
            let name = table.columns.get(*idx).map_or("", |c| c.name.as_str());
            return Err(QueryError {
                message: format!(
                    "Order by is currently only supported on the clustered columns of the PRIMARY KEY, got {name}"
                ),
                span: *span,
            });
        };
        while i != pos {
            let restricted = clustering.get(i).is_some_and(|c| r.restricted_by_eq(*c));
            i += 1;
            if !restricted || i > clustering.len() {
                return Err(QueryError {
                    message: "Order by currently only supports the ordering of columns following their declared order in the PRIMARY KEY".into(),
                    span: *span,
                });
            }
        }
        i += 1;
        if let Some(slot) = reversed_map.get_mut(pos) {
            *slot = Some((*order == Order::Desc) != (declared == Order::Desc));
        }
    }
    let mut result: Option<bool> = None;
    for b in reversed_map.into_iter().flatten() {
        match result {
            None => result = Some(b),
            Some(prev) if prev != b => {
                return Err(QueryError {
                    message: "Unsupported order by relation".into(),
                    span: orderings.first().map_or(Span::default(), |o| o.3),
                });
            }
            Some(_) => {}
        }
    }
    Ok(result.unwrap_or(false))
}

/// A literal limit; bind markers are checked at execution.
fn positive_limit(term: Option<&Term>, message: &str) -> Result<Option<u64>, QueryError> {
    let Some(t) = term else { return Ok(None) };
    match &t.kind {
        TermKind::Literal(Literal::Integer(n)) => match n.parse::<i64>() {
            Ok(v) if v > 0 => Ok(Some(v.unsigned_abs())),
            Ok(_) => Err(QueryError {
                message: message.into(),
                span: t.span,
            }),
            Err(_) => Err(QueryError {
                message: format!("Invalid limit value: {n}"),
                span: t.span,
            }),
        },
        _ => Ok(None),
    }
}

fn clustering_slice(table: &Table, r: &Restrictions<'_>) -> ClusteringSlice {
    let names: Vec<&str> = table.clustering().map(|c| c.name.as_str()).collect();
    let mut slice = ClusteringSlice {
        slices: Some(1),
        ..ClusteringSlice::default()
    };
    let mut position = 0;
    for restriction in r.clustering_restrictions() {
        let first = restriction
            .columns
            .first()
            .and_then(|c| match table.columns.get(*c).map(|c| c.kind) {
                Some(ColumnKind::Clustering(p, _)) => Some(p),
                _ => None,
            })
            .unwrap_or(usize::MAX);
        if first != position || slice.range.is_some() {
            break;
        }
        match &restriction.op {
            Op::Eq | Op::In(_) => {
                for c in &restriction.columns {
                    if let Some(ColumnKind::Clustering(p, _)) =
                        table.columns.get(*c).map(|c| c.kind)
                        && let Some(n) = names.get(p)
                    {
                        slice.prefix.push((*n).to_string());
                        position = p + 1;
                    }
                }
                if let Op::In(v) = restriction.op {
                    slice.slices = match (slice.slices, v) {
                        (Some(a), Values::Known(b)) => Some(a.saturating_mul(b)),
                        _ => None,
                    };
                }
            }
            Op::Slice { .. } => {
                slice.range = names.get(first).map(|n| (*n).to_string());
            }
            _ => break,
        }
    }
    slice.single_row = slice.range.is_none() && slice.prefix.len() == names.len();
    slice
}
