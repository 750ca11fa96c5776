//! One SQL statement of the query list, reduced to what the design needs: which
//! entities it joins (along which foreign keys), which attributes it binds by
//! equality or range, its ordering, limit and aggregates.

use sqlparser::ast::{
    BinaryOperator, Expr, FunctionArg, FunctionArgExpr, FunctionArguments, GroupByExpr, InTarget,
    JoinConstraint, JoinOperator, LimitClause, OrderByKind, SelectItem,
    SelectItemQualifiedWildcardKind, SetExpr, Spanned, TableFactor, TableWithJoins,
};

use crate::error::{DesignError, DesignErrorKind, Source};
use crate::relational::{Model, object_name, unquote};

/// An attribute of an entity.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct ColRef {
    pub entity: String,
    pub column: String,
}

/// The number of values assumed for `= ANY($n)` (an array of unknown length)
/// when counting partitions: the read notes it.
pub const ANY_VALUES: usize = 10;

/// What a SELECT asks for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SelectSpec {
    /// The entities in FROM/JOIN order; the first is the one whose rows are returned.
    pub entities: Vec<String>,
    /// Equalities of the join conditions.
    pub joins: Vec<(ColRef, ColRef)>,
    pub projection: Vec<ColRef>,
    /// `count(*)`, `sum(total)`, …: the function and its column (`None` for `*`).
    pub aggregates: Vec<(String, Option<ColRef>)>,
    /// Attributes bound by `=` (or `IN`, with the number of values).
    pub equalities: Vec<(ColRef, usize)>,
    /// Attributes bound by `= ANY($n)`: an array parameter, CQL's `IN ?` (a
    /// list bound as one value); counted as `ANY_VALUES` values in `equalities`.
    pub any_of: Vec<ColRef>,
    /// A row-value comparison `(a, b) < ($1, $2)` (keyset pagination): the
    /// columns in order and the operator, CQL's multi-column slice.
    pub keyset: Option<(Vec<ColRef>, String)>,
    /// Attributes bound by `<`, `<=`, `>`, `>=`, `BETWEEN`.
    pub ranges: Vec<ColRef>,
    /// The range operators per attribute, as CQL writes them (`>=`, `<`).
    pub range_ops: Vec<(ColRef, String)>,
    /// ORDER BY, with `true` for DESC.
    pub order: Vec<(ColRef, bool)>,
    pub limit: Option<u64>,
    pub group_by: Vec<ColRef>,
    /// Filters no key can serve (OR, LIKE, `<>`, functions of columns), as written.
    pub ad_hoc: Vec<String>,
    /// ORDER BY terms that are not attributes (an aggregate's alias): sorted by the application.
    pub app_order: Vec<String>,
    /// The vector column of a pgvector `ORDER BY col <-> $n LIMIT k`, when
    /// the design serves it as `ORDER BY col ANN OF ? LIMIT k` (crate::ann).
    pub ann: Option<Box<ColRef>>,
    /// `count(DISTINCT x)` by key: served by a set of the distinct `x` per key
    /// whose partition is counted (decided in crate::meaning).
    pub count_distinct: Option<Box<ColRef>>,
}

/// Resolves names against the statement's FROM list.
pub(crate) struct Scope<'m> {
    pub model: &'m Model,
    /// (alias or table name, entity)
    pub tables: Vec<(String, String)>,
    pub at: (usize, usize),
    pub source: Source,
}

