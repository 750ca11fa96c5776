//! Columns an INSERT leaves to PostgreSQL's `DEFAULT` (`now()`,
//! `gen_random_uuid()`, a sequence, a constant). Cassandra fills nothing: the
//! path says who supplies each value, and writes it. A value the whole path
//! must share (a key written to several tables) comes from the application;
//! a value one statement alone writes can be CQL's own `toTimestamp(now())`
//! or `uuid()`, computed by the coordinator.

use cqlmodel_cql::keywords::quote_ident;

use super::WriteStatement;
use super::context::Context;
use crate::querylist::{MutationKind, MutationSpec};
use crate::relational::{Attribute, Entity};
use crate::select::ColRef;

/// What a PostgreSQL default computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Default {
    Now,
    Uuid,
    Sequence,
    Constant,
}

fn classify(expr: &str) -> Default {
    let e = expr.to_ascii_lowercase();
    if e.contains("nextval(") {
        Default::Sequence
    } else if e.contains("gen_random_uuid") || e.contains("uuid_generate") {
        Default::Uuid
    } else if [
        "now()",
        "current_timestamp",
        "clock_timestamp",
        "statement_timestamp",
        "current_date",
        "localtimestamp",
    ]
    .iter()
    .any(|f| e.contains(f))
    {
        Default::Now
    } else {
        Default::Constant
    }
}

/// The CQL function computing the default, for a value one statement writes.
fn cql_function(kind: Default, a: &Attribute) -> Option<&'static str> {
    match (kind, a.cql_type.as_str()) {
        (Default::Now, "timestamp") => Some("toTimestamp(now())"),
        (Default::Now, "timeuuid") | (Default::Uuid, "timeuuid") => Some("now()"),
        (Default::Now, "date") => Some("toDate(now())"),
        (Default::Uuid, "uuid") => Some("uuid()"),
        _ => None,
    }
}

/// Writes every defaulted column the insert omits into the INSERTs of the
/// tables that store it, and notes who supplies it. Returns the primary-key
/// columns it accounted for.
pub(super) fn fill_defaults(
    ctx: &Context<'_>,
    m: &MutationSpec,
    statements: &mut [WriteStatement],
    notes: &mut Vec<String>,
) -> Vec<String> {
    let mut handled = Vec::new();
    if m.kind != MutationKind::Insert {
        return handled;
    }
    let Some(e) = ctx.model.entity(&m.entity) else {
        return handled;
    };
    for a in &e.attributes {
        let Some(expr) = &a.default else { continue };
        if m.columns.contains(&a.name) {
            continue;
        }
        let kind = classify(expr);
        let holders: Vec<(usize, String)> = statements
            .iter()
            .enumerate()
            .filter(|(_, s)| s.cql.starts_with("INSERT "))
            .filter_map(|(i, s)| Some((i, column_in(ctx, &s.table, e, &a.name)?)))
            .collect();
        if holders.is_empty() {
            continue;
        }
        let function = cql_function(kind, a).filter(|_| holders.len() == 1);
        for (i, column) in &holders {
            if let Some(st) = statements.get_mut(*i) {
                set_value(&mut st.cql, column, function.unwrap_or("?"));
            }
        }
        handled.push(a.name.clone());
        notes.push(note(e, a, expr, kind, function, holders.len()));
    }
    handled
}

/// The column of `table` (the first table of that name) holding
/// `entity.column`.
fn column_in(ctx: &Context<'_>, table: &str, e: &Entity, column: &str) -> Option<String> {
    let t = ctx.named(table).next()?;
    let c = t.column_of(&ColRef {
        entity: e.name.clone(),
        column: column.to_string(),
    })?;
    Some(c.name.clone())
}

fn note(
    e: &Entity,
    a: &Attribute,
    expr: &str,
    kind: Default,
    function: Option<&str>,
    statements: usize,
) -> String {
    let key = if e.primary_key.contains(&a.name) {
        " (a primary-key column)"
    } else {
        ""
    };
    let who = match (function, kind) {
        (Some(f), _) => format!(
            "one statement writes it, so CQL computes it: `{f}` on the coordinator"
        ),
        (None, Default::Sequence) => "Cassandra has no sequences: the application gets the value from an id service (Snowflake-style) or the key becomes a uuid, and binds it".to_string(),
        (None, Default::Constant) => format!(
            "the application binds PostgreSQL's default value `{expr}`"
        ),
        (None, _) => format!(
            "{statements} statements write it and must agree: the application computes it once (its clock, or a uuid it generates) and binds it in every one; `{}` would give each statement its own value",
            cql_function(kind, a).unwrap_or("a CQL function")
        ),
    };
    format!(
        "`{}`{key} is left to PostgreSQL's `DEFAULT {expr}` by the statement; Cassandra has no defaults: {who}",
        a.name
    )
}

/// Sets `column`'s value in `INSERT INTO t (…) VALUES (…)…`, adding the
/// column when the statement does not list it. Leaves a statement it cannot
/// read as it is.
fn set_value(cql: &mut String, column: &str, value: &str) {
    let Some((head, rest)) = cql.split_once(" (") else {
        return;
    };
    let Some((cols, rest)) = rest.split_once(") VALUES (") else {
        return;
    };
    // The values end at the parenthesis that closes the list (a value may be
    // a function call: `toTimestamp(now())`).
    let mut depth = 0usize;
    let Some(end) = rest.char_indices().find_map(|(i, c)| match c {
        '(' => {
            depth += 1;
            None
        }
        ')' if depth == 0 => Some(i),
        ')' => {
            depth -= 1;
            None
        }
        _ => None,
    }) else {
        return;
    };
    let (vals, tail) = rest.split_at(end);
    let tail = tail.strip_prefix(')').unwrap_or(tail);
    let mut cols: Vec<String> = cols.split(", ").map(str::to_string).collect();
    let mut vals: Vec<String> = vals.split(", ").map(str::to_string).collect();
    if cols.len() != vals.len() {
        return;
    }
    let quoted = quote_ident(column);
    match cols.iter().position(|c| *c == quoted) {
        Some(i) => {
            if let Some(v) = vals.get_mut(i) {
                *v = value.to_string();
            }
        }
        None => {
            cols.push(quoted);
            vals.push(value.to_string());
        }
    }
    *cql = format!(
        "{head} ({}) VALUES ({}){tail}",
        cols.join(", "),
        vals.join(", ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_set_or_added() {
        let mut cql = "INSERT INTO ks.t (a, b) VALUES (?, ?) IF NOT EXISTS".to_string();
        set_value(&mut cql, "b", "uuid()");
        set_value(&mut cql, "c", "toTimestamp(now())");
        set_value(&mut cql, "d", "?");
        assert_eq!(
            cql,
            "INSERT INTO ks.t (a, b, c, d) VALUES (?, uuid(), toTimestamp(now()), ?) IF NOT EXISTS"
        );
    }

    #[test]
    fn defaults_are_told_apart() {
        assert_eq!(
            classify("nextval('public.t_id_seq'::regclass)"),
            Default::Sequence
        );
        assert_eq!(classify("gen_random_uuid()"), Default::Uuid);
        assert_eq!(classify("now()"), Default::Now);
        assert_eq!(classify("CURRENT_TIMESTAMP"), Default::Now);
        assert_eq!(classify("1"), Default::Constant);
    }
}
