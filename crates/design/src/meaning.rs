//! Stage between the query list and the tables: what each mutation must keep
//! of what PostgreSQL did for it. PostgreSQL enforced a primary key, checked a
//! WHERE beyond the key and computed `n = n + 1` under a row lock; Cassandra
//! does none of that unless the design says how. Decided once for the whole
//! list, because one statement's choice depends on the others (a column that
//! is only ever incremented can be a counter; one also set absolutely cannot).

use std::collections::BTreeMap;

use crate::querylist::{Body, Condition, Conflict, MutationKind, MutationSpec, QuerySpec};
use crate::relational::{Entity, Model};

/// What the design keeps of the mutations' meaning.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Meaning {
    /// Per entity, the attributes kept in its counter table: only ever
    /// incremented, never set absolutely, never a key.
    pub counters: Vec<(String, Vec<String>)>,
    /// Entities whose inserts claim the primary key (`IF NOT EXISTS`), with why.
    pub claimed: Vec<(String, String)>,
    /// UNIQUE keys the inserts supply: each needs a table keyed by it to claim it.
    pub unique_claims: Vec<(String, Vec<String>)>,
    /// Per mutation (by name), what the designer decided about its meaning.
    pub notes: BTreeMap<String, Vec<String>>,
}

impl Meaning {
    pub fn counters_of(&self, entity: &str) -> &[String] {
        self.counters
            .iter()
            .find(|(e, _)| e == entity)
            .map_or(&[], |(_, c)| c.as_slice())
    }

    pub fn claims_primary_key(&self, entity: &str) -> bool {
        self.claimed.iter().any(|(e, _)| e == entity)
    }

    fn note(&mut self, query: &str, text: String) {
        self.notes.entry(query.to_string()).or_default().push(text);
    }
}

/// Decides counters, read-modify-writes, compare-and-sets and claims, and
/// rewrites the mutations accordingly (a read-modify-write gains its condition).
pub fn decide(model: &mut Model, specs: &mut [QuerySpec]) -> Meaning {
    crate::ann::ann_orders(model, specs);
    distinct_sets(specs);
    let model: &Model = model;
    let mut meaning = Meaning::default();
    optimistic_locks(specs, &mut meaning);
    increments(model, specs, &mut meaning);
    compare_and_sets(specs, &mut meaning);
    claims(model, specs, &mut meaning);
    patches(specs, &mut meaning);
    meaning
}

/// `SET col = coalesce($1, col)`: "leave it when not given".
fn patches(specs: &mut [QuerySpec], meaning: &mut Meaning) {
    for (name, m) in mutations(specs) {
        if m.patch.is_empty() {
            continue;
        }
        let cols: Vec<String> = m.patch.iter().map(|c| format!("`{c}`")).collect();
        meaning.note(
            name,
            format!(
                "patch update: {} keep their value when the parameter is null (`coalesce($n, col)`); the CQL binds UNSET for them (protocol v4+), never null, which would delete the stored value",
                cols.join(", ")
            ),
        );
    }
}

/// `count(DISTINCT x) … WHERE <key> = $1`: not a counter of rows (a second
/// row with the same `x` must not count) and not a scan of every row of the
/// key: a set of the distinct `x` per key, one row per value, whose partition
/// is counted (crate::derive builds it, the writes keep it).
fn distinct_sets(specs: &mut [QuerySpec]) {
    for q in specs.iter_mut() {
        let Body::Select(s) = &mut q.body else {
            continue;
        };
        let marker = s.app_order.iter().position(|o| o.contains("(DISTINCT …)"));
        let (Some(i), [(f, Some(x))]) = (marker, s.aggregates.as_slice()) else {
            continue;
        };
        if f != "count"
            || s.group_by != [x.clone()]
            || s.equalities.is_empty()
            || !s.ranges.is_empty()
        {
            continue;
        }
        let x = x.clone();
        s.app_order.remove(i);
        s.group_by.clear();
        s.count_distinct = Some(Box::new(x));
    }
}