impl Scope<'_> {
    pub fn err(
        &self,
        kind: DesignErrorKind,
        at: (usize, usize),
        m: impl Into<String>,
    ) -> DesignError {
        DesignError::new(kind, self.source, at, m)
    }

    pub fn pos(&self, e: &impl Spanned) -> (usize, usize) {
        let s = e.span().start;
        if s.line == 0 {
            self.at
        } else {
            crate::split::in_file(self.at, (s.line as usize, s.column as usize))
        }
    }

    pub fn add_table(&mut self, factor: &TableFactor) -> Result<String, DesignError> {
        let TableFactor::Table { name, alias, .. } = factor else {
            return Err(self.err(
                DesignErrorKind::Unsupported,
                self.pos(factor),
                format!(
                    "`{factor}` in FROM is outside the supported subset: name a table of the model"
                ),
            ));
        };
        self.add_named(name, alias.as_ref())
    }

    pub fn add_named(
        &mut self,
        name: &sqlparser::ast::ObjectName,
        alias: Option<&sqlparser::ast::TableAlias>,
    ) -> Result<String, DesignError> {
        let entity = object_name(name);
        if self.model.entity(&entity).is_none() {
            return Err(self.err(
                DesignErrorKind::UnknownTable,
                self.pos(name),
                format!("unknown table `{entity}`: the model has no such table"),
            ));
        }
        // Join equalities are kept per table, not per alias: a second alias of
        // one table would be confused with the first.
        if self.tables.iter().any(|(_, e)| *e == entity) {
            return Err(self.err(
                DesignErrorKind::Unsupported,
                self.pos(name),
                format!(
                    "a self-join (`{entity}` twice) is outside the supported subset: list the two reads separately (e.g. the manager by id, then the people by manager_id)"
                ),
            ));
        }
        let key = alias.map_or_else(|| entity.clone(), |a| unquote(&a.name.to_string()));
        self.tables.push((key, entity.clone()));
        Ok(entity)
    }

    /// The attribute an identifier names, or `None` if the expression is not one.
    pub fn column(&self, e: &Expr) -> Result<Option<ColRef>, DesignError> {
        let (qualifier, column) = match e {
            Expr::Identifier(id) => (None, unquote(&id.to_string())),
            Expr::CompoundIdentifier(parts) => {
                let n = parts.len();
                match (parts.get(n.wrapping_sub(2)), parts.last()) {
                    (Some(q), Some(c)) => (Some(unquote(&q.to_string())), unquote(&c.to_string())),
                    _ => return Ok(None),
                }
            }
            Expr::Nested(inner) => return self.column(inner),
            _ => return Ok(None),
        };
        let candidates: Vec<&String> = self
            .tables
            .iter()
            .filter(|(alias, entity)| match &qualifier {
                Some(q) => q == alias || q == entity,
                None => true,
            })
            .map(|(_, entity)| entity)
            .filter(|entity| {
                self.model
                    .entity(entity)
                    .is_some_and(|en| en.attribute(&column).is_some())
            })
            .collect();
        match candidates.as_slice() {
            [one] => Ok(Some(ColRef {
                entity: (*one).clone(),
                column,
            })),
            [] => Err(self.err(
                DesignErrorKind::UnknownColumn,
                self.pos(e),
                format!("unknown column `{e}`: no table of the query has it"),
            )),
            _ => Err(self.err(
                DesignErrorKind::UnknownColumn,
                self.pos(e),
                format!("column `{e}` is ambiguous: qualify it with its table"),
            )),
        }
    }

    /// True when the expression reads no column (a parameter, literal, `now()`).
    pub fn is_value(&self, e: &Expr) -> Result<bool, DesignError> {
        Ok(match e {
            Expr::Value(_) | Expr::TypedString { .. } | Expr::Interval(_) => true,
            // `CURRENT_DATE`-like keywords can come as identifiers of no table.
            Expr::Identifier(_) | Expr::CompoundIdentifier(_) => match self.column(e) {
                Ok(found) => found.is_none(),
                Err(_) if is_keyword_value(&e.to_string()) => true,
                Err(err) => return Err(err),
            },
            Expr::Cast { expr, .. } | Expr::Nested(expr) | Expr::UnaryOp { expr, .. } => {
                self.is_value(expr)?
            }
            Expr::BinaryOp { left, right, .. } => self.is_value(left)? && self.is_value(right)?,
            Expr::Function(f) => match &f.args {
                FunctionArguments::None => true,
                FunctionArguments::List(list) => {
                    let mut all = true;
                    for a in &list.args {
                        if let FunctionArg::Unnamed(FunctionArgExpr::Expr(x)) = a {
                            all &= self.is_value(x)?;
                        }
                    }
                    all
                }
                FunctionArguments::Subquery(_) => false,
            },
            _ => false,
        })
    }
}

