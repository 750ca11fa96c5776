//! Writes repeated over many rows: the size of a fan-out, a key move of
//! copied rows, and a mutation whose WHERE names many rows.

use cqlmodel_cql::keywords::quote_ident;
use cqlmodel_stats::{Distribution, Stats, Volume};

use super::clauses::{statement, timestamped_delete, where_of};
use super::planned::Planned;
use super::presence::is_key;
use crate::derive::{KeyPart, Role, TableColumn, TableDesign, TableKind};
use crate::querylist::{MutationKind, MutationSpec};

/// An update of an attribute that is a key column of a table holding other
/// entities' rows (`users.status` keying `posts_by_status`): every row holding
/// the entity moves, old key deleted, new key inserted; a counter moves its
/// count from the old key to the new one.
pub(super) fn move_copies(
    p: &mut Planned,
    table: &str,
    t: &TableDesign,
    m: &MutationSpec,
    keys: &[&TableColumn],
    pk: &[&TableColumn],
) {
    let each = format!(
        "once per `{}` row holding this `{}` row (their keys and values read first): fan-out on write",
        t.name, m.entity
    );
    if t.kind == TableKind::Counter {
        let where_ = where_of(pk);
        for sign in ["-", "+"] {
            let mut st = statement(
                t,
                format!("UPDATE {table} SET count = count {sign} ? WHERE {where_}"),
                None,
            );
            st.reads_first = Some(format!(
                "the key moves: count the `{}` rows of this `{}` row first, subtract them from the old key and add them to the new one",
                t.grain.join(" × "),
                m.entity
            ));
            // No designed table lists those rows by this row's key (the
            // count is a job over the rows): no structured read to resolve.
            p.statements.push(st);
        }
        return;
    }
    let cols: Vec<String> = t
        .columns
        .iter()
        .filter(|c| is_key(c) || c.role == Role::Regular)
        .map(|c| quote_ident(&c.name))
        .collect();
    let mut del = statement(t, timestamped_delete(table, keys), Some(each.clone()));
    del.reads_first = Some(
        "a key column changes: read every row holding the old value first, delete it (timestamp t) and insert it under the new key (t + 1)".into(),
    );
    del.reads = vec![super::ReadSource::by(&m.entity, &m.key)];
    p.statements.push(del);
    p.statements.push(statement(
        t,
        format!(
            "INSERT INTO {table} ({}) VALUES ({}) USING TIMESTAMP ?",
            cols.join(", "),
            crate::reads::markers(cols.len() as u64)
        ),
        Some(each),
    ));
    p.copies_fan_out = true;
}

/// An UPDATE or DELETE whose WHERE names many rows (`DELETE FROM activities
/// WHERE user_id = $1`): a whole partition per bucket or salt when the WHERE
/// binds the table's partition key, else once per matching row, their keys
/// read first, by a worker.
pub(super) fn many_rows(
    p: &mut Planned,
    table: &str,
    t: &TableDesign,
    m: &MutationSpec,
    pk: &[&TableColumn],
) {
    let bound = |c: &TableColumn| match &c.part {
        KeyPart::Attr(a) => crate::derive::class_of(&t.classes, a)
            .iter()
            .any(|x| x.entity == m.entity && m.key.contains(&x.column)),
        _ => true,
    };
    let per_partition = pk.iter().all(|c| bound(c));
    let spread = t.partition_key.iter().find_map(|p| match p {
        KeyPart::Bucket(_, unit) => Some(format!(
            "once per `{unit}` bucket that can hold rows (within the retention)"
        )),
        KeyPart::Salt(n) => Some(format!("once per salt bucket ({n})")),
        _ => None,
    });
    if m.kind == MutationKind::Delete && per_partition {
        let mut st = statement(
            t,
            format!("DELETE FROM {table} WHERE {}", where_of(pk)),
            spread,
        );
        st.reads_first = Some(format!(
            "the statement deletes every row with this {}: one partition tombstone per partition instead of a tombstone per row",
            m.key.join(", ")
        ));
        st.step = super::Step::Sweep;
        p.statements = vec![st];
        return;
    }
    for st in &mut p.statements {
        st.repeat = Some(format!(
            "once per `{}` row the statement's WHERE ({}) matches: a worker reads their keys first and writes each, from a queue",
            m.entity,
            m.key.join(", ")
        ));
    }
}

/// The attribute of `entity` joined to another entity of the table.
pub(super) fn join_column(t: &TableDesign, entity: &str) -> Option<String> {
    t.classes.iter().find_map(|class| {
        let mine = class.iter().find(|c| c.entity == entity)?;
        class
            .iter()
            .any(|c| c.entity != entity)
            .then(|| mine.column.clone())
    })
}

fn entity_rows(stats: &Stats, entity: &str) -> Option<f64> {
    match stats
        .tables
        .get(&crate::stats_keys::entity_key(entity))?
        .volume
    {
        Volume::Fixed { rows } => Some(rows),
        _ => None,
    }
}

/// The largest number of rows one source value fans out to (zipf head share × rows).
pub(super) fn tail_of(stats: &Stats, entity: &str, join_column: &str) -> Option<f64> {
    let ts = stats.tables.get(&crate::stats_keys::entity_key(entity))?;
    let rows = entity_rows(stats, entity)?;
    let c = ts.column(join_column)?;
    let n = c.distinct?;
    Some(match c.distribution {
        Some(Distribution::Zipf { exponent }) => {
            rows / cqlmodel_stats::distribution::harmonic(n.max(1.0), exponent).max(1.0)
        }
        _ => rows / n.max(1.0),
    })
}