fn mutations(specs: &mut [QuerySpec]) -> impl Iterator<Item = (&String, &mut MutationSpec)> {
    specs.iter_mut().filter_map(|q| match &mut q.body {
        Body::Mutation(m) => Some((&q.name, m)),
        Body::Select(_) => None,
    })
}

/// `version = version + 1 … AND version = $2`: the increment is checked by the
/// condition, so it is a plain assignment of the new value.
fn optimistic_locks(specs: &mut [QuerySpec], meaning: &mut Meaning) {
    for (name, m) in mutations(specs) {
        let locked: Vec<String> = m
            .increments
            .iter()
            .filter(|c| m.conditions.iter().any(|k| &k.column == *c && k.op == "="))
            .cloned()
            .collect();
        for c in locked {
            m.increments.retain(|x| *x != c);
            meaning.note(
                name,
                format!(
                    "optimistic locking: `{c} = {c} + …` with `AND {c} = $n` is a compare-and-set on `{c}`: the application binds the new `{c}` (the old one plus the step) and the old one in the condition"
                ),
            );
        }
    }
}

/// `n = n ± x`: a counter when nothing sets `n` absolutely and no read keys
/// by it, else a read-modify-write (a compare-and-set on the old value).
fn increments(model: &Model, specs: &mut [QuerySpec], meaning: &mut Meaning) {
    let keyed_reads: Vec<(String, String)> = specs
        .iter()
        .filter_map(|q| match &q.body {
            Body::Select(s) => Some(s),
            Body::Mutation(_) => None,
        })
        .flat_map(|s| {
            s.equalities
                .iter()
                .map(|(c, _)| c)
                .chain(&s.ranges)
                .chain(s.order.iter().map(|(c, _)| c))
                .map(|c| (c.entity.clone(), c.column.clone()))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut absolute: Vec<(String, String)> = Vec::new();
    let mut incremented: Vec<(String, String)> = Vec::new();
    for q in specs.iter() {
        let Body::Mutation(m) = &q.body else { continue };
        let upsert = m.kind == MutationKind::Insert && m.on_conflict == Some(Conflict::DoUpdate);
        for c in &m.columns {
            let pair = (m.entity.clone(), c.clone());
            if m.increments.contains(c) {
                incremented.push(pair);
            } else if m.kind == MutationKind::Update || upsert {
                absolute.push(pair);
            }
        }
    }
    for (entity, column) in &incremented {
        let e = model.entity(entity);
        let why_not = if absolute.contains(&(entity.clone(), column.clone())) {
            Some("another statement also sets it absolutely".to_string())
        } else if keyed_reads.contains(&(entity.clone(), column.clone())) {
            Some("a read selects or orders by it, and a counter cannot be a key".to_string())
        } else if e.is_some_and(|e| e.keys().any(|k| k.contains(column))) {
            Some("it is a key column".to_string())
        } else if !e
            .and_then(|e| e.attribute(column))
            .is_some_and(|a| matches!(a.cql_type.as_str(), "int" | "bigint" | "smallint"))
        {
            Some("a counter holds whole numbers only".to_string())
        } else {
            None
        };
        match why_not {
            None => match meaning.counters.iter_mut().find(|(x, _)| x == entity) {
                Some((_, cols)) if !cols.contains(column) => cols.push(column.clone()),
                Some(_) => {}
                None => meaning
                    .counters
                    .push((entity.clone(), vec![column.clone()])),
            },
            Some(why) => read_modify_write(specs, entity, column, &why, meaning),
        }
    }
    for q in specs.iter_mut() {
        let name = q.name.clone();
        let Body::Mutation(m) = &mut q.body else {
            continue;
        };
        for c in m.increments.clone() {
            meaning.note(
                &name,
                format!(
                    "`{c} = {c} ± …` is an increment: `{c}` lives in a counter column of `{}`'s counter table (Cassandra adds to a counter without reading it; a regular column would need a read and lose concurrent updates)",
                    m.entity
                ),
            );
        }
    }
}

/// The increments of `column` become compare-and-sets on its old value.
fn read_modify_write(
    specs: &mut [QuerySpec],
    entity: &str,
    column: &str,
    why: &str,
    meaning: &mut Meaning,
) {
    for (name, m) in mutations(specs) {
        if m.entity != entity || !m.increments.iter().any(|c| c == column) {
            continue;
        }
        m.increments.retain(|c| c != column);
        if !m.conditions.iter().any(|k| k.column == column) {
            m.conditions.push(Condition {
                column: column.to_string(),
                op: "=".into(),
            });
        }
        meaning.note(
            name,
            format!(
                "`{column} = {column} ± …` cannot be a counter ({why}): a read-modify-write — read `{column}`, bind the new value and the old one in `IF {column} = ?`, and re-read and retry while `[applied]` is false (PostgreSQL did this under the row lock)"
            ),
        );
    }
}

fn compare_and_sets(specs: &mut [QuerySpec], meaning: &mut Meaning) {
    for (name, m) in mutations(specs) {
        if m.conditions.is_empty() {
            continue;
        }
        let cond: Vec<String> = m
            .conditions
            .iter()
            .map(|c| format!("`{} {} ?`", c.column, c.op))
            .collect();
        meaning.note(
            name,
            format!(
                "compare-and-set: PostgreSQL {} the row only where {}; the design checks it with a lightweight transaction on the row of record and writes the other tables only when it applied",
                if m.kind == MutationKind::Delete { "deleted" } else { "changed" },
                cond.join(" and ")
            ),
        );
    }
}

/// A primary key the application supplies (a username, a code), or `ON
/// CONFLICT DO NOTHING`, is claimed; UNIQUE keys the insert supplies too.
fn claims(model: &Model, specs: &mut [QuerySpec], meaning: &mut Meaning) {
    for (name, m) in mutations(specs) {
        if m.kind != MutationKind::Insert {
            continue;
        }
        let Some(e) = model.entity(&m.entity) else {
            continue;
        };
        match m.on_conflict {
            Some(Conflict::DoUpdate) => {
                meaning.note(
                    name,
                    "`ON CONFLICT … DO UPDATE` is an upsert: Cassandra's INSERT is one already (the last writer wins, as DO UPDATE did); no claim".into(),
                );
                continue;
            }
            Some(Conflict::DoNothing) => {
                claim(
                    meaning,
                    &e.name,
                    "`ON CONFLICT DO NOTHING`: the first writer wins, `INSERT … IF NOT EXISTS`"
                        .into(),
                );
                meaning.note(name, "`ON CONFLICT DO NOTHING` is `INSERT … IF NOT EXISTS` on the row of record: when not applied, nothing else is written".into());
            }
            None => {
                if let Some(natural) = natural_key(e, m) {
                    claim(
                        meaning,
                        &e.name,
                        format!(
                            "the application supplies `{natural}`: PostgreSQL's primary key refused a second row with it, Cassandra's INSERT would silently overwrite the first"
                        ),
                    );
                    meaning.note(name, format!("the application supplies the primary key `{natural}`: claimed with `INSERT … IF NOT EXISTS` on the row of record (a silent upsert would overwrite another row); the other tables are written only when the claim applied"));
                }
            }
        }
        for u in &e.uniques {
            if u.iter().all(|c| m.columns.contains(c))
                && !meaning
                    .unique_claims
                    .iter()
                    .any(|(x, k)| *x == e.name && k == u)
            {
                meaning.unique_claims.push((e.name.clone(), u.clone()));
            }
        }
    }
}

fn claim(meaning: &mut Meaning, entity: &str, why: String) {
    if !meaning.claims_primary_key(entity) {
        meaning.claimed.push((entity.to_string(), why));
    }
}

/// A text primary-key column the insert supplies that is no foreign key: a
/// natural key (generated keys, uuids and keys copied from a parent are not
/// claimed: a repeat of them is the same row).
fn natural_key(e: &Entity, m: &MutationSpec) -> Option<String> {
    if !e.primary_key.iter().all(|c| m.columns.contains(c)) {
        return None;
    }
    e.primary_key
        .iter()
        .find(|c| {
            e.attribute(c).is_some_and(|a| a.cql_type == "text")
                && !e.foreign_keys.iter().any(|f| f.columns.contains(c))
        })
        .cloned()
}
