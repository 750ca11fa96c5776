//! Which table serves a query: the table a statement targets, whether its
//! read is served, and an existing table that would serve it.

use cqlmodel_cql::ast::{
    Ident, QualifiedName, Select, Selection, SelectorKind, Span, Statement, StatementKind,
};
use cqlmodel_schema::access::{AccessKind, AccessPath, analyze};
use cqlmodel_schema::{Schema, Table};

use super::predicates;

/// The table a statement reads or writes (`AccessPath::table` is `ks.t`).
pub fn path_table<'a>(schema: &'a Schema, path: &AccessPath) -> Option<&'a Table> {
    let (ks, name) = path.table.as_deref()?.split_once('.')?;
    schema.table(ks, name)
}

/// True when the read is served from one partition or a listed set of them.
pub fn is_served(path: &AccessPath) -> bool {
    path.error.is_none()
        && matches!(
            path.kind,
            AccessKind::SinglePartition | AccessKind::MultiPartition
        )
}

/// The existing table of the same keyspace that serves `select` (with the table
/// name swapped), if one does: the query targets the wrong table.
pub fn serving_table<'a>(
    schema: &'a Schema,
    source: &Table,
    select: &Select,
) -> Option<(&'a Table, Select)> {
    serving_table_among(schema, source, select, None)
}

/// Tables by keyspace and the sorted names of their partition-key columns: the
/// candidates a query can be served by are found by the columns it fixes,
/// without walking every table of the keyspace.
#[derive(Debug, Default)]
pub struct PartitionKeyIndex {
    by_key: std::collections::HashMap<(String, Vec<String>), Vec<String>>,
}

impl PartitionKeyIndex {
    pub fn new(schema: &Schema) -> Self {
        let mut by_key: std::collections::HashMap<(String, Vec<String>), Vec<String>> =
            std::collections::HashMap::new();
        for t in schema.tables() {
            let mut key: Vec<String> = t.partition_key().map(|c| c.name.clone()).collect();
            key.sort();
            by_key
                .entry((t.keyspace.clone(), key))
                .or_default()
                .push(t.name.clone());
        }
        Self { by_key }
    }

    /// Names of the tables of `keyspace` whose partition key is made only of
    /// `columns` (every subset of them: a query fixes a handful of columns).
    fn candidates(&self, keyspace: &str, columns: &[&str]) -> Vec<String> {
        let mut names: Vec<&str> = columns.to_vec();
        names.sort_unstable();
        names.dedup();
        if names.len() > 12 {
            // 4,096 subsets at most; beyond, every table is a candidate.
            return Vec::new();
        }
        let mut out = Vec::new();
        for mask in 1u32..(1 << names.len()) {
            let subset: Vec<String> = names
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, n)| (*n).to_string())
                .collect();
            if let Some(tables) = self.by_key.get(&(keyspace.to_string(), subset)) {
                out.extend(tables.iter().cloned());
            }
        }
        out.sort();
        out
    }
}

/// [`serving_table`], looking only at the tables `index` offers when given.
pub fn serving_table_among<'a>(
    schema: &'a Schema,
    source: &Table,
    select: &Select,
    index: Option<&PartitionKeyIndex>,
) -> Option<(&'a Table, Select)> {
    let keyspace = schema.keyspace(&source.keyspace)?;
    let needed = referenced_columns(source, select);
    let p = predicates(source, select).ok()?;
    let equal: Vec<&str> = p
        .equal
        .iter()
        .filter_map(|i| source.columns.get(*i))
        .map(|c| c.name.as_str())
        .collect();
    if equal.is_empty() {
        // No table's partition key can be fixed by a query that fixes nothing.
        return None;
    }
    let indexed: Option<Vec<&'a Table>> = index.filter(|_| equal.len() <= 12).map(|ix| {
        ix.candidates(&source.keyspace, &equal)
            .iter()
            .filter_map(|n| keyspace.tables.get(n))
            .collect()
    });
    let all: Box<dyn Iterator<Item = &'a Table>> = match indexed {
        Some(list) => Box::new(list.into_iter()),
        None => Box::new(keyspace.tables.values()),
    };
    // Only a table whose whole partition key the query fixes can serve it: checked
    // first, it keeps the search cheap on schemas with many similar tables.
    all.filter(|t| t.name != source.name)
        .filter(|t| t.partition_key().all(|c| equal.contains(&c.name.as_str())))
        .filter(|t| needed.iter().all(|c| t.column(c).is_some()))
        .find_map(|t| {
            let mut rewritten = select.clone();
            rewritten.table = retarget(&select.table, &t.name);
            rewritten.allow_filtering = false;
            let path = analyze_select(schema, &rewritten, &source.keyspace);
            (is_served(&path) && !path.filtering).then_some((t, rewritten))
        })
}

/// Every column the query names (for `*`, every column of the source table).
fn referenced_columns(source: &Table, select: &Select) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    match &select.selection {
        Selection::Wildcard(_) => out.extend(source.columns.iter().map(|c| c.name.clone())),
        Selection::Selectors(selectors) => {
            let mut stack: Vec<&SelectorKind> = selectors.iter().map(|s| &s.kind).collect();
            while let Some(kind) = stack.pop() {
                match kind {
                    SelectorKind::Column(c)
                    | SelectorKind::WriteTime(c)
                    | SelectorKind::MaxWriteTime(c)
                    | SelectorKind::Ttl(c) => out.push(c.value.clone()),
                    SelectorKind::Function { args, .. } => {
                        stack.extend(args.iter().map(|a| &a.kind))
                    }
                    SelectorKind::Cast { selector, .. }
                    | SelectorKind::TypeHint { selector, .. }
                    | SelectorKind::Field { selector, .. }
                    | SelectorKind::Element { selector, .. }
                    | SelectorKind::Negate(selector) => stack.push(&selector.kind),
                    SelectorKind::Binary { left, right, .. } => {
                        stack.push(&left.kind);
                        stack.push(&right.kind);
                    }
                    SelectorKind::Tuple(_)
                    | SelectorKind::List(_)
                    | SelectorKind::Set(_)
                    | SelectorKind::Map(_) => {
                        stack.extend(kind.items().into_iter().map(|s| &s.kind));
                    }
                    SelectorKind::CountStar | SelectorKind::Term(_) => {}
                }
            }
        }
    }
    if let Ok(p) = predicates(source, select) {
        let names = p
            .equal
            .iter()
            .chain(&p.range)
            .chain(&p.filter)
            .chain(p.order_by.iter().map(|(c, _)| c))
            .filter_map(|i| source.columns.get(*i))
            .map(|c| c.name.clone());
        out.extend(names);
    }
    out.sort();
    out.dedup();
    out
}

pub(super) fn retarget(name: &QualifiedName, table: &str) -> QualifiedName {
    QualifiedName {
        keyspace: name.keyspace.clone(),
        name: Ident::new(table),
        span: Span::default(),
    }
}

pub(super) fn analyze_select(schema: &Schema, select: &Select, keyspace: &str) -> AccessPath {
    let statement = Statement {
        kind: StatementKind::Select(select.clone()),
        span: Span::default(),
    };
    analyze(schema, &statement, Some(keyspace))
}