fn is_keyword_value(s: &str) -> bool {
    matches!(
        s.to_ascii_uppercase().as_str(),
        "CURRENT_DATE" | "CURRENT_TIMESTAMP" | "LOCALTIMESTAMP" | "NOW"
    )
}

const AGGREGATES: &[&str] = &["count", "sum", "avg", "min", "max"];

pub fn analyze_select(
    model: &Model,
    query: &sqlparser::ast::Query,
    at: (usize, usize),
) -> Result<SelectSpec, DesignError> {
    let mut scope = Scope {
        model,
        tables: Vec::new(),
        at,
        source: Source::Queries,
    };
    let unsupported = |scope: &Scope, where_: (usize, usize), what: &str| {
        scope.err(
            DesignErrorKind::Unsupported,
            where_,
            format!("{what} is outside the supported SQL subset"),
        )
    };
    if let Some(with) = &query.with {
        return Err(scope.err(
            DesignErrorKind::Unsupported,
            scope.pos(with),
            "WITH (a common table expression) is outside the supported SQL subset: write its SELECT into the statement (a join along a foreign key, or the CTE's own SELECT as the query)",
        ));
    }
    let select = match query.body.as_ref() {
        SetExpr::Select(s) => s,
        SetExpr::SetOperation { op, .. } => {
            return Err(unsupported(
                &scope,
                scope.pos(query.body.as_ref()),
                &format!("{op}"),
            ));
        }
        other => return Err(unsupported(&scope, scope.pos(other), "this query body")),
    };
    let mut spec = SelectSpec::default();
    let [from]: &[TableWithJoins; 1] = select.from.as_slice().try_into().map_err(|_| {
        unsupported(
            &scope,
            at,
            "a SELECT without exactly one FROM item (use JOIN … ON)",
        )
    })?;
    spec.entities.push(scope.add_table(&from.relation)?);
    let mut join_conditions = Vec::new();
    for join in &from.joins {
        let constraint = match &join.join_operator {
            JoinOperator::Join(c)
            | JoinOperator::Inner(c)
            | JoinOperator::Left(c)
            | JoinOperator::LeftOuter(c) => c,
            other => {
                let debug = format!("{other:?}");
                let kind = debug.split('(').next().unwrap_or("join");
                return Err(unsupported(
                    &scope,
                    scope.pos(&join.relation),
                    &format!("the {kind} join (only JOIN and LEFT JOIN … ON)"),
                ));
            }
        };
        spec.entities.push(scope.add_table(&join.relation)?);
        match constraint {
            JoinConstraint::On(e) => join_conditions.push(e.clone()),
            _ => {
                return Err(unsupported(
                    &scope,
                    scope.pos(&join.relation),
                    "a join without ON",
                ));
            }
        }
    }
    for cond in &join_conditions {
        for part in conjuncts(cond) {
            let pair = match part {
                Expr::BinaryOp {
                    left,
                    op: BinaryOperator::Eq,
                    right,
                } => (scope.column(left)?, scope.column(right)?),
                _ => (None, None),
            };
            let (Some(a), Some(b)) = pair else {
                return Err(scope.err(
                    DesignErrorKind::NoForeignKeyPath,
                    scope.pos(part),
                    format!("join condition `{part}` is not an equality between columns"),
                ));
            };
            spec.joins.push((a, b));
        }
    }
    check_joins(&scope, &spec, &join_conditions)?;

    for item in &select.projection {
        match item {
            SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                projection_expr(&scope, e, &mut spec)?;
            }
            SelectItem::Wildcard(_) => {
                if let Some(root) = spec.entities.first().and_then(|r| model.entity(r)) {
                    for a in &root.attributes {
                        push_unique(
                            &mut spec.projection,
                            ColRef {
                                entity: root.name.clone(),
                                column: a.name.clone(),
                            },
                        );
                    }
                }
            }
            SelectItem::QualifiedWildcard(SelectItemQualifiedWildcardKind::ObjectName(name), _) => {
                let alias = unquote(&name.to_string());
                let entity = scope
                    .tables
                    .iter()
                    .find(|(a, _)| *a == alias)
                    .map(|(_, e)| e.clone());
                let Some(en) = entity.and_then(|e| model.entity(&e)) else {
                    return Err(scope.err(
                        DesignErrorKind::UnknownTable,
                        scope.pos(name),
                        format!("unknown table `{alias}`"),
                    ));
                };
                for a in &en.attributes {
                    push_unique(
                        &mut spec.projection,
                        ColRef {
                            entity: en.name.clone(),
                            column: a.name.clone(),
                        },
                    );
                }
            }
            other => {
                return Err(unsupported(
                    &scope,
                    scope.pos(other),
                    &format!("the select item `{other}`"),
                ));
            }
        }
    }
    let aliases: Vec<String> = select
        .projection
        .iter()
        .filter_map(|i| match i {
            SelectItem::ExprWithAlias { alias, .. } => Some(unquote(&alias.to_string())),
            _ => None,
        })
        .collect();
    if let Some(w) = &select.selection {
        predicates(&scope, w, &mut spec)?;
    }
    if let GroupByExpr::Expressions(exprs, _) = &select.group_by {
        for e in exprs {
            match scope.column(e)? {
                Some(c) => spec.group_by.push(c),
                None => spec.ad_hoc.push(format!("GROUP BY {e}")),
            }
        }
    }
    if let Some(h) = &select.having {
        spec.ad_hoc.push(format!("HAVING {h}"));
    }
    if let Some(ob) = &query.order_by
        && let OrderByKind::Expressions(exprs) = &ob.kind
    {
        {
            for o in exprs {
                let desc = matches!(o.options.sort, Some(sqlparser::ast::OrderBySort::Desc));
                if let Expr::Identifier(id) = &o.expr
                    && aliases.contains(&unquote(&id.to_string()))
                {
                    spec.app_order.push(o.to_string());
                    continue;
                }
                match scope.column(&o.expr)? {
                    Some(c) => spec.order.push((c, desc)),
                    None => spec.ad_hoc.push(format!("ORDER BY {}", o.expr)),
                }
            }
        }
    }
    if let Some(LimitClause::LimitOffset {
        limit: Some(l),
        offset,
        ..
    }) = &query.limit_clause
    {
        spec.limit = l.to_string().parse().ok();
        if offset.is_some() {
            spec.ad_hoc
                .push("OFFSET (page with the driver's paging state instead)".into());
        }
    }
    Ok(spec)
}

