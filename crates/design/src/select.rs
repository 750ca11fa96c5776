//! One SQL statement of the query list, reduced to what the design needs: which
//! entities it joins (along which foreign keys), which attributes it binds by
//! equality or range, its ordering, limit and aggregates.

use sqlparser::ast::{
    BinaryOperator, Expr, GroupByExpr, InTarget, JoinConstraint, JoinOperator, LimitClause,
    OrderByKind, Query, Select, SelectItem, SelectItemQualifiedWildcardKind, SetExpr, TableFactor,
    TableWithJoins,
};

use crate::error::{DesignError, DesignErrorKind, Source};
use crate::relational::{Model, unquote};
pub use crate::select_inline::Rewrite;
use crate::select_inline::{
    anti_join, check_inlinable, describe, merge_filters, outputs, semi_join_note,
};
pub(crate) use crate::select_items::conjuncts;
use crate::select_items::{predicates, projection_expr};
use crate::select_spec::push_unique;
pub use crate::select_spec::{ANY_VALUES, SelectSpec};
pub use crate::sql_scope::ColRef;
pub(crate) use crate::sql_scope::Scope;
use crate::sql_scope::{Derived, check_connected, check_joins, check_pair};

/// Reads a SELECT of the query list. Non-recursive `WITH` queries and
/// subqueries in FROM are inlined; `IN (SELECT …)` and `EXISTS (…)` are read
/// as the joins they mean. Each such rewrite is returned, to be shown.
pub fn analyze_select(
    model: &Model,
    query: &Query,
    at: (usize, usize),
) -> Result<(SelectSpec, Vec<Rewrite>), DesignError> {
    let mut an = Analysis {
        model,
        at,
        ctes: Vec::new(),
        inlined: Vec::new(),
        rewrites: Vec::new(),
    };
    let (spec, _) = an.query(query, None)?;
    Ok((spec, an.rewrites))
}

/// One statement's reading: the `WITH` queries in reach, and what was rewritten.
struct Analysis<'q, 'm> {
    model: &'m Model,
    at: (usize, usize),
    ctes: Vec<(String, &'q sqlparser::ast::Cte)>,
    /// The `WITH` queries inlined so far and their outputs: a second reference
    /// reads the same rows.
    inlined: Vec<(String, Vec<(String, ColRef)>)>,
    rewrites: Vec<Rewrite>,
}

fn unsupported(scope: &Scope, where_: (usize, usize), what: &str) -> DesignError {
    scope.err(
        DesignErrorKind::Unsupported,
        where_,
        format!("{what} is outside the supported SQL subset"),
    )
}

impl<'q, 'm> Analysis<'q, 'm> {
    /// A query (the statement, a `WITH` query, a subquery): its spec and the
    /// scope its names resolved in.
    fn query(
        &mut self,
        query: &'q Query,
        outer: Option<&Scope<'m>>,
    ) -> Result<(SelectSpec, Scope<'m>), DesignError> {
        let mut scope = Scope::new(self.model, self.at, Source::Queries);
        scope.outer = outer.cloned().map(Box::new);
        let reach = self.ctes.len();
        if let Some(with) = &query.with {
            if with.recursive {
                return Err(scope.err(
                    DesignErrorKind::Unsupported,
                    scope.pos(with),
                    "WITH RECURSIVE is a graph walk, which no Cassandra key answers in one read: model it as an adjacency table (children by parent id) read level by level by the application, or keep the walk off the OLTP path (@path analytics)",
                ));
            }
            for cte in &with.cte_tables {
                self.ctes.push((unquote(&cte.alias.name.to_string()), cte));
            }
        }
        let result = self.select(query, &mut scope);
        let declared: Vec<&'q sqlparser::ast::Cte> =
            self.ctes.drain(reach..).map(|(_, c)| c).collect();
        let spec = result?;
        self.unread_ctes(&scope, &declared)?;
        Ok((spec, scope))
    }

