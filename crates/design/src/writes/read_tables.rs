//! Which designed table each read-first step reads (issue 10 §3): a table
//! keyed by exactly the key the write has, else the entity's row of record
//! when that key is its primary key, else a table that lists the rows by it
//! (walking its buckets or salts). The read must also return the columns
//! the following statements need (the keys of the tables they change): the
//! first candidate that holds them all is read. When none does, the read
//! lists the rows' primary keys and a second read, by primary key, returns
//! the rest from the table that holds them (the row of record): the source
//! of truth every write of the entity keeps, where a copy added to the
//! listing would be one more to keep in step on every change of those
//! columns. When no table returns them, the text and a warning say which
//! columns and which table.

use super::context::Context;
use super::{ReadSource, WriteStatement};
use crate::derive::{TableDesign, TableKind};
use crate::listing::{listing_text, lists_rows_by};
use crate::select::ColRef;

/// Names the designed table of every read its producer left open. Returns
/// a warning per read whose columns no designed table returns.
pub(super) fn resolve_reads(ctx: &Context<'_>, statements: &mut [WriteStatement]) -> Vec<String> {
    let mut warnings = Vec::new();
    for s in statements.iter_mut() {
        let mut text = String::new();
        let mut then: Vec<ReadSource> = Vec::new();
        for r in s.reads.iter_mut().filter(|r| r.table.is_none()) {
            let Some(chosen) = choose(ctx, r) else {
                // A read by primary key no table serves gets its lookup
                // table (plan::read_first), and says so there; any other
                // read no table finds is said here.
                if !by_primary_key(ctx, r) {
                    warnings.push(format!(
                        "before it writes `{}`: no designed table finds the `{}` rows by {}",
                        s.table,
                        r.entity,
                        r.key.join(", ")
                    ));
                }
                continue;
            };
            let (t, listed) = chosen.table;
            r.table = Some(t.name.clone());
            if let Some(first) = chosen.passed_over {
                text.push_str(&format!(
                    "; read from `{}`, which holds them (`{}`, the first table by {}, lacks {})",
                    t.name,
                    first.name,
                    r.key.join(", "),
                    code_list(&lacking(first, &r.entity, &r.columns))
                ));
            }
            if listed {
                text.push_str(&listing_text(t, &r.key));
            }
            let missing = lacking(t, &r.entity, &r.columns);
            if missing.is_empty() {
                continue;
            }
            match second_read(ctx, r, t, &missing) {
                Some((source, words)) => {
                    text.push_str(&words);
                    then.push(source);
                }
                None => {
                    let words = unanswered(t, &missing);
                    warnings.push(format!(
                        "before it writes `{}`: {}",
                        s.table,
                        words.trim_start_matches("; ")
                    ));
                    text.push_str(&words);
                }
            }
        }
        s.reads.extend(then);
        if !text.is_empty() {
            s.reads_first = Some(match s.reads_first.take() {
                Some(first) => first + &text,
                None => text.trim_start_matches("; ").to_string(),
            });
        }
    }
    warnings
}

/// The table a read goes to, and whether it lists the rows (walking
/// buckets or salts).
struct Chosen<'a> {
    table: (&'a TableDesign, bool),
    /// The first candidate, when it lacks columns the chosen one holds.
    passed_over: Option<&'a TableDesign>,
}

/// Of the candidates in order, the first that returns every column the read
/// must, else the first.
fn choose<'a>(ctx: &Context<'a>, r: &ReadSource) -> Option<Chosen<'a>> {
    let e = ctx.model.entity(&r.entity)?;
    let keyed = ctx
        .mentioning(&r.entity)
        .filter(|t| t.kind == TableKind::Table && super::kept::keyed_by(t, &r.entity, &r.key))
        .map(|t| (t, false));
    let record = by_primary_key(ctx, r)
        .then(|| ctx.record_table(&r.entity))
        .flatten()
        .map(|t| (t, false));
    let listing = ctx
        .mentioning(&r.entity)
        .filter(|t| !r.key.is_empty() && !e.primary_key.is_empty() && lists_rows_by(t, e, &r.key))
        .map(|t| (t, true));
    let candidates: Vec<(&TableDesign, bool)> = keyed.chain(record).chain(listing).collect();
    let first = *candidates.first()?;
    let chosen = candidates
        .iter()
        .find(|(t, _)| lacking(t, &r.entity, &r.columns).is_empty())
        .copied()
        .unwrap_or(first);
    Some(Chosen {
        table: chosen,
        passed_over: (!std::ptr::eq(chosen.0, first.0)).then_some(first.0),
    })
}

/// True when `r` binds exactly its entity's primary key.
fn by_primary_key(ctx: &Context<'_>, r: &ReadSource) -> bool {
    ctx.model.entity(&r.entity).is_some_and(|e| {
        r.key.len() == e.primary_key.len() && r.key.iter().all(|k| e.primary_key.contains(k))
    })
}

/// The columns of `entity` among `columns` that `t` does not hold.
fn lacking(t: &TableDesign, entity: &str, columns: &[String]) -> Vec<String> {
    columns
        .iter()
        .filter(|c| {
            t.column_of(&ColRef {
                entity: entity.to_string(),
                column: (*c).clone(),
            })
            .is_none()
        })
        .cloned()
        .collect()
}

/// The read by primary key that returns what the listing `t` lacks, and
/// its words: possible when `t` holds the primary key and the read was not
/// already by it.
fn second_read(
    ctx: &Context<'_>,
    r: &ReadSource,
    t: &TableDesign,
    missing: &[String],
) -> Option<(ReadSource, String)> {
    let e = ctx.model.entity(&r.entity)?;
    let pk = &e.primary_key;
    if pk.is_empty() || pk.iter().all(|k| r.key.contains(k)) || !lacking(t, &e.name, pk).is_empty()
    {
        return None;
    }
    let by_pk = ReadSource::by(&e.name, pk).returning(missing.to_vec());
    let (source, _) = choose(ctx, &by_pk)?.table;
    if !lacking(source, &e.name, missing).is_empty() {
        return None;
    }
    let words = format!(
        "; `{}` does not hold {}: it gives each row's {}, then read {} from `{}` by {}, one read per listed row",
        t.name,
        code_list(missing),
        pk.join(", "),
        if missing.len() == 1 { "it" } else { "them" },
        source.name,
        pk.join(", ")
    );
    Some((
        ReadSource::from_table(&e.name, &source.name, pk).returning(missing.to_vec()),
        words,
    ))
}

/// The words of a read no designed table answers in full.
fn unanswered(t: &TableDesign, missing: &[String]) -> String {
    format!(
        "; no designed table returns {} with these rows (`{}` lacks {}, and no table holds them by the rows' primary key): carry them with the write, or add them to `{}` as regular columns",
        code_list(missing),
        t.name,
        if missing.len() == 1 { "it" } else { "them" },
        t.name
    )
}

fn code_list(cols: &[String]) -> String {
    cols.iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
