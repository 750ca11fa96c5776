//! One table (or view) that both schemas have: every difference, and for each
//! whether a statement applies it in place or the table must be rebuilt.

use cqlmodel_schema::types::CqlType;
use cqlmodel_schema::{Column, ColumnKind, Table};

use crate::cql_text::{create_index, drop_index, qualified, quote};
use crate::model::{Item, Target, Verdict};
use crate::options;
use crate::target::{self, Refusal};
pub use crate::type_rebuild::same_type;

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

    fn refused(&mut self, subject: &str, what: String, verdict: Verdict, r: Option<Refusal>) {
        self.rebuild_reasons.push(what.clone());
        self.items.push(Item {
            subject: Some(subject.to_string()),
            what,
            verdict,
            attempted: r.as_ref().map(|r| r.attempted.clone()),
            message: r.map(|r| r.message),
        });
    }

    fn in_place(&mut self, subject: &str, what: String) {
        self.items.push(Item {
            subject: Some(subject.to_string()),
            what,
            verdict: Verdict::InPlace,
            attempted: None,
            message: None,
        });
    }
}

fn key_text(cols: &[&Column]) -> String {
    let parts: Vec<String> = cols
        .iter()
        .map(|c| match c.kind {
            ColumnKind::Clustering(_, o) => format!("{} {} {}", c.name, c.ty, o.keyword()),
            _ => format!("{} {}", c.name, c.ty),
        })
        .collect();
    format!("({})", parts.join(", "))
}

/// Compares two tables (or two views) of the same name.
/// `old_views` are the views OLD defines on `old`.
/// `declared` are the user's renames of regular columns of this table (`--rename`).
pub fn diff_table(
    old: &Table,
    new: &Table,
    target: Target,
    old_views: &[&Table],
    declared: &[(String, String)],
) -> TableDiff {
    let mut d = TableDiff::default();
    let name = qualified(&old.keyspace, &old.name);
    let renames = diff_primary_key(&mut d, old, new, &name, target);
    let cx = Cx {
        old,
        new,
        name: &name,
        target,
        old_views,
        declared,
    };
    diff_columns(&mut d, &cx, &renames);
    diff_options(&mut d, old, new, &name);
    if !old.is_view() {
        diff_indexes(&mut d, old, new, &renames);
    }
    if old.options.compact_storage != new.options.compact_storage {
        d.refused(
            &old.name,
            "COMPACT STORAGE changes: Cassandra 5.0 disables DROP COMPACT STORAGE by default \
             (drop_compact_storage_enabled: false) and nothing adds it"
                .into(),
            Verdict::Forbidden,
            Some(Refusal {
                attempted: format!("ALTER TABLE {name} DROP COMPACT STORAGE;"),
                message: "DROP COMPACT STORAGE is disabled. Enable in cassandra.yaml to use."
                    .into(),
            }),
        );
    }
    let rebuild = !d.rebuild_reasons.is_empty();
    let warnings: Vec<String> = d
        .suspected_renames
        .iter()
        .map(|s| rename_warning(old, &name, s, rebuild))
        .collect();
    d.rename_warnings = warnings;
    d
}

/// The key changes in a way no statement expresses: the refusal items.
fn refuse_key_change(
    d: &mut TableDiff,
    table: &str,
    name: &str,
    (op, np): (&[&Column], &[&Column]),
    (oc, nc): (&[&Column], &[&Column]),
) {
    if key_text(op) != key_text(np) {
        d.refused(
            table,
            format!(
                "the partition key changes from {} to {}: no statement changes a primary key",
                key_text(op),
                key_text(np)
            ),
            Verdict::NoSyntax,
            None,
        );
    }
    if key_text(oc) != key_text(nc) {
        let orders: Vec<String> = nc
            .iter()
            .filter_map(|c| match c.kind {
                ColumnKind::Clustering(_, o) => Some(format!("{} {}", quote(&c.name), o.keyword())),
                _ => None,
            })
            .collect();
        d.refused(
            table,
            format!(
                "the clustering changes from {} to {}: no statement changes clustering columns or their order",
                key_text(oc),
                key_text(nc)
            ),
            Verdict::NoSyntax,
            Some(Refusal {
                attempted: format!(
                    "ALTER TABLE {name} WITH CLUSTERING ORDER BY ({});",
                    orders.join(", ")
                ),
                message: "a syntax error: in Cassandra's grammar ALTER TABLE … WITH takes \
                          `name = value` properties only, and CLUSTERING ORDER BY is not one"
                    .into(),
            }),
        );
    }
}

