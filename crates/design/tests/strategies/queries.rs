//! Annotated query lists over a generated model: SELECTs with equalities (and
//! IN), an optional range on a time or integer attribute, ORDER BY, LIMIT,
//! `count(*)`, joins along foreign keys (or through a shared parent), and
//! INSERT, UPDATE and DELETE by primary key.

use super::Draw;
use super::model::{Class, Column, Model};

/// One generated SELECT.
#[derive(Debug, Clone)]
pub struct Read {
    /// `@name`, or `Q<ordinal>` when the statement has none.
    pub name: String,
    /// `@table`, when given.
    pub table: Option<String>,
    /// `@path analytics`: off the OLTP path by declaration.
    pub analytics: bool,
    pub annotations: String,
    pub sql: String,
    /// The table whose rows are returned, then the joined ones.
    pub tables: Vec<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Insert,
    Update,
    Delete,
}

/// One generated INSERT, UPDATE or DELETE.
#[derive(Debug, Clone)]
pub struct Mutation {
    pub name: String,
    pub explicit_name: bool,
    pub kind: Kind,
    pub table: usize,
    /// Inserted or assigned columns.
    pub columns: Vec<String>,
    pub annotations: String,
    pub sql: String,
}

const CONSISTENCY: &[&str] = &["LOCAL_ONE", "LOCAL_QUORUM", "ONE", "QUORUM", "local_quorum"];
const RATES: &[&str] = &["200/s", "1/min", "5000/s", "3.5/s", "10/h", "2k/s", "1/day"];
/// `@table` names, one per read ordinal: no digits, so that a collision
/// suffix the designer adds stays visible.
const CUSTOM_TABLES: &[&str] = &[
    "feed", "lookup", "timeline", "history", "latest", "recent", "index",
];
const ALIASES: &[&str] = &["a", "b", "c"];

/// `$n` placeholders in order of appearance.
struct Params(usize);

impl Params {
    fn next(&mut self) -> String {
        self.0 += 1;
        format!("${}", self.0)
    }
}

fn table_ref(d: &mut Draw, name: &str) -> String {
    if d.chance(50) {
        format!("public.{name}")
    } else {
        name.to_string()
    }
}

/// A candidate join from a table already in the query to a new one: the pairs
/// of (column of the table in scope, column of the new table) to equate.
struct Link {
    from: usize,
    to: usize,
    pairs: Vec<(String, String)>,
}

fn links(model: &Model, scope: &[usize]) -> Vec<Link> {
    let mut out = Vec::new();
    for (si, &s) in scope.iter().enumerate() {
        let st = &model.tables[s];
        // The table in scope is the child.
        for fk in &st.foreign_keys {
            if !scope.contains(&fk.parent) {
                out.push(Link {
                    from: si,
                    to: fk.parent,
                    pairs: fk
                        .columns
                        .iter()
                        .cloned()
                        .zip(fk.referenced.iter().cloned())
                        .collect(),
                });
            }
        }
        for (c, ct) in model.tables.iter().enumerate() {
            if scope.contains(&c) {
                continue;
            }
            // The table in scope is the parent.
            for fk in ct.foreign_keys.iter().filter(|f| f.parent == s) {
                out.push(Link {
                    from: si,
                    to: c,
                    pairs: fk
                        .referenced
                        .iter()
                        .cloned()
                        .zip(fk.columns.iter().cloned())
                        .collect(),
                });
            }
            // Two children of one parent, through their single-column keys.
            for fa in st.foreign_keys.iter().filter(|f| f.columns.len() == 1) {
                for fb in ct
                    .foreign_keys
                    .iter()
                    .filter(|f| f.columns.len() == 1 && f.parent == fa.parent)
                {
                    out.push(Link {
                        from: si,
                        to: c,
                        pairs: fa
                            .columns
                            .iter()
                            .cloned()
                            .zip(fb.columns.iter().cloned())
                            .collect(),
                    });
                }
            }
        }
    }
    out
}

pub fn reads(d: &mut Draw, model: &Model) -> Vec<Read> {
    let n = 1 + d.below(6);
    (1..=n).map(|ordinal| read(d, model, ordinal)).collect()
}