fn push_unique(v: &mut Vec<ColRef>, c: ColRef) {
    if !v.contains(&c) {
        v.push(c);
    }
}

fn projection_expr(scope: &Scope, e: &Expr, spec: &mut SelectSpec) -> Result<(), DesignError> {
    if let Some(c) = scope.column(e)? {
        push_unique(&mut spec.projection, c);
        return Ok(());
    }
    if let Expr::Function(f) = e {
        let name = f.name.to_string().to_ascii_lowercase();
        if AGGREGATES.contains(&name.as_str()) {
            let mut arg = None;
            if let FunctionArguments::List(list) = &f.args {
                for a in &list.args {
                    if let FunctionArg::Unnamed(FunctionArgExpr::Expr(x)) = a
                        && let Some(c) = scope.column(x)?
                    {
                        push_unique(&mut spec.projection, c.clone());
                        arg = Some(c);
                    }
                }
            }
            let distinct = matches!(
                &f.args,
                FunctionArguments::List(l)
                    if l.duplicate_treatment == Some(sqlparser::ast::DuplicateTreatment::Distinct)
            );
            if let (true, Some(c)) = (distinct, &arg) {
                // A counter counts rows, not distinct values: the partition's
                // rows are read and the application counts the values.
                push_unique(&mut spec.group_by, c.clone());
                spec.app_order.push(format!(
                    "counting the distinct `{}` values (`{name}(DISTINCT …)`): a counter would count rows, not distinct values, so the partition's rows are read",
                    c.column
                ));
            }
            spec.aggregates.push((name, arg));
            return Ok(());
        }
    }
    if scope.is_value(e)? {
        return Ok(());
    }
    // A function of columns (`date_trunc('day', placed_at)`): the table stores
    // the columns and the application computes the function.
    let mut found = Vec::new();
    columns_in(scope, e, &mut found)?;
    if !found.is_empty() {
        for c in found {
            push_unique(&mut spec.projection, c);
        }
        spec.app_order.push(format!("computing `{e}`"));
        return Ok(());
    }
    Err(scope.err(
        DesignErrorKind::Unsupported,
        scope.pos(e),
        format!("the select expression `{e}` is outside the supported SQL subset (columns, *, count/sum/avg/min/max)"),
    ))
}