/// The key: same columns in the same places is no change; only names differing
/// are key-column renames (the one rename Cassandra allows); anything else is a rebuild.
/// Returns the renames `(old, new)`.
fn diff_primary_key(
    d: &mut TableDiff,
    old: &Table,
    new: &Table,
    name: &str,
    target: Target,
) -> Vec<(String, String)> {
    let (op, np): (Vec<&Column>, Vec<&Column>) =
        (old.partition_key().collect(), new.partition_key().collect());
    let (oc, nc): (Vec<&Column>, Vec<&Column>) =
        (old.clustering().collect(), new.clustering().collect());
    let mut renames = Vec::new();
    let mut retypes = Vec::new();
    let same_shape = op.len() == np.len()
        && oc.len() == nc.len()
        && op
            .iter()
            .chain(&oc)
            .zip(np.iter().chain(&nc))
            .all(|(a, b)| {
                let order_ok = match (a.kind, b.kind) {
                    (ColumnKind::Clustering(_, x), ColumnKind::Clustering(_, y)) => x == y,
                    _ => true,
                };
                let type_ok = same_type(&a.ty, &b.ty)
                    || target::alter_type(target, name, &b.name, a.kind, &a.ty, &b.ty).is_none();
                let rename_ok = a.name == b.name
                    || (old.column(&b.name).is_none() && new.column(&a.name).is_none());
                order_ok && type_ok && rename_ok
            });
    if !same_shape {
        refuse_key_change(d, &old.name, name, (&op, &np), (&oc, &nc));
        return renames;
    }
    for (a, b) in op.iter().chain(&oc).zip(np.iter().chain(&nc)) {
        if a.name != b.name {
            renames.push((a.name.clone(), b.name.clone()));
        }
        if !same_type(&a.ty, &b.ty) {
            retypes.push((b.name.clone(), b.ty.clone()));
        }
    }
    for (from, to) in &renames {
        let dependent: Vec<String> = old
            .indexes
            .iter()
            .filter(|i| i.column == *from)
            .map(|i| i.name.clone())
            .collect();
        if !dependent.is_empty() {
            let r = target::rename_indexed(name, from, to, dependent.clone());
            d.items.push(Item {
                subject: Some(from.clone()),
                what: format!(
                    "the rename needs its indexes out of the way: the plan drops {} first and recreates them on {to}",
                    dependent.join(", ")
                ),
                verdict: Verdict::InPlace,
                attempted: Some(r.attempted),
                message: Some(r.message),
            });
            for i in &dependent {
                d.create.push(drop_index(&old.keyspace, i));
            }
        }
        d.create.push(format!(
            "ALTER TABLE {name} RENAME {} TO {};",
            quote(from),
            quote(to)
        ));
        d.in_place(from, format!("primary-key column {from} renamed to {to}"));
    }
    for (col, ty) in retypes {
        d.create.push(format!(
            "ALTER TABLE {name} ALTER {} TYPE {ty};",
            quote(&col)
        ));
        d.in_place(
            &col,
            format!("key column {col} becomes {ty} (ScyllaDB accepts a compatible type)"),
        );
    }
    renames
}

fn is_key(c: &Column) -> bool {
    c.is_primary_key()
}

/// What the column checks need to know about the table.
struct Cx<'a> {
    old: &'a Table,
    new: &'a Table,
    name: &'a str,
    target: Target,
    old_views: &'a [&'a Table],
    declared: &'a [(String, String)],
}

