//! The plan's vocabulary: changes, their kinds, the phases of a rebuild and the
//! statements each phase runs. Every type here is plain data, serialized as is
//! for `--format json`.

use serde::Serialize;

pub use crate::target::Target;

/// How schema scripts are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// `001_alter_iot_temp.cql`: the `<version>_<description>.cql` of
    /// cassandra-migration-style runners, applied in version order.
    #[default]
    Numbered,
    /// cqlmigrate: `bootstrap.cql` (the keyspaces, run first), then
    /// `YYYY-MM-DD-HH:MM-description.cql`, applied in file-name order.
    Cqlmigrate,
}

/// What happens to one schema object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// Changed in place by ALTER (or CREATE/DROP of a dependent index or view).
    Alter,
    /// Cannot change in place: a new table, dual writes, a backfill, a switch.
    Rebuild,
    /// A new object.
    Create,
    /// An object NEW no longer has.
    Drop,
}

impl ChangeKind {
    pub fn name(self) -> &'static str {
        match self {
            ChangeKind::Alter => "alter",
            ChangeKind::Rebuild => "rebuild",
            ChangeKind::Create => "create",
            ChangeKind::Drop => "drop",
        }
    }
}

/// The kind of schema object a change is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ObjectKind {
    Keyspace,
    Type,
    Table,
    View,
}

/// The phases of the runbook, in the order they run. Only `Create` and `Drop`
/// hold schema statements; the others hold application statements, tool
/// configurations and checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Schema that only adds: keyspaces, types, tables, columns, options, indexes.
    Create,
    DualWrite,
    Backfill,
    Verify,
    SwitchReads,
    StopOldWrites,
    /// Schema that removes, once nothing reads or writes it: after a snapshot.
    Drop,
}

impl Phase {
    pub const ALL: [Phase; 7] = [
        Phase::Create,
        Phase::DualWrite,
        Phase::Backfill,
        Phase::Verify,
        Phase::SwitchReads,
        Phase::StopOldWrites,
        Phase::Drop,
    ];

    /// 1-based, as the runbook numbers them.
    pub fn number(self) -> usize {
        Phase::ALL.iter().position(|p| *p == self).unwrap_or(0) + 1
    }

    pub fn slug(self) -> &'static str {
        match self {
            Phase::Create => "create",
            Phase::DualWrite => "dual-write",
            Phase::Backfill => "backfill",
            Phase::Verify => "verify",
            Phase::SwitchReads => "switch-reads",
            Phase::StopOldWrites => "stop-old-writes",
            Phase::Drop => "drop",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Phase::Create => "Create (schema that only adds)",
            Phase::DualWrite => "Dual write",
            Phase::Backfill => "Backfill",
            Phase::Verify => "Verify",
            Phase::SwitchReads => "Switch reads",
            Phase::StopOldWrites => "Stop writing the old tables",
            Phase::Drop => "Drop (after the grace period, snapshot first)",
        }
    }
}

/// How a single difference can be applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// A statement applies it.
    InPlace,
    /// The target refuses the statement a user would try; the object is rebuilt.
    Forbidden,
    /// No statement exists for it at all; the object is rebuilt.
    NoSyntax,
    /// cqlmodel cannot plan it: the runbook says what to do by hand.
    Manual,
}

/// One difference inside a change: a column added, a type changed, an option set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    /// The column, field, index or option concerned (`None`: the object itself).
    pub subject: Option<String>,
    pub what: String,
    pub verdict: Verdict,
    /// The statement a user would try, when it is refused.
    pub attempted: Option<String>,
    /// The target's own message for that statement.
    pub message: Option<String>,
}

/// Statements of one phase, in the order they run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhaseStatements {
    pub phase: Phase,
    pub statements: Vec<String>,
}

/// One schema object's change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// `ks`, `ks.t` or `ks.type`.
    pub object: String,
    pub object_kind: ObjectKind,
    pub kind: ChangeKind,
    /// Why this kind: the deciding difference, with its numbers.
    pub reason: String,
    pub items: Vec<Item>,
    /// Data loss, cost and caveats the operator must read.
    pub warnings: Vec<String>,
    /// Needs a human decision before it runs (a drop with no replacement, a change cqlmodel cannot plan).
    pub flagged: bool,
    /// Schema statements per phase (only phases that have some).
    pub statements: Vec<PhaseStatements>,
    /// The rebuild's runbook, for `kind == rebuild`.
    pub rebuild: Option<crate::rebuild::Rebuild>,
}

impl Change {
    pub fn new(object: String, object_kind: ObjectKind, kind: ChangeKind, reason: String) -> Self {
        Change {
            object,
            object_kind,
            kind,
            reason,
            items: Vec::new(),
            warnings: Vec::new(),
            flagged: false,
            statements: Vec::new(),
            rebuild: None,
        }
    }

    /// Appends a statement to a phase, keeping phases in order.
    pub fn push(&mut self, phase: Phase, cql: String) {
        match self.statements.iter_mut().find(|p| p.phase == phase) {
            Some(p) => p.statements.push(cql),
            None => {
                self.statements.push(PhaseStatements {
                    phase,
                    statements: vec![cql],
                });
                self.statements.sort_by_key(|p| p.phase);
            }
        }
    }

    /// The statements of one phase.
    pub fn in_phase(&self, phase: Phase) -> &[String] {
        self.statements
            .iter()
            .find(|p| p.phase == phase)
            .map_or(&[], |p| p.statements.as_slice())
    }
}