fn columns_in(scope: &Scope, e: &Expr, out: &mut Vec<ColRef>) -> Result<(), DesignError> {
    if let Some(c) = scope.column(e)? {
        push_unique(out, c);
        return Ok(());
    }
    match e {
        Expr::Function(f) => {
            if let FunctionArguments::List(list) = &f.args {
                for a in &list.args {
                    if let FunctionArg::Unnamed(FunctionArgExpr::Expr(x)) = a {
                        columns_in(scope, x, out)?;
                    }
                }
            }
        }
        Expr::BinaryOp { left, right, .. } => {
            columns_in(scope, left, out)?;
            columns_in(scope, right, out)?;
        }
        Expr::Cast { expr, .. } | Expr::Nested(expr) | Expr::UnaryOp { expr, .. } => {
            columns_in(scope, expr, out)?
        }
        _ => {}
    }
    Ok(())
}

pub(crate) fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::BinaryOp {
            left,
            op: BinaryOperator::And,
            right,
        } => {
            let mut v = conjuncts(left);
            v.extend(conjuncts(right));
            v
        }
        Expr::Nested(inner) => conjuncts(inner),
        other => vec![other],
    }
}

fn predicates(scope: &Scope, w: &Expr, spec: &mut SelectSpec) -> Result<(), DesignError> {
    for p in conjuncts(w) {
        match p {
            Expr::BinaryOp { left, op, right } if keyset(scope, left, op, right, spec)? => {}
            Expr::BinaryOp { left, op, right } => {
                let (col, value_side, flipped) = match (scope.column(left)?, scope.column(right)?) {
                    (Some(a), Some(b)) if *op == BinaryOperator::Eq => {
                        spec.joins.push((a, b));
                        continue;
                    }
                    (Some(c), None) => (c, right, false),
                    (None, Some(c)) => (c, left, true),
                    _ => {
                        spec.ad_hoc.push(p.to_string());
                        continue;
                    }
                };
                if !scope.is_value(value_side)? {
                    spec.ad_hoc.push(p.to_string());
                    continue;
                }
                match op {
                    BinaryOperator::Eq => spec.equalities.push((col, 1)),
                    BinaryOperator::Lt
                    | BinaryOperator::LtEq
                    | BinaryOperator::Gt
                    | BinaryOperator::GtEq => {
                        let op = match (op, flipped) {
                            (BinaryOperator::Lt, false) | (BinaryOperator::Gt, true) => "<",
                            (BinaryOperator::LtEq, false) | (BinaryOperator::GtEq, true) => "<=",
                            (BinaryOperator::Gt, false) | (BinaryOperator::Lt, true) => ">",
                            _ => ">=",
                        };
                        spec.range_ops.push((col.clone(), op.to_string()));
                        push_unique(&mut spec.ranges, col)
                    }
                    _ => spec.ad_hoc.push(p.to_string()),
                }
            }
            Expr::Between {
                expr,
                negated: false,
                low,
                high,
            } => match scope.column(expr)? {
                Some(c) if scope.is_value(low)? && scope.is_value(high)? => {
                    spec.range_ops.push((c.clone(), ">=".into()));
                    spec.range_ops.push((c.clone(), "<=".into()));
                    push_unique(&mut spec.ranges, c)
                }
                _ => spec.ad_hoc.push(p.to_string()),
            },
            Expr::In {
                expr,
                target: InTarget::List(list),
                negated: false,
                ..
            } => match scope.column(expr)? {
                Some(c) => spec.equalities.push((c, list.len().max(1))),
                None => spec.ad_hoc.push(p.to_string()),
            },
            Expr::AnyOp {
                left,
                compare_op: BinaryOperator::Eq,
                right,
                ..
            } => match scope.column(left)? {
                Some(c) if scope.is_value(right)? => {
                    spec.equalities.push((c.clone(), ANY_VALUES));
                    spec.any_of.push(c);
                }
                _ => spec.ad_hoc.push(p.to_string()),
            },
            Expr::In {
                target: InTarget::Subquery(_),
                ..
            }
            | Expr::Exists { .. }
            | Expr::Subquery(_) => {
                return Err(scope.err(
                    DesignErrorKind::Unsupported,
                    scope.pos(p),
                    format!("the subquery `{p}` is outside the supported SQL subset: write it as a join along a foreign key"),
                ));
            }
            other => spec.ad_hoc.push(other.to_string()),
        }
    }
    Ok(())
}