fn diff_columns(d: &mut TableDiff, cx: &Cx<'_>, renames: &[(String, String)]) {
    let (old, new, name, target) = (cx.old, cx.new, cx.name, cx.target);
    let renamed_to = |n: &str| renames.iter().any(|(_, to)| to == n);
    let renamed_from = |n: &str| renames.iter().any(|(from, _)| from == n);
    let mut added: Vec<&Column> = Vec::new();
    let mut dropped: Vec<&Column> = Vec::new();
    for c in new.columns.iter().filter(|c| !is_key(c)) {
        match old.column(&c.name) {
            Some(o) if is_key(o) => {} // moved out of the key: the key diff says so
            Some(o) => compare_column(d, o, c, name, target),
            None if !renamed_to(&c.name) => added.push(c),
            None => {}
        }
    }
    for c in old.columns.iter().filter(|c| !is_key(c)) {
        if new.column(&c.name).is_none() && !renamed_from(&c.name) {
            dropped.push(c);
        }
    }
    if old.is_view() {
        // A view's columns follow its definition: the view diff handles them.
        return;
    }
    declared_renames(d, cx, &mut added, &mut dropped);
    for c in &added {
        add_column(d, old, c, name, target);
    }
    for c in &dropped {
        drop_column(d, cx, c);
    }
    suspect_renames(d, cx, &added, &dropped);
}

/// Every dropped column that shares its type with an added one may be a rename
/// (whatever else changes on the table): as written, its values are lost. Each
/// becomes a `Manual` item (the change needs a decision) naming the candidates.
fn suspect_renames(d: &mut TableDiff, cx: &Cx<'_>, added: &[&Column], dropped: &[&Column]) {
    for a in dropped {
        let candidates: Vec<&str> = added
            .iter()
            .filter(|b| same_type(&a.ty, &b.ty) && a.is_static() == b.is_static())
            .map(|b| b.name.as_str())
            .collect();
        let Some(first) = candidates.first() else {
            continue;
        };
        let r = target::rename_regular(cx.target, cx.name, &a.name, first);
        let added_text = match candidates.as_slice() {
            [one] => format!("{one} is added"),
            many => format!("{} are added", many.join(", ")),
        };
        d.items.push(Item {
            subject: Some(a.name.clone()),
            what: format!(
                "{} {} is dropped and {added_text} with the same type: a rename would be refused; \
                 planned as written unless declared (--rename)",
                a.name, a.ty
            ),
            verdict: Verdict::Manual,
            attempted: Some(r.attempted.clone()),
            message: Some(r.message.clone()),
        });
        d.suspected_renames.push(SuspectedRename {
            from: a.name.clone(),
            candidates: candidates.iter().map(|c| c.to_string()).collect(),
            ty: a.ty.to_string(),
            message: r.message,
        });
    }
}

/// The warning of a suspected rename, once the table's fate is known: an
/// ALTER plan can copy the values in place; a rebuild copies them when declared.
fn rename_warning(table: &Table, name: &str, s: &SuspectedRename, rebuild: bool) -> String {
    let first = s.candidates.first().map(String::as_str).unwrap_or_default();
    let into = match s.candidates.as_slice() {
        [one] => one.clone(),
        many => format!("one of {}", many.join(", ")),
    };
    let declare = format!(
        "Or declare the rename (`--rename {name}.{}={first}`, naming the right column): the table is then rebuilt with {} copied into it.",
        s.from, s.from
    );
    if rebuild {
        return format!(
            "{} dropped and {into} added with the same type ({}): if this is a rename, Cassandra refuses it \
             (`{}`), and the rebuild as written does not copy {}: its values go with the old table. \
             Declare the rename (`--rename {name}.{}={first}`, naming the right column) and the backfill and \
             the dual writes copy {} into it.",
            s.from, s.ty, s.message, s.from, s.from, s.from
        );
    }
    format!(
        "{} dropped and {into} added with the same type ({}): if this is a rename, Cassandra refuses it \
         (`{}`), and the plan as written loses every value of {}. To keep them: after phase 1, \
         write both columns from the application, copy the old values in place keeping their write time \
         and TTL, switch reads to the new column, and only then run phase 7:\n{}\n{declare}",
        s.from,
        s.ty,
        s.message,
        s.from,
        copy_in_place(table, name, &s.from, first),
    )
}

