//! The statements that write the entity's own rows into a table whose grain
//! it is: the insert (with what it copies from related rows, and its unique
//! claim), the delete, the update, and the move when a key column changes.

use cqlmodel_cql::keywords::quote_ident;

use super::clauses::{
    guard_claim, owner_condition, set_of, statement, timestamped_delete, where_of,
};
use super::fan_out::many_rows;
use super::planned::Planned;
use super::presence::{
    claims_unique, holds_any, holds_entity, holds_entity_or_bucket, is_key, names_one_row,
    only_statics, own_attributes,
};
use super::scope::{Scope, fan_out_text, read_unbound_key, related_reads, value_set};
use super::{ReadSource, Step, WriteStatement};
use crate::derive::{KeyPart, Role, TableColumn};
use crate::querylist::MutationKind;

pub(super) fn entity_rows(s: &Scope<'_>, p: &mut Planned) {
    let Scope {
        model,
        t,
        m,
        stats,
        ref table,
        ref pk,
        key_moves,
        ..
    } = *s;
    let repeat = fan_out_text(s, p);
    let read_cols = related_columns(s);
    let w = RowWrite {
        s,
        unique: claims_unique(t, model, &m.entity),
        reads: read_cols.iter().map(|c| c.name.clone()).collect(),
        related: related_reads(model, t, &read_cols, &m.entity),
    };
    match m.kind {
        MutationKind::Insert => p.statements.push(w.insert_row(repeat)),
        MutationKind::Delete if value_set(t, &m.entity) => {
            p.note = Some(super::value_sets::drift_note(model, stats, t));
        }
        MutationKind::Delete => {
            let mut st = statement(t, w.delete_cql(), repeat);
            read_unbound_key(&mut st, t, m, &s.keys);
            if w.unique {
                guard_claim(&mut st, Step::Release, t, model, &m.entity);
            }
            p.statements.push(st);
        }
        MutationKind::Update if key_moves => move_row(&w, p, repeat),
        MutationKind::Update => update_row(&w, p, repeat),
    }
    if m.kind != MutationKind::Insert && !names_one_row(model, m) {
        many_rows(p, table, t, m, pk);
    }
}

/// Copied attributes, and key columns that come from neither the written row
/// nor the fan-out (`users.status` keying posts): read from related rows.
fn related_columns<'a>(s: &Scope<'a>) -> Vec<&'a TableColumn> {
    let Scope { t, m, .. } = *s;
    let from_fan_out = |c: &TableColumn| match &c.part {
        KeyPart::Attr(a) | KeyPart::Bucket(a, _) => crate::derive::class_of(&t.classes, a)
            .iter()
            .any(|x| x.entity != m.entity && t.grain.contains(&x.entity)),
        _ => false,
    };
    t.columns
        .iter()
        .filter(|c| {
            let copied = c.role == Role::Regular && !holds_entity(t, c, &m.entity);
            let foreign_key = is_key(c)
                && matches!(&c.part, KeyPart::Attr(_) | KeyPart::Bucket(..))
                && !holds_entity_or_bucket(t, c, &m.entity)
                && !from_fan_out(c);
            copied || foreign_key
        })
        .collect()
}

/// One write of the entity's row: whether it claims a unique value, and what
/// it reads from related rows first.
struct RowWrite<'s, 'a> {
    s: &'s Scope<'a>,
    unique: bool,
    reads: Vec<String>,
    related: Vec<ReadSource>,
}

impl RowWrite<'_, '_> {
    /// An INSERT names the key, the copies, and of the row's own attributes
    /// those the statement sets: binding null for the others would write a
    /// tombstone per column. (A key move rewrites them all.)
    fn insert_cql(&self) -> String {
        let Scope {
            model,
            t,
            m,
            ref table,
            ..
        } = *self.s;
        let cols: Vec<String> = t
            .columns
            .iter()
            .filter(|c| {
                // The row's own static columns (attributes a one-row
                // partition holds once) are written like its regular
                // ones: leaving them out would store them nowhere.
                let own_static = c.role == Role::Static && holds_entity(t, c, &m.entity);
                is_key(c)
                    || ((c.role == Role::Regular || own_static)
                        && (m.kind != MutationKind::Insert
                            || !holds_entity(t, c, &m.entity)
                            || holds_any(t, c, &m.entity, &m.columns)
                            || model
                                .entity(&m.entity)
                                .is_some_and(|e| holds_any(t, c, &m.entity, &e.primary_key))))
            })
            .map(|c| quote_ident(&c.name))
            .collect();
        let insert = format!(
            "INSERT INTO {table} ({}) VALUES ({})",
            cols.join(", "),
            crate::reads::markers(cols.len() as u64)
        );
        if self.unique {
            format!("{insert} IF NOT EXISTS")
        } else {
            insert
        }
    }

