//! Table options (WITH …) and secondary indexes: always in place.

use cqlmodel_schema::Table;

use super::delta::TableDiff;
use crate::cql_text::{create_index, drop_index, quote};
use crate::options;

pub(super) fn diff_options(d: &mut TableDiff, old: &Table, new: &Table, name: &str) {
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

pub(super) fn diff_indexes(
    d: &mut TableDiff,
    old: &Table,
    new: &Table,
    renames: &[(String, String)],
) {
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