/// The renames the user declared: Cassandra refuses them in place, so each is
/// a rebuild whose backfill copies the old column into the new one (instead of
/// a drop that loses its values). Removed from `added` and `dropped`.
fn declared_renames(
    d: &mut TableDiff,
    cx: &Cx<'_>,
    added: &mut Vec<&Column>,
    dropped: &mut Vec<&Column>,
) {
    for (from, to) in cx.declared {
        let (Some(a), Some(b)) = (
            dropped.iter().position(|c| c.name == *from),
            added.iter().position(|c| c.name == *to),
        ) else {
            continue;
        };
        let (old_col, new_col) = (dropped.remove(a), added.remove(b));
        let converted = if same_type(&old_col.ty, &new_col.ty) {
            String::new()
        } else {
            format!(
                ", its values converted from {} to {}",
                old_col.ty, new_col.ty
            )
        };
        let r = target::rename_regular(cx.target, cx.name, from, to);
        d.refused(
            from,
            format!(
                "regular column {from} renamed to {to} (--rename){converted}: {} renames only \
                 primary-key columns; the rebuild copies each value of {from} into {to} with its \
                 write time and TTL",
                cx.target.name()
            ),
            Verdict::Forbidden,
            Some(r),
        );
    }
}

/// DSBulk commands that copy one column into another of the same table, each
/// value with its write time and remaining TTL (a newer write to the new column wins).
fn copy_in_place(table: &Table, name: &str, from: &str, to: &str) -> String {
    let keys: Vec<String> = table
        .columns
        .iter()
        .filter(|c| c.is_primary_key())
        .map(|c| quote(&c.name))
        .collect();
    let (f, t) = (quote(from), quote(to));
    let key_eq: Vec<String> = keys.iter().map(|k| format!("{k} = :{k}")).collect();
    format!(
        "dsbulk unload -h localhost -url unload/{name}.{from} -query \"SELECT {}, {f}, writetime({f}) AS wt, ttl({f}) AS ttl FROM {name}\"\n\
         dsbulk load -h localhost -url unload/{name}.{from} -query \"UPDATE {name} USING TIMESTAMP :wt AND TTL :ttl SET {t} = :{from} WHERE {}\"",
        keys.join(", "),
        key_eq.join(" AND ")
    )
}

fn compare_column(d: &mut TableDiff, o: &Column, c: &Column, name: &str, target: Target) {
    if !same_type(&o.ty, &c.ty) {
        match target::alter_type(target, name, &quote(&c.name), o.kind, &o.ty, &c.ty) {
            Some(r) => d.refused(
                &c.name,
                format!("column {} changes type from {} to {}", c.name, o.ty, c.ty),
                Verdict::Forbidden,
                Some(r),
            ),
            None => {
                d.create.push(format!(
                    "ALTER TABLE {name} ALTER {} TYPE {};",
                    quote(&c.name),
                    c.ty
                ));
                d.in_place(
                    &c.name,
                    format!(
                        "column {} changes type from {} to {} (ScyllaDB reads the old values as the new type)",
                        c.name, o.ty, c.ty
                    ),
                );
            }
        }
    }
    if o.is_static() != c.is_static() {
        let r = target::readd_other_kind(name, &quote(&c.name), o.is_static(), &c.ty);
        let kind = |s: bool| if s { "static" } else { "regular" };
        d.refused(
            &c.name,
            format!(
                "column {} turns {} from {}: no statement changes a column's kind",
                c.name,
                kind(c.is_static()),
                kind(o.is_static())
            ),
            Verdict::NoSyntax,
            (target == Target::Cassandra).then_some(r),
        );
    }
    if o.masked != c.masked {
        d.create.push(if c.masked {
            format!(
                "ALTER TABLE {name} ALTER {} MASKED WITH DEFAULT;",
                quote(&c.name)
            )
        } else {
            format!("ALTER TABLE {name} ALTER {} DROP MASKED;", quote(&c.name))
        });
        d.in_place(
            &c.name,
            format!(
                "column {} {} (cqlmodel keeps no mask function: DEFAULT is written)",
                c.name,
                if c.masked { "masked" } else { "unmasked" }
            ),
        );
    }
}