    fn delete_cql(&self) -> String {
        format!(
            "DELETE FROM {} WHERE {}",
            self.s.table,
            where_of(&self.s.keys)
        )
    }

    /// An insert of the row, with what it copies from related rows.
    fn insert_row(&self, repeat: Option<String>) -> WriteStatement {
        let mut st = statement(self.s.t, self.insert_cql(), repeat);
        st.lwt = self.unique;
        if self.unique {
            st.step = Step::Claim;
        }
        if !self.reads.is_empty() {
            st.reads_first = Some(format!(
                "read {} from the related rows first (read-before-write)",
                self.reads.join(", ")
            ));
            st.reads = self.related.clone();
        }
        st
    }
}

/// An UPDATE that changes a key column of this table: the row moves (delete
/// the old, insert the new), or with a unique value, claim then release.
fn move_row(w: &RowWrite<'_, '_>, p: &mut Planned, repeat: Option<String>) {
    let Scope {
        model,
        t,
        m,
        ref table,
        ref keys,
        ..
    } = *w.s;
    let mut del = if w.unique {
        // The old value's claim is released only if it is
        // still this row's: another row may have claimed it since.
        let mut st = statement(
            t,
            format!(
                "{} IF {}",
                w.delete_cql(),
                owner_condition(t, model, &m.entity)
            ),
            repeat.clone(),
        );
        st.lwt = true;
        st.step = Step::Release;
        st
    } else {
        statement(t, timestamped_delete(table, keys), repeat.clone())
    };
    del.reads_first = Some(if w.unique {
        "a key column changes: read the old value first; release it after the new one is claimed, and skip the move when the value is unchanged".into()
    } else {
        "a key column changes: read the row's old key and values first; bind the DELETE's timestamp t and the INSERT's t + 1 (at one timestamp a delete wins, so an unchanged key would lose its row), or skip the move when the key is unchanged".into()
    });
    // The old row's key and values: every attribute of it this table holds.
    let old_row = ReadSource::by(&m.entity, &m.key).returning(own_attributes(t, &m.entity));
    del.reads = vec![old_row.clone()];
    p.statements.push(del);
    let mut ins = w.insert_row(repeat);
    if !w.unique {
        ins.cql.push_str(" USING TIMESTAMP ?");
    }
    ins.reads_first = Some(format!(
        "the new row carries the old row's other values: read them first, by {}{}",
        m.key.join(", "),
        ins.reads_first
            .as_deref()
            .map(|r| format!("; {r}"))
            .unwrap_or_default()
    ));
    ins.reads.insert(0, old_row);
    p.statements.push(ins);
}

/// An UPDATE of the row's values in place (of the partition's statics when
/// it sets only those).
fn update_row(w: &RowWrite<'_, '_>, p: &mut Planned, repeat: Option<String>) {
    let Scope {
        model,
        t,
        m,
        ref table,
        ref keys,
        ref pk,
        ..
    } = *w.s;
    let set = set_of(t, m);
    if set.is_empty() {
        return;
    }
    let bound = if only_statics(t, m) { pk } else { keys };
    let mut st = statement(
        t,
        format!(
            "UPDATE {table} SET {} WHERE {}",
            set.join(", "),
            where_of(bound)
        ),
        repeat,
    );
    read_unbound_key(&mut st, t, m, bound);
    if w.unique {
        guard_claim(&mut st, Step::Conditional, t, model, &m.entity);
    }
    p.statements.push(st);
}
