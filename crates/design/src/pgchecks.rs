//! Table CHECK constraints that list a column's allowed values
//! (`CHECK (status IN ('a', 'b'))`, which pg_dump prints as
//! `CHECK ((status = ANY (ARRAY['a'::text, 'b'::text])))`): such a column is a
//! tiny domain, like an enum, and the design must not partition by it alone.

use sqlparser::ast::{BinaryOperator, ColumnOption, CreateTable, Expr, InTarget, TableConstraint};

use crate::relational::{CheckSizes, object_name, unquote};

/// The CHECKs of a CREATE TABLE (table constraints and column options alike)
/// that list one column's values.
pub(crate) fn of_table(ct: &CreateTable, out: &mut CheckSizes) {
    let table = object_name(&ct.name);
    for c in &ct.constraints {
        of_constraint(&table, c, out);
    }
    for col in &ct.columns {
        for o in &col.options {
            if let ColumnOption::Check(check) = &o.option {
                let name = check
                    .name
                    .as_ref()
                    .or(o.name.as_ref())
                    .map(|n| unquote(&n.to_string()));
                add(&table, name, &check.expr, out);
            }
        }
    }
}

/// `ALTER TABLE … ADD CONSTRAINT … CHECK (…)` (pg_dump's form for NOT VALID checks).
pub(crate) fn of_constraint(table: &str, c: &TableConstraint, out: &mut CheckSizes) {
    if let TableConstraint::Check(check) = c {
        let name = check.name.as_ref().map(|n| unquote(&n.to_string()));
        add(table, name, &check.expr, out);
    }
}

fn add(table: &str, name: Option<String>, expr: &Expr, out: &mut CheckSizes) {
    if let Some((column, n)) = listed_values(expr) {
        let name = name.unwrap_or_else(|| format!("{table}_{column}_check"));
        out.insert((table.to_string(), column), (name, n));
    }
}

/// `col IN (v, …)` or `col = ANY (ARRAY[v, …])`, casts and parentheses
/// around either side allowed: the column and the number of values.
pub(crate) fn listed_values(expr: &Expr) -> Option<(String, usize)> {
    match bare(expr) {
        Expr::In {
            expr,
            target: InTarget::List(list),
            negated: false,
            ..
        } if !list.is_empty() => Some((column_of(expr)?, list.len())),
        Expr::AnyOp {
            left,
            compare_op: BinaryOperator::Eq,
            right,
            ..
        } => match bare(right) {
            Expr::Array(a) if !a.elem.is_empty() => Some((column_of(left)?, a.elem.len())),
            _ => None,
        },
        _ => None,
    }
}

/// The expression without its parentheses and casts (`((status)::text)` → `status`).
fn bare(expr: &Expr) -> &Expr {
    match expr {
        Expr::Nested(inner) => bare(inner),
        Expr::Cast { expr, .. } => bare(expr),
        other => other,
    }
}

fn column_of(expr: &Expr) -> Option<String> {
    match bare(expr) {
        Expr::Identifier(i) => Some(unquote(&i.to_string())),
        Expr::CompoundIdentifier(parts) => parts.last().map(|i| unquote(&i.to_string())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use sqlparser::ast::Statement;
    use sqlparser::dialect::PostgreSqlDialect;
    use sqlparser::parser::Parser;

    use super::{CheckSizes, of_table};

    fn checks(ddl: &str) -> CheckSizes {
        let mut out = CheckSizes::new();
        let parsed = Parser::parse_sql(&PostgreSqlDialect {}, ddl).unwrap_or_default();
        for s in parsed {
            if let Statement::CreateTable(ct) = s {
                of_table(&ct, &mut out);
            }
        }
        out
    }

    #[test]
    fn reads_the_forms_pg_dump_prints_and_skips_other_checks() {
        let found = checks(
            "CREATE TABLE public.orders (
                id integer NOT NULL,
                status character varying(10) NOT NULL,
                kind text CHECK (kind IN ('a', 'b')),
                qty integer,
                CONSTRAINT orders_status_check CHECK (((status)::text = ANY ((ARRAY['new'::character varying, 'paid'::character varying, 'sent'::character varying])::text[]))),
                CONSTRAINT orders_qty_check CHECK ((qty > 0))
            );",
        );
        let get = |c: &str| found.get(&("orders".to_string(), c.to_string())).cloned();
        assert_eq!(get("status"), Some(("orders_status_check".into(), 3)));
        assert_eq!(get("kind"), Some(("orders_kind_check".into(), 2)));
        assert_eq!(get("qty"), None);
    }
}
