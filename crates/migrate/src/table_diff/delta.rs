//! What one table's comparison produces, and what the column checks know
//! about the table: the types every part of the comparison shares.

use cqlmodel_schema::{Column, Table};

use crate::model::{Item, Target, Verdict};
use crate::target::Refusal;

/// The differences of one table and what applies them.
#[derive(Debug, Default)]
pub struct TableDiff {
    pub items: Vec<Item>,
    /// Statements that only add (phase 1).
    pub create: Vec<String>,
    /// Statements that remove (the last phase).
    pub drop: Vec<String>,
    pub warnings: Vec<String>,
    /// Non-empty: the table cannot change in place.
    pub rebuild_reasons: Vec<String>,
    /// Cassandra drops no column of a table with views: the views are dropped
    /// before the drop phase's statements and created again after them.
    pub recreate_views: bool,
    /// Dropped columns that may be renames (a same-typed column is added).
    pub suspected_renames: Vec<SuspectedRename>,
    /// What to do about each suspected rename (worded for an ALTER or a rebuild).
    pub rename_warnings: Vec<String>,
}

/// A dropped column and the added columns of its type: maybe a rename.
#[derive(Debug)]
pub struct SuspectedRename {
    pub from: String,
    pub candidates: Vec<String>,
    pub ty: String,
    /// The target's message refusing `RENAME from TO candidate`.
    pub message: String,
}

impl TableDiff {
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub(super) fn refused(
        &mut self,
        subject: &str,
        what: String,
        verdict: Verdict,
        r: Option<Refusal>,
    ) {
        self.rebuild_reasons.push(what.clone());
        self.items.push(Item {
            subject: Some(subject.to_string()),
            what,
            verdict,
            attempted: r.as_ref().map(|r| r.attempted.clone()),
            message: r.map(|r| r.message),
        });
    }

    pub(super) fn in_place(&mut self, subject: &str, what: String) {
        self.items.push(Item {
            subject: Some(subject.to_string()),
            what,
            verdict: Verdict::InPlace,
            attempted: None,
            message: None,
        });
    }
}

pub(super) fn is_key(c: &Column) -> bool {
    c.is_primary_key()
}

/// What the column checks need to know about the table.
pub(super) struct Cx<'a> {
    pub(super) old: &'a Table,
    pub(super) new: &'a Table,
    pub(super) name: &'a str,
    pub(super) target: Target,
    pub(super) old_views: &'a [&'a Table],
    pub(super) declared: &'a [(String, String)],
}