fn add_column(d: &mut TableDiff, old: &Table, c: &Column, name: &str, target: Target) {
    if c.ty.is_counter() != old.is_counter_table() {
        let r = target::counter_mix(
            target,
            &old.keyspace,
            &old.name,
            &c.name,
            &c.ty,
            old.is_counter_table(),
        );
        d.refused(
            &c.name,
            format!(
                "column {} ({}) cannot join a {}counter table",
                c.name,
                c.ty,
                if old.is_counter_table() { "" } else { "non-" }
            ),
            Verdict::Forbidden,
            Some(r),
        );
        return;
    }
    d.create.push(format!(
        "ALTER TABLE {name} ADD {} {}{};",
        quote(&c.name),
        c.ty,
        if c.is_static() { " static" } else { "" }
    ));
    d.in_place(
        &c.name,
        format!(
            "add {}column {} {}: rows written before read it as null (no backfill, no default value)",
            if c.is_static() { "static " } else { "" },
            c.name,
            c.ty
        ),
    );
}

fn drop_column(d: &mut TableDiff, cx: &Cx<'_>, c: &Column) {
    let (old, name, target) = (cx.old, cx.name, cx.target);
    if let CqlType::Udt { def, frozen: false } = &c.ty {
        let r = target::drop_non_frozen_udt(name, &quote(&c.name), &def.name);
        d.refused(
            &c.name,
            format!("column {} (non-frozen {}) is dropped", c.name, def.name),
            Verdict::Forbidden,
            Some(r),
        );
        return;
    }
    let holding_view = cx
        .old_views
        .iter()
        .find(|v| v.column(&c.name).is_some())
        .map(|v| v.name.as_str());
    if let Some(r) = target::drop_with_views(
        target,
        &old.keyspace,
        &old.name,
        &c.name,
        // At the drop (phase 7) the table has NEW's views: those phase 1 created too.
        !old.views.is_empty() || !cx.new.views.is_empty(),
        holding_view,
    ) {
        // Drop, alter, recreate: the views go first and come back from NEW's
        // definitions after the drop (ScyllaDB: NEW's view no longer holds the
        // column, and the view changes of the plan run first).
        let how = match target {
            Target::Cassandra => {
                d.recreate_views = true;
                format!(
                    "the plan drops the views ({}) before the column and creates them again after; \
                     they rebuild from the table's rows, and reads of them see partial results meanwhile",
                    cx.new.views.join(", ")
                )
            }
            Target::Scylla => "the view that holds it is redefined or dropped (as NEW has it) before the column goes".into(),
        };
        d.items.push(Item {
            subject: Some(c.name.clone()),
            what: format!(
                "column {} is dropped from a table with materialized views: {how}",
                c.name
            ),
            verdict: Verdict::InPlace,
            attempted: Some(r.attempted),
            message: Some(r.message),
        });
    }
    let indexes: Vec<String> = old
        .indexes
        .iter()
        .filter(|i| i.column == c.name)
        .map(|i| i.name.clone())
        .collect();
    let mut what = format!(
        "drop column {} {}: its data is lost; system_schema.dropped_columns records \
         ({}, {}, {}) with the drop time, reads skip older cells and compaction purges them; \
         re-adding {} later with an incompatible type fails (Cannot re-add previously dropped column '{}' of type …)",
        c.name,
        c.ty,
        c.name,
        c.ty,
        if c.is_static() { "static" } else { "regular" },
        c.name,
        c.name
    );
    if !indexes.is_empty() {
        let r = target::drop_indexed(name, &c.name, indexes.clone());
        what.push_str(&format!(
            "; its indexes ({}) are dropped first, or Cassandra says: {}",
            indexes.join(", "),
            r.message
        ));
    }
    d.drop
        .push(format!("ALTER TABLE {name} DROP {};", quote(&c.name)));
    d.in_place(&c.name, what);
    d.warnings.push(format!(
        "data loss: dropping {}.{} deletes every value of {}; take a snapshot first \
         (nodetool snapshot -t before-drop-{} --table {} {})",
        old.name, c.name, c.name, c.name, old.name, old.keyspace
    ));
}