fn read(d: &mut Draw, model: &Model, ordinal: usize) -> Read {
    let root = d.below(model.tables.len());
    let mut scope = vec![root];
    let mut joins: Vec<String> = Vec::new();
    let wanted_joins = match d.below(10) {
        0..=5 => 0,
        6..=8 => 1,
        _ => 2,
    };
    for _ in 0..wanted_joins {
        let candidates = links(model, &scope);
        if candidates.is_empty() {
            break;
        }
        let link = d.pick(&candidates);
        let alias = ALIASES[scope.len()];
        let from_alias = ALIASES[link.from];
        let conds: Vec<String> = link
            .pairs
            .iter()
            .map(|(a, b)| {
                if d.chance(30) {
                    format!("{alias}.{b} = {from_alias}.{a}")
                } else {
                    format!("{from_alias}.{a} = {alias}.{b}")
                }
            })
            .collect();
        let left = if d.chance(15) { "LEFT JOIN" } else { "JOIN" };
        let name = table_ref(d, &model.tables[link.to].name);
        joins.push(format!(
            "  {left} {name} {alias} ON {}",
            conds.join(" AND ")
        ));
        scope.push(link.to);
    }
    let qualify = scope.len() > 1 || d.chance(50);
    let aliased = qualify || d.chance(50);
    let columns: Vec<(String, &Column)> = scope
        .iter()
        .enumerate()
        .flat_map(|(i, &t)| {
            model.tables[t].columns.iter().map(move |c| {
                let r = if qualify {
                    format!("{}.{}", ALIASES[i], c.name)
                } else {
                    c.name.clone()
                };
                (r, c)
            })
        })
        .collect();
    let mut params = Params(0);
    let count = d.chance(12);
    let projection = if count {
        d.pick(&["count(*)", "count(*) AS n"]).to_string()
    } else if d.chance(10) {
        "*".into()
    } else {
        let k = 1 + d.below(4);
        d.subset(columns.len(), k)
            .into_iter()
            .map(|i| columns[i].0.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let scalar: Vec<usize> = (0..columns.len())
        .filter(|&i| columns[i].1.class != Class::List)
        .collect();
    let mut predicates = Vec::new();
    let equalities = match d.below(10) {
        0 => 0,
        1..=6 => 1,
        _ => 2,
    };
    let chosen: Vec<usize> = d
        .subset(scalar.len(), equalities)
        .into_iter()
        .map(|i| scalar[i])
        .collect();
    for &i in &chosen {
        let c = &columns[i].0;
        if d.chance(15) {
            let values: Vec<String> = (0..2 + d.below(2)).map(|_| params.next()).collect();
            predicates.push(format!("{c} IN ({})", values.join(", ")));
        } else if d.chance(10) {
            predicates.push(format!("{} = {c}", params.next()));
        } else {
            predicates.push(format!("{c} = {}", params.next()));
        }
    }
    let rangeable: Vec<usize> = (0..columns.len())
        .filter(|&i| {
            matches!(columns[i].1.class, Class::Time | Class::Integer) && !chosen.contains(&i)
        })
        .collect();
    let range = (!rangeable.is_empty() && d.chance(40)).then(|| *d.pick(&rangeable));
    if let Some(i) = range {
        let c = &columns[i].0;
        let p = match d.below(6) {
            0 => format!("{c} > {}", params.next()),
            1 => format!("{c} >= {}", params.next()),
            2 => format!("{c} < {}", params.next()),
            3 => format!("{c} <= {}", params.next()),
            4 => format!("{c} >= {} AND {c} < {}", params.next(), params.next()),
            _ => format!("{c} BETWEEN {} AND {}", params.next(), params.next()),
        };
        predicates.push(p);
    }
    let mut sql = format!(
        "SELECT {projection}\n  FROM {}{}",
        table_ref(d, &model.tables[root].name),
        if aliased { " a" } else { "" }
    );
    for j in &joins {
        sql.push('\n');
        sql.push_str(j);
    }
    if !predicates.is_empty() {
        sql.push_str(&format!("\n WHERE {}", predicates.join("\n   AND ")));
    }
    let mut limit = None;
    if !count {
        if d.chance(50) {
            let mut order = Vec::new();
            let first = match range {
                Some(i) if d.chance(70) => Some(i),
                _ if scalar.is_empty() => None,
                _ => Some(*d.pick(&scalar)),
            };
            if let Some(i) = first {
                order.push(i);
                if d.chance(20) {
                    let other = *d.pick(&scalar);
                    if other != i {
                        order.push(other);
                    }
                }
            }
            let terms: Vec<String> = order
                .iter()
                .map(|&i| {
                    let dir = *d.pick(&["", " ASC", " DESC", " DESC"]);
                    format!("{}{dir}", columns[i].0)
                })
                .collect();
            if !terms.is_empty() {
                sql.push_str(&format!("\n ORDER BY {}", terms.join(", ")));
            }
        }
        if d.chance(35) {
            let l = *d.pick(&[20u64, 1, 50, 100, 10]);
            sql.push_str(&format!("\n LIMIT {l}"));
            limit = Some(l);
        }
    }
    let explicit_name = !d.chance(10);
    let name = if explicit_name {
        format!("read_{ordinal}")
    } else {
        format!("Q{ordinal}")
    };
    let mut annotations = if explicit_name {
        format!("@name {name}")
    } else {
        String::new()
    };
    annotate_common(d, &mut annotations);
    if d.chance(25) {
        let page = *d.pick(&[50u64, 10, 100, 1000]);
        let page = limit.map_or(page, |l| page.min(l));
        annotations.push_str(&format!(" @page {page}"));
    }
    let table = d
        .chance(10)
        .then(|| format!("{}_by_hand", CUSTOM_TABLES[ordinal % CUSTOM_TABLES.len()]));
    if let Some(t) = &table {
        annotations.push_str(&format!(" @table {t}"));
    }
    let analytics = d.chance(5);
    if analytics {
        annotations.push_str(" @path analytics");
    }
    Read {
        name,
        table,
        analytics,
        annotations,
        sql,
        tables: scope,
    }
}

fn annotate_common(d: &mut Draw, annotations: &mut String) {
    if d.chance(70) {
        annotations.push_str(&format!(" @rate {}", d.pick(RATES)));
    }
    if d.chance(60) {
        annotations.push_str(&format!(" @cl {}", d.pick(CONSISTENCY)));
    }
}

/// Up to four mutations; `render` settles the names of unnamed ones.
pub fn mutations(d: &mut Draw, model: &Model) -> Vec<Mutation> {
    let n = d.below(5);
    (0..n).map(|j| mutation(d, model, j)).collect()
}

fn mutation(d: &mut Draw, model: &Model, index: usize) -> Mutation {
    let table = d.below(model.tables.len());
    let t = &model.tables[table];
    let non_key = t.non_key();
    let kind = match d.below(3) {
        1 if !non_key.is_empty() => Kind::Update,
        2 => Kind::Delete,
        _ => Kind::Insert,
    };
    let name_sql = table_ref(d, &t.name);
    let mut params = Params(0);
    let key_where = |params: &mut Params| {
        t.primary_key
            .iter()
            .map(|c| format!("{c} = {}", params.next()))
            .collect::<Vec<_>>()
            .join(" AND ")
    };
    let (columns, sql) = match kind {
        Kind::Insert => {
            if d.chance(15) {
                let all: Vec<String> = t.columns.iter().map(|c| c.name.clone()).collect();
                let values: Vec<String> = all.iter().map(|_| params.next()).collect();
                let sql = format!("INSERT INTO {name_sql} VALUES ({})", values.join(", "));
                (all, sql)
            } else {
                let fk: Vec<&String> = t.foreign_keys.iter().flat_map(|f| &f.columns).collect();
                let every = d.chance(50);
                let cols: Vec<String> = t
                    .columns
                    .iter()
                    .filter(|c| {
                        t.primary_key.contains(&c.name)
                            || fk.contains(&&c.name)
                            || every
                            || d.chance(50)
                    })
                    .map(|c| c.name.clone())
                    .collect();
                let values: Vec<String> = cols.iter().map(|_| params.next()).collect();
                let sql = format!(
                    "INSERT INTO {name_sql} ({})\nVALUES ({})",
                    cols.join(", "),
                    values.join(", ")
                );
                (cols, sql)
            }
        }
        Kind::Update => {
            let k = 1 + d.below(2);
            let set: Vec<String> = d
                .subset(non_key.len(), k)
                .into_iter()
                .map(|i| non_key[i].name.clone())
                .collect();
            let assignments: Vec<String> = set
                .iter()
                .map(|c| format!("{c} = {}", params.next()))
                .collect();
            let sql = format!(
                "UPDATE {name_sql}\n   SET {}\n WHERE {}",
                assignments.join(", "),
                key_where(&mut params)
            );
            (set, sql)
        }
        Kind::Delete => {
            let sql = format!("DELETE FROM {name_sql}\n WHERE {}", key_where(&mut params));
            (Vec::new(), sql)
        }
    };
    let explicit_name = !d.chance(10);
    let mut annotations = String::new();
    let name = if explicit_name {
        let n = format!("write_{}", index + 1);
        annotations.push_str(&format!("@name {n}"));
        n
    } else {
        String::new()
    };
    annotate_common(d, &mut annotations);
    Mutation {
        name,
        explicit_name,
        kind,
        table,
        columns,
        annotations,
        sql,
    }
}

/// The query list: reads first, then mutations; an unnamed statement is
/// `Q<ordinal>` in file order, which is settled here.
pub fn render(d: &mut Draw, reads: &[Read], mutations: &mut [Mutation]) -> String {
    let mut out = String::from("-- The application's statements.\n\n");
    let mut ordinal = 0;
    for r in reads {
        ordinal += 1;
        push_statement(d, &mut out, &r.annotations, &r.sql);
    }
    for m in mutations.iter_mut() {
        ordinal += 1;
        if !m.explicit_name {
            m.name = format!("Q{ordinal}");
        }
        push_statement(d, &mut out, &m.annotations, &m.sql);
    }
    out
}

fn push_statement(d: &mut Draw, out: &mut String, annotations: &str, sql: &str) {
    if d.chance(30) {
        out.push_str("-- what the application asks; $1 is the caller's id.\n");
    }
    let annotations = annotations.trim();
    if !annotations.is_empty() {
        out.push_str(&format!("-- {annotations}\n"));
    }
    out.push_str(sql);
    out.push_str(";\n\n");
}
