//! CREATE / ALTER / DROP KEYSPACE, in the order of `CreateKeyspaceStatement`:
//! OPT-2 (parse) → GEN-3 (execute) → KS-1, KS-2, KS-3 (attributes) → KS-4 →
//! `durable_writes` → KS-5, KS-6 (strategy class) → the strategy's own checks.

use std::collections::BTreeMap;

use cqlmodel_cql::ast::{AlterKeyspace, CreateKeyspace, DropObject, Property};

use super::properties::{self as props, PropResult};
use super::{Context, StepResult};
use crate::error::SchemaErrorKind;
use crate::model::{Keyspace, Replication, Schema};

/// `KeyspaceParams.Option`.
const KEYSPACE_PROPERTIES: &[&str] = &["durable_writes", "replication"];
const LOCATOR_PACKAGE: &str = "org.apache.cassandra.locator.";

pub(super) fn create(schema: &mut Schema, cx: &Context<'_>, s: &CreateKeyspace) -> StepResult {
    props::check_duplicates(&s.properties).map_err(|e| cx.lift(e))?;
    let name = &s.name.value;
    cx.check_keyspace_name(name, s.name.span)?;
    check_attributes(&s.properties).map_err(|e| cx.lift(e))?;
    if props::find(&s.properties, "replication").is_none() {
        return Err(cx.err(SchemaErrorKind::MissingReplication, cx.origin.span));
    }
    if schema.keyspaces.contains_key(name) {
        if s.if_not_exists {
            return Ok(());
        }
        return Err(cx.err(SchemaErrorKind::KeyspaceExists(name.clone()), s.name.span));
    }
    let durable_writes = props::boolean(&s.properties, "durable_writes").map_err(|e| cx.lift(e))?;
    let replication = replication(&s.properties, name, cx.settings).map_err(|e| cx.lift(e))?;
    schema.keyspaces.insert(
        name.clone(),
        Keyspace {
            name: name.clone(),
            replication: replication.unwrap_or(Replication::Simple {
                replication_factor: cx.settings.default_keyspace_rf,
            }),
            durable_writes: durable_writes.unwrap_or(true),
            types: BTreeMap::new(),
            tables: BTreeMap::new(),
            origin: cx.origin,
        },
    );
    Ok(())
}

pub(super) fn alter(schema: &mut Schema, cx: &Context<'_>, s: &AlterKeyspace) -> StepResult {
    props::check_duplicates(&s.properties).map_err(|e| cx.lift(e))?;
    let name = &s.name.value;
    cx.check_keyspace_name(name, s.name.span)?;
    check_attributes(&s.properties).map_err(|e| cx.lift(e))?;
    if !schema.keyspaces.contains_key(name) {
        if s.if_exists {
            return Ok(());
        }
        return Err(cx.err(SchemaErrorKind::UnknownKeyspace(name.clone()), s.name.span));
    }
    let durable = props::boolean(&s.properties, "durable_writes").map_err(|e| cx.lift(e))?;
    let replication = replication(&s.properties, name, cx.settings).map_err(|e| cx.lift(e))?;
    if let Some(ks) = schema.keyspaces.get_mut(name) {
        if let Some(r) = replication {
            ks.replication = r;
        }
        if let Some(d) = durable {
            ks.durable_writes = d;
        }
    }
    Ok(())
}

pub(super) fn drop(schema: &mut Schema, cx: &Context<'_>, s: &DropObject) -> StepResult {
    let name = &s.name.name.value;
    cx.check_keyspace_name(name, s.name.span)?;
    if schema.keyspaces.remove(name).is_none() && !s.if_exists {
        return Err(cx.err(SchemaErrorKind::UnknownKeyspace(name.clone()), s.name.span));
    }
    Ok(())
}

/// `KeyspaceAttributes.validate`: KS-1, then KS-2.
fn check_attributes(properties: &[Property]) -> PropResult<()> {
    props::check_known(properties, KEYSPACE_PROPERTIES)?;
    if let Some((map, span)) = props::map_property(properties, "replication")?
        && !map.contains_key("class")
    {
        return Err((SchemaErrorKind::MissingReplicationClass, span));
    }
    Ok(())
}