    /// A `WITH` query the statement never reads: a SELECT is left out (noted);
    /// a writable one (`WITH x AS (DELETE …)`) changes data and is refused.
    fn unread_ctes(
        &mut self,
        scope: &Scope<'m>,
        declared: &[&'q sqlparser::ast::Cte],
    ) -> Result<(), DesignError> {
        for cte in declared {
            let name = unquote(&cte.alias.name.to_string());
            if self.inlined.iter().any(|(n, _)| *n == name) {
                continue;
            }
            let at = scope.pos(&Expr::Identifier(cte.alias.name.clone()));
            if !matches!(cte.query.body.as_ref(), SetExpr::Select(_)) {
                return Err(unsupported(
                    scope,
                    at,
                    &format!(
                        "the WITH query `{name}`, which is not a SELECT (a writable WITH, or a set operation),"
                    ),
                ));
            }
            self.rewrites.push(Rewrite::new(
                at,
                format!("WITH `{name}` is never read by the statement: left out"),
            ));
        }
        Ok(())
    }

    fn select(
        &mut self,
        query: &'q Query,
        scope: &mut Scope<'m>,
    ) -> Result<SelectSpec, DesignError> {
        let select: &'q Select = match query.body.as_ref() {
            SetExpr::Select(s) => s,
            SetExpr::SetOperation { op, .. } => {
                return Err(unsupported(
                    scope,
                    scope.pos(query.body.as_ref()),
                    &format!("{op}"),
                ));
            }
            other => return Err(unsupported(scope, scope.pos(other), "this query body")),
        };
        let mut spec = SelectSpec::default();
        let [from]: &[TableWithJoins; 1] = select.from.as_slice().try_into().map_err(|_| {
            unsupported(
                scope,
                self.at,
                "a SELECT without exactly one FROM item (use JOIN … ON)",
            )
        })?;
        let root_outputs = self.read_from_item(scope, &mut spec, &from.relation)?;
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
                        scope,
                        scope.pos(&join.relation),
                        &format!("the {kind} join (only JOIN and LEFT JOIN … ON)"),
                    ));
                }
            };
            self.read_from_item(scope, &mut spec, &join.relation)?;
            match constraint {
                JoinConstraint::On(e) => join_conditions.push(e),
                _ => {
                    return Err(unsupported(
                        scope,
                        scope.pos(&join.relation),
                        "a join without ON",
                    ));
                }
            }
        }
        let mut on_joins = Vec::new();
        let mut parts = Vec::new();
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
                on_joins.push((a, b));
                parts.push(part.clone());
            }
        }
        check_joins(scope, &on_joins, &parts)?;
        spec.joins.extend(on_joins);
        check_connected(scope, &spec.joins, &spec.entities)?;
        self.projection(scope, select, root_outputs, &mut spec)?;
        let mut subqueries = Vec::new();
        if let Some(w) = &select.selection {
            predicates(scope, w, &mut spec, &mut subqueries)?;
        }
        for p in subqueries {
            self.subquery(scope, p, &mut spec)?;
        }
        tail_clauses(scope, query, select, &mut spec)?;
        Ok(spec)
    }

    /// One FROM item: a table of the model, or a `WITH` query or subquery
    /// inlined (its outputs are returned).
    fn read_from_item(
        &mut self,
        scope: &mut Scope<'m>,
        spec: &mut SelectSpec,
        factor: &'q TableFactor,
    ) -> Result<Option<Vec<ColRef>>, DesignError> {
        match factor {
            TableFactor::Table { name, alias, .. } if name.0.len() == 1 => {
                let cte_name = unquote(&name.to_string());
                let alias = alias
                    .as_ref()
                    .map_or_else(|| cte_name.clone(), |a| unquote(&a.name.to_string()));
                if let Some((_, outs)) = self.inlined.iter().find(|(n, _)| *n == cte_name) {
                    // The rows are the ones the first reference read.
                    let outputs = outs.clone();
                    self.rewrites.push(Rewrite::new(
                        scope.pos(name),
                        format!("WITH `{cte_name}` read again as `{alias}`: the same rows as its first reference, not a second read"),
                    ));
                    scope.derived.push(Derived {
                        alias,
                        outputs: outputs.clone(),
                    });
                    return Ok(Some(outputs.into_iter().map(|(_, c)| c).collect()));
                }
                let found = self.ctes.iter().rposition(|(n, _)| *n == cte_name);
                let Some((index, cte)) = found.and_then(|i| self.ctes.get(i).map(|c| (i, c.1)))
                else {
                    spec.entities.push(scope.add_table(factor)?);
                    return Ok(None);
                };
                let what = format!("WITH `{cte_name}`");
                // A WITH query sees the ones declared before it only (without
                // RECURSIVE, its own name is a table): never itself.
                let later = self.ctes.split_off(index);
                let inlined = self.inline(scope, spec, &cte.query, &what, scope.pos(name));
                self.ctes.extend(later);
                let mut outputs = inlined?;
                // `WITH recent(id, total) AS (…)` renames the columns in order.
                for (o, renamed) in outputs.iter_mut().zip(&cte.alias.columns) {
                    o.0 = unquote(&renamed.name.to_string());
                }
                self.inlined.push((cte_name, outputs.clone()));
                scope.derived.push(Derived {
                    alias,
                    outputs: outputs.clone(),
                });
                Ok(Some(outputs.into_iter().map(|(_, c)| c).collect()))
            }
            TableFactor::Derived {
                lateral: false,
                subquery,
                alias,
                ..
            } => {
                let alias = alias
                    .as_ref()
                    .map_or_else(|| "subquery".to_string(), |a| unquote(&a.name.to_string()));
                let what = format!("the subquery `{alias}` in FROM");
                let outputs = self.inline(scope, spec, subquery, &what, scope.pos(factor))?;
                scope.derived.push(Derived {
                    alias,
                    outputs: outputs.clone(),
                });
                Ok(Some(outputs.into_iter().map(|(_, c)| c).collect()))
            }
            _ => {
                spec.entities.push(scope.add_table(factor)?);
                Ok(None)
            }
        }
    }

    /// Inlines a query read in FROM: its tables, joins and filters join the
    /// statement's; its select list becomes the names the statement reads.
    fn inline(
        &mut self,
        scope: &mut Scope<'m>,
        spec: &mut SelectSpec,
        query: &'q Query,
        what: &str,
        at: (usize, usize),
    ) -> Result<Vec<(String, ColRef)>, DesignError> {
        let (sub, sub_scope) = self.query(query, None)?;
        check_inlinable(scope, &sub, what, at, "make it a query of its own")?;
        let outs = match query.body.as_ref() {
            SetExpr::Select(s) => outputs(&sub_scope, s)?,
            _ => Vec::new(),
        };
        for e in &sub.entities {
            if scope.tables.iter().any(|(_, t)| t == e)
                || scope.inlined.contains(e)
                || spec.entities.contains(e)
            {
                return Err(scope.err(
                    DesignErrorKind::Unsupported,
                    at,
                    format!("{what} reads `{e}`, which the statement reads already (a self-join): list the two reads separately"),
                ));
            }
        }
        scope.inlined.extend(sub.entities.iter().cloned());
        self.rewrites.push(Rewrite::new(
            at,
            format!("{what} inlined into the statement: {}", describe(&sub)),
        ));
        merge_filters(spec, sub);
        Ok(outs)
    }

    fn projection(
        &self,
        scope: &Scope<'m>,
        select: &Select,
        root_outputs: Option<Vec<ColRef>>,
        spec: &mut SelectSpec,
    ) -> Result<(), DesignError> {
        for item in &select.projection {
            match item {
                SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                    projection_expr(scope, e, spec)?;
                }
                SelectItem::Wildcard(_) => {
                    let columns = match &root_outputs {
                        Some(outs) => outs.clone(),
                        None => entity_columns(self.model, spec.entities.first()),
                    };
                    for c in columns {
                        push_unique(&mut spec.projection, c);
                    }
                }
                SelectItem::QualifiedWildcard(
                    SelectItemQualifiedWildcardKind::ObjectName(name),
                    _,
                ) => {
                    let alias = unquote(&name.to_string());
                    let columns = if let Some(d) = scope.derived.iter().find(|d| d.alias == alias) {
                        d.outputs.iter().map(|(_, c)| c.clone()).collect()
                    } else {
                        let entity = scope
                            .tables
                            .iter()
                            .find(|(a, _)| *a == alias)
                            .map(|(_, e)| e.clone());
                        if entity.as_ref().and_then(|e| self.model.entity(e)).is_none() {
                            return Err(scope.err(
                                DesignErrorKind::UnknownTable,
                                scope.pos(name),
                                format!("unknown table `{alias}`"),
                            ));
                        }
                        entity_columns(self.model, entity.as_ref())
                    };
                    for c in columns {
                        push_unique(&mut spec.projection, c);
                    }
                }
                other => {
                    return Err(unsupported(
                        scope,
                        scope.pos(other),
                        &format!("the select item `{other}`"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// `x IN (SELECT y …)` and `EXISTS (SELECT … WHERE inner.fk = outer.pk)`:
    /// the join they mean (a semi-join), its filters the statement's.
    fn subquery(
        &mut self,
        scope: &Scope<'m>,
        p: &'q Expr,
        spec: &mut SelectSpec,
    ) -> Result<(), DesignError> {
        let at = scope.pos(p);
        let (query, outer_col, negated) = match p {
            Expr::In {
                expr,
                target: InTarget::Subquery(q),
                negated,
                ..
            } => (q.as_ref(), Some(expr.as_ref()), *negated),
            Expr::Exists { subquery, negated } => (subquery.as_ref(), None, *negated),
            _ => return Ok(()),
        };
        if negated {
            return Err(anti_join(scope, at, p, spec.entities.first()));
        }
        let (sub, sub_scope) = self.query(query, Some(scope))?;
        let what = if outer_col.is_some() {
            "IN (SELECT …)"
        } else {
            "EXISTS (SELECT …)"
        };
        check_inlinable(
            scope,
            &sub,
            what,
            at,
            "read it as its own query and pass its result as a parameter",
        )?;
        for e in &sub.entities {
            if spec.entities.contains(e) {
                return Err(scope.err(
                    DesignErrorKind::Unsupported,
                    at,
                    format!("the subquery reads `{e}`, which the statement reads already (a self-join): list the two reads separately"),
                ));
            }
        }
        let mut links = Vec::new();
        if let Some(e) = outer_col {
            let Some(outer) = scope.column(e)? else {
                return Err(unsupported(
                    scope,
                    at,
                    &format!("`{p}` (IN (SELECT …) on an expression, not a column)"),
                ));
            };
            let outs = match query.body.as_ref() {
                SetExpr::Select(s) => outputs(&sub_scope, s)?,
                _ => Vec::new(),
            };
            let [(_, inner)] = outs.as_slice() else {
                return Err(unsupported(
                    scope,
                    at,
                    "IN (SELECT …) whose subquery does not select exactly one column",
                ));
            };
            links.push((outer, inner.clone()));
        }
        // The correlation: equalities between the subquery's columns and the statement's.
        links.extend(
            sub.joins
                .iter()
                .filter(|(a, b)| {
                    spec.entities.contains(&a.entity) != spec.entities.contains(&b.entity)
                })
                .cloned(),
        );
        if links.is_empty() {
            return Err(unsupported(
                scope,
                at,
                "an EXISTS that names no column of the statement (a yes/no question of its own: list it as its own query, `SELECT … LIMIT 1`)",
            ));
        }
        for (a, b) in &links {
            check_pair(scope, a, b, at)?;
        }
        self.rewrites.push(Rewrite::new(
            at,
            semi_join_note(self.model, what, &links, &sub),
        ));
        let outer_links: Vec<_> = links
            .into_iter()
            .filter(|l| !sub.joins.contains(l))
            .collect();
        merge_filters(spec, sub);
        spec.joins.extend(outer_links);
        Ok(())
    }
}

fn entity_columns(model: &Model, entity: Option<&String>) -> Vec<ColRef> {
    entity
        .and_then(|e| model.entity(e))
        .map(|en| {
            en.attributes
                .iter()
                .map(|a| ColRef {
                    entity: en.name.clone(),
                    column: a.name.clone(),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// GROUP BY, HAVING, ORDER BY and LIMIT.
fn tail_clauses(
    scope: &Scope,
    query: &Query,
    select: &Select,
    spec: &mut SelectSpec,
) -> Result<(), DesignError> {
    let aliases: Vec<String> = select
        .projection
        .iter()
        .filter_map(|i| match i {
            SelectItem::ExprWithAlias { alias, .. } => Some(unquote(&alias.to_string())),
            _ => None,
        })
        .collect();
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
    Ok(())
}