/// `(a, b) < ($1, $2)`: a row-value comparison of columns with values is a
/// keyset page's bound (CQL's multi-column slice on clustering columns).
fn keyset(
    scope: &Scope,
    left: &Expr,
    op: &BinaryOperator,
    right: &Expr,
    spec: &mut SelectSpec,
) -> Result<bool, DesignError> {
    let (Expr::Tuple(cols), Expr::Tuple(values)) = (left, right) else {
        return Ok(false);
    };
    let op = match op {
        BinaryOperator::Lt => "<",
        BinaryOperator::LtEq => "<=",
        BinaryOperator::Gt => ">",
        BinaryOperator::GtEq => ">=",
        _ => return Ok(false),
    };
    if cols.len() != values.len() || cols.len() < 2 || spec.keyset.is_some() {
        return Ok(false);
    }
    let mut refs = Vec::new();
    for (c, v) in cols.iter().zip(values) {
        match scope.column(c)? {
            Some(r) if scope.is_value(v)? => refs.push(r),
            _ => return Ok(false),
        }
    }
    spec.keyset = Some((refs, op.to_string()));
    Ok(true)
}

/// Every join follows a foreign key between the two entities it connects.
fn check_joins(scope: &Scope, spec: &SelectSpec, conditions: &[Expr]) -> Result<(), DesignError> {
    for (i, (a, b)) in spec.joins.iter().enumerate() {
        let follows_fk = scope
            .model
            .links(&a.entity, &b.entity)
            .iter()
            .any(|(child, fk)| {
                let parent_cols = if fk.referenced.is_empty() {
                    scope
                        .model
                        .entity(&fk.table)
                        .map(|p| p.primary_key.clone())
                        .unwrap_or_default()
                } else {
                    fk.referenced.clone()
                };
                fk.columns.iter().zip(&parent_cols).any(|(c, p)| {
                    let child_side = ColRef {
                        entity: child.name.clone(),
                        column: c.clone(),
                    };
                    let parent_side = ColRef {
                        entity: fk.table.clone(),
                        column: p.clone(),
                    };
                    (*a == child_side && *b == parent_side)
                        || (*b == child_side && *a == parent_side)
                })
            });
        // Two children of one parent join through it (`posts.author_id = follows.followee_id`).
        let through_parent = shared_parent(scope.model, a, b);
        if !follows_fk && !through_parent {
            let at = conditions.get(i).map_or(scope.at, |c| scope.pos(c));
            return Err(scope.err(
                DesignErrorKind::NoForeignKeyPath,
                at,
                format!(
                    "join `{}.{} = {}.{}` follows no foreign key of the model",
                    a.entity, a.column, b.entity, b.column
                ),
            ));
        }
    }
    for e in spec.entities.iter().skip(1) {
        if !spec
            .joins
            .iter()
            .any(|(a, b)| a.entity == *e || b.entity == *e)
        {
            return Err(scope.err(
                DesignErrorKind::NoForeignKeyPath,
                scope.at,
                format!("`{e}` is joined without a condition"),
            ));
        }
    }
    Ok(())
}

fn shared_parent(model: &Model, a: &ColRef, b: &ColRef) -> bool {
    let target = |c: &ColRef| {
        model.entity(&c.entity).and_then(|e| {
            e.foreign_keys
                .iter()
                .find(|fk| fk.columns.len() == 1 && fk.columns.first() == Some(&c.column))
                .map(|fk| fk.table.clone())
        })
    };
    matches!((target(a), target(b)), (Some(x), Some(y)) if x == y)
}