/// `ReplicationParams.fromMap` and the strategy's validation: KS-5 … KS-10.
fn replication(
    properties: &[Property],
    keyspace: &str,
    settings: &super::Settings,
) -> PropResult<Option<Replication>> {
    let Some((mut map, span)) = props::map_property(properties, "replication")? else {
        return Ok(None);
    };
    let class = map.remove("class").unwrap_or_default();
    let qualified = if class.contains('.') {
        class.clone()
    } else {
        format!("{LOCATOR_PACKAGE}{class}")
    };
    let err = |kind: SchemaErrorKind| Err((kind, span));
    let short = match qualified.strip_prefix(LOCATOR_PACKAGE) {
        Some(short) => short.to_string(),
        // Divergence: a strategy outside Cassandra's package may be on the node's
        // classpath; it cannot be checked offline and is kept by name.
        None => {
            return Ok(Some(Replication::Other {
                class,
                options: map,
            }));
        }
    };
    match short.as_str() {
        "SimpleStrategy" => {
            // KS-11 (4.1+): a missing factor is `default_keyspace_rf`.
            let rf = match map.remove("replication_factor") {
                Some(rf) => parse_replication_factor(&rf, settings).map_err(|k| (k, span))?,
                None => settings.default_keyspace_rf,
            };
            // Cassandra walks a hash map; with several unknown options cqlmodel
            // reports the first in byte order.
            if let Some(option) = map.keys().next() {
                return err(SchemaErrorKind::UnrecognizedStrategyOption {
                    option: option.clone(),
                    strategy: short.clone(),
                    keyspace: keyspace.to_string(),
                });
            }
            Ok(Some(Replication::Simple {
                replication_factor: rf,
            }))
        }
        "NetworkTopologyStrategy" => {
            // Datacenter names cannot be checked offline (KS-7 needs the ring);
            // `replication_factor` expands to every datacenter and is kept under its name.
            let mut datacenters = BTreeMap::new();
            for (dc, rf) in map {
                let n = parse_replication_factor(&rf, settings).map_err(|k| (k, span))?;
                datacenters.insert(dc, n);
            }
            Ok(Some(Replication::NetworkTopology { datacenters }))
        }
        "LocalStrategy" => err(SchemaErrorKind::LocalStrategy),
        _ => err(SchemaErrorKind::UnknownReplicationStrategy(qualified)),
    }
}

/// `ReplicationFactor.fromString`: `3` or, for transient replication, `3/1`.
/// Returns the number of full replicas.
fn parse_replication_factor(
    text: &str,
    settings: &super::Settings,
) -> Result<u32, SchemaErrorKind> {
    let parse = |part: &str| {
        part.parse::<i32>()
            .map_err(|_| SchemaErrorKind::InvalidReplicationFactor(part.to_string()))
    };
    let (total, transient) = match text.split_once('/') {
        Some((all, transient)) => (parse(all)?, parse(transient)?),
        None => (parse(text)?, 0),
    };
    if transient != 0 && !settings.transient_replication_enabled {
        return Err(SchemaErrorKind::TransientReplicationDisabled);
    }
    if total < 0 {
        return Err(SchemaErrorKind::NegativeReplicationFactor(i64::from(total)));
    }
    Ok(u32::try_from(total.saturating_sub(transient.max(0))).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replication_factors_parse_like_cassandra() {
        let s = super::super::Settings::default();
        assert_eq!(parse_replication_factor("3", &s), Ok(3));
        assert_eq!(
            parse_replication_factor("-1", &s),
            Err(SchemaErrorKind::NegativeReplicationFactor(-1))
        );
        assert_eq!(
            parse_replication_factor("3/1", &s),
            Err(SchemaErrorKind::TransientReplicationDisabled)
        );
        let transient = super::super::Settings {
            transient_replication_enabled: true,
            ..s
        };
        assert_eq!(parse_replication_factor("3/1", &transient), Ok(2));
        assert_eq!(
            parse_replication_factor("x", &s),
            Err(SchemaErrorKind::InvalidReplicationFactor("x".into()))
        );
    }
}
