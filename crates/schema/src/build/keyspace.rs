//! CREATE / ALTER / DROP KEYSPACE.

use std::collections::BTreeMap;

use cqlmodel_cql::ast::{AlterKeyspace, CreateKeyspace, DropObject, Property, Span};

use super::{Context, StepResult, options};
use crate::error::SchemaErrorKind;
use crate::model::{Keyspace, Replication, Schema};

const KEYSPACE_PROPERTIES: &[&str] = &["replication", "durable_writes", "graph_engine"];

pub(super) fn create(schema: &mut Schema, cx: &Context<'_>, s: &CreateKeyspace) -> StepResult {
    let name = &s.name.value;
    if schema.keyspaces.contains_key(name) {
        if s.if_not_exists {
            return Ok(());
        }
        return Err(cx.err(SchemaErrorKind::KeyspaceExists(name.clone()), s.name.span));
    }
    options::check_names(&s.properties, KEYSPACE_PROPERTIES).map_err(|(k, sp)| cx.err(k, sp))?;
    let Some(replication) = options::find(&s.properties, "replication") else {
        return Err(cx.err(
            SchemaErrorKind::InvalidProperty("Missing mandatory option 'replication'".into()),
            cx.origin.span,
        ));
    };
    let replication = parse_replication(replication).map_err(|(k, sp)| cx.err(k, sp))?;
    let durable_writes = durable_writes(&s.properties).map_err(|(k, sp)| cx.err(k, sp))?;
    schema.keyspaces.insert(
        name.clone(),
        Keyspace {
            name: name.clone(),
            replication,
            durable_writes: durable_writes.unwrap_or(true),
            types: BTreeMap::new(),
            tables: BTreeMap::new(),
            origin: cx.origin,
        },
    );
    Ok(())
}

pub(super) fn alter(schema: &mut Schema, cx: &Context<'_>, s: &AlterKeyspace) -> StepResult {
    options::check_names(&s.properties, KEYSPACE_PROPERTIES).map_err(|(k, sp)| cx.err(k, sp))?;
    let replication = options::find(&s.properties, "replication")
        .map(parse_replication)
        .transpose()
        .map_err(|(k, sp)| cx.err(k, sp))?;
    let durable = durable_writes(&s.properties).map_err(|(k, sp)| cx.err(k, sp))?;
    let Some(ks) = schema.keyspaces.get_mut(&s.name.value) else {
        if s.if_exists {
            return Ok(());
        }
        return Err(cx.err(SchemaErrorKind::UnknownKeyspace(s.name.value.clone()), s.name.span));
    };
    if let Some(r) = replication {
        ks.replication = r;
    }
    if let Some(d) = durable {
        ks.durable_writes = d;
    }
    Ok(())
}

pub(super) fn drop(schema: &mut Schema, cx: &Context<'_>, s: &DropObject) -> StepResult {
    let name = &s.name.name.value;
    if schema.keyspaces.remove(name).is_none() && !s.if_exists {
        return Err(cx.err(SchemaErrorKind::UnknownKeyspace(name.clone()), s.name.span));
    }
    Ok(())
}

fn durable_writes(properties: &[Property]) -> Result<Option<bool>, (SchemaErrorKind, Span)> {
    let Some(p) = options::find(properties, "durable_writes") else {
        return Ok(None);
    };
    match options::constant(&p.value).map(|s| s.to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(Some(true)),
        Some("false") => Ok(Some(false)),
        _ => Err((
            SchemaErrorKind::InvalidProperty(
                "Invalid boolean value for property 'durable_writes'".into(),
            ),
            p.value.span,
        )),
    }
}

/// Reads `replication = {'class': ..., ...}` as `AbstractReplicationStrategy` validates it.
fn parse_replication(p: &Property) -> Result<Replication, (SchemaErrorKind, Span)> {
    let invalid = |msg: String| (SchemaErrorKind::InvalidProperty(msg), p.value.span);
    let Some(mut map) = options::map(&p.value) else {
        return Err(invalid("Invalid value for property 'replication'. It should be a map.".into()));
    };
    let Some(class) = map.remove("class") else {
        return Err(invalid("Missing replication strategy class".into()));
    };
    let short = class.rsplit('.').next().unwrap_or(&class).to_string();
    let parse_rf = |key: &str, value: &str| -> Result<u32, (SchemaErrorKind, Span)> {
        // Cassandra accepts "3" or, for transient replication, "3/1"; cqlmodel models full replicas.
        let full = value.split('/').next().unwrap_or(value).trim();
        full.parse::<u32>().map_err(|_| {
            invalid(format!(
                "Replication factor must be non-negative integer; found {value} (option {key})"
            ))
        })
    };
    match short.as_str() {
        "SimpleStrategy" => {
            let Some(rf) = map.remove("replication_factor") else {
                return Err(invalid(
                    "SimpleStrategy requires a replication_factor strategy option.".into(),
                ));
            };
            if let Some(extra) = map.keys().next() {
                return Err(invalid(format!(
                    "Unrecognized strategy option {{{extra}}} passed to SimpleStrategy for keyspace"
                )));
            }
            Ok(Replication::Simple {
                replication_factor: parse_rf("replication_factor", &rf)?,
            })
        }
        "NetworkTopologyStrategy" => {
            let mut datacenters = BTreeMap::new();
            // `replication_factor` on NTS is a shorthand expanded to every known DC; offline
            // there are no known DCs, so it is kept under its own name.
            for (dc, rf) in map {
                let n = parse_rf(&dc, &rf)?;
                datacenters.insert(dc, n);
            }
            Ok(Replication::NetworkTopology { datacenters })
        }
        _ => Ok(Replication::Other {
            class,
            options: map,
        }),
    }
}
