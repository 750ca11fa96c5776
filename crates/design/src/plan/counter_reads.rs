//! A read of attributes kept in a counter table (`views` of a product) reads
//! them there too: a second query of the plan, by the entity's primary key,
//! so that `queries.cql` (and the review) see the counter table read.

use std::collections::HashMap;

use cqlmodel_cql::keywords::quote_ident;

use crate::derive::{KeyPart, TableDesign, TableKind};
use crate::meaning::Meaning;
use crate::querylist::{Body, QuerySpec};
use crate::reads::QueryPlan;

pub(super) fn counter_reads(
    keyspace: &str,
    meaning: &Meaning,
    specs: &[QuerySpec],
    tables: &mut [TableDesign],
    queries: &mut Vec<QueryPlan>,
) {
    let mut added = Vec::new();
    // The first spec of each name, as a search finds it: a search per read
    // made a 10,000-read design quadratic.
    let mut by_name: HashMap<&str, &QuerySpec> = HashMap::new();
    for spec in specs {
        by_name.entry(spec.name.as_str()).or_insert(spec);
    }
    for q in queries.iter_mut() {
        let Some(spec) = by_name.get(q.name.as_str()) else {
            continue;
        };
        let Body::Select(select) = &spec.body else {
            continue;
        };
        for (entity, columns) in &meaning.counters {
            let read: Vec<&String> = select
                .projection
                .iter()
                .filter(|c| &c.entity == entity && columns.contains(&c.column))
                .map(|c| &c.column)
                .collect();
            let Some(t) = tables.iter_mut().find(|t| {
                t.kind == TableKind::Counter
                    && t.entity == *entity
                    && t.columns
                        .iter()
                        .any(|c| c.cql_type == "counter" && matches!(c.part, KeyPart::Attr(_)))
            }) else {
                continue;
            };
            if read.is_empty() || q.table.is_none() {
                continue;
            }
            let key: Vec<String> = t
                .columns
                .iter()
                .filter(|c| c.role == crate::derive::Role::PartitionKey)
                .map(|c| format!("{} = ?", quote_ident(&c.name)))
                .collect();
            let bound = t.partition_key.iter().all(|p| match p {
                KeyPart::Attr(a) => select.equalities.iter().any(|(e, _)| e == a),
                _ => false,
            });
            let name = crate::derive::fit_name(&format!("{}_counters", q.name));
            let list: Vec<String> = read.iter().map(|c| quote_ident(c)).collect();
            q.notes.push(format!(
                "{} {} in `{}`: read {} there by the `{entity}` primary key ({name}, {})",
                list.join(", "),
                if read.len() == 1 {
                    "is a counter"
                } else {
                    "are counters"
                },
                t.name,
                if read.len() == 1 { "it" } else { "them" },
                if bound {
                    "one more single-partition read, concurrent with this one".to_string()
                } else {
                    "once per row this read returns".to_string()
                }
            ));
            t.queries.push(name.clone());
            added.push(QueryPlan {
                name,
                table: Some(t.name.clone()),
                cql: Some(format!(
                    "SELECT {} FROM {}.{} WHERE {}",
                    list.join(", "),
                    quote_ident(keyspace),
                    quote_ident(&t.name),
                    key.join(" AND ")
                )),
                partitions: Some(1),
                statements: 1,
                rows_read: Some(1.0),
                // A counter row by the entity's primary key.
                one_row_per_partition: true,
                rate: q.rate,
                consistency: q.consistency.clone(),
                page: None,
                off_path: None,
                notes: vec![format!("the counters {} reads", q.name)],
            });
        }
    }
    queries.extend(added);
}