fn diff_options(d: &mut TableDiff, old: &Table, new: &Table, name: &str) {
    let changes = options::differences(old, new);
    if changes.is_empty() {
        return;
    }
    let mut sets: Vec<String> = Vec::new();
    for (option, before, after) in &changes {
        let value = match after {
            Some(_) => options::written(new, option),
            None => options::default_literal(option).map(str::to_string),
        };
        let Some(value) = value else {
            d.warnings.push(format!(
                "option {option} is no longer set in NEW, and cqlmodel does not know its default: \
                 set it explicitly in NEW to reset it"
            ));
            continue;
        };
        sets.push(format!("{} = {value}", quote(option)));
        d.in_place(
            option,
            format!(
                "option {option}: {} → {}",
                before.as_deref().unwrap_or("default"),
                after.as_deref().unwrap_or("default")
            ),
        );
        if let Some(w) = option_warning(option) {
            d.warnings.push(w.to_string());
        }
    }
    if !sets.is_empty() {
        let kind = if old.is_view() {
            "MATERIALIZED VIEW"
        } else {
            "TABLE"
        };
        d.create.push(format!(
            "ALTER {kind} {name} WITH {};",
            sets.join("\n    AND ")
        ));
    }
}

fn option_warning(option: &str) -> Option<&'static str> {
    Some(match option {
        "compaction" => {
            "a new compaction strategy rewrites every SSTable of the table in the background: \
             expect disk I/O and keep free disk for the largest SSTables"
        }
        "default_time_to_live" => {
            "default_time_to_live applies to writes made after the change; rows already written keep their TTL"
        }
        "gc_grace_seconds" => {
            "gc_grace_seconds: every node must complete a repair within the new value, \
             or deleted data can come back"
        }
        "compression" => {
            "new compression applies to SSTables written from now on; `nodetool upgradesstables -a` rewrites the old ones"
        }
        _ => return None,
    })
}

fn diff_indexes(d: &mut TableDiff, old: &Table, new: &Table, renames: &[(String, String)]) {
    let handled_by_rename = |idx: &str| {
        old.indexes
            .iter()
            .any(|i| i.name == idx && renames.iter().any(|(from, _)| *from == i.column))
    };
    for i in &old.indexes {
        match new.indexes.iter().find(|n| n.name == i.name) {
            None => {
                if !handled_by_rename(&i.name) {
                    d.drop.insert(0, drop_index(&old.keyspace, &i.name));
                    d.in_place(
                        &i.name,
                        format!(
                            "drop index {} on {}: queries that use it are rejected afterwards",
                            i.name, i.column
                        ),
                    );
                }
            }
            Some(n) if handled_by_rename(&i.name) => {
                d.create
                    .push(create_index(&new.keyspace, &new.name, n, &n.name));
            }
            Some(n) => {
                let same = n.column == i.column
                    && n.target == i.target
                    && n.implementation == i.implementation
                    && n.options == i.options;
                if !same {
                    d.create.push(drop_index(&old.keyspace, &i.name));
                    d.create
                        .push(create_index(&new.keyspace, &new.name, n, &n.name));
                    d.in_place(
                        &i.name,
                        format!(
                            "index {} is redefined: dropped and created again; it rebuilds from the table's data, \
                             and queries that use it fail until it is built",
                            i.name
                        ),
                    );
                }
            }
        }
    }
    for n in &new.indexes {
        if !old.indexes.iter().any(|i| i.name == n.name) {
            d.create
                .push(create_index(&new.keyspace, &new.name, n, &n.name));
            d.in_place(
                &n.name,
                format!(
                    "create index {} on {}: it builds from the existing data in the background; \
                     queries that use it fail until the build completes",
                    n.name, n.column
                ),
            );
        }
    }
}
