//! Table options (`WITH ...` of CREATE / ALTER TABLE and views): building the
//! parameters (`TableAttributes.build`, where values are parsed: OPT-3…OPT-7,
//! OPT-9) and checking their ranges (`TableParams.validate`, OPT-8).

use std::collections::BTreeMap;

use cqlmodel_cql::ast::{Property, Span};

use super::properties::{self as props, PropResult, java_double};
use crate::error::SchemaErrorKind;
use crate::model::{Compaction, TableOptions};

/// Table properties Cassandra 5.0 accepts (`TableParams.Option`, plus `id`).
pub(crate) const TABLE_PROPERTIES: &[&str] = &[
    "additional_write_policy",
    "allow_auto_snapshot",
    "bloom_filter_fp_chance",
    "caching",
    "cdc",
    "comment",
    "compaction",
    "compression",
    "crc_check_chance",
    "default_time_to_live",
    "extensions",
    "gc_grace_seconds",
    "id",
    "incremental_backups",
    "max_index_interval",
    "memtable",
    "memtable_flush_period_in_ms",
    "min_index_interval",
    "read_repair",
    "speculative_retry",
];

/// `Attributes.MAX_TTL`: 20 years in seconds.
pub(crate) const MAX_TTL: i64 = 630_720_000;

/// Compaction strategies of Cassandra 5.0 (`org.apache.cassandra.db.compaction`).
/// `DateTieredCompactionStrategy` was removed in 5.0.
const COMPACTION_STRATEGIES: &[&str] = &[
    "LeveledCompactionStrategy",
    "SizeTieredCompactionStrategy",
    "TimeWindowCompactionStrategy",
    "UnifiedCompactionStrategy",
];
const COMPACTION_PACKAGE: &str = "org.apache.cassandra.db.compaction.";

/// The parameters derived from the properties; absent values take Cassandra's defaults.
#[derive(Debug, Clone)]
pub(crate) struct Params {
    pub bloom_filter_fp_chance: Option<f64>,
    pub crc_check_chance: f64,
    pub default_time_to_live: i32,
    pub gc_grace_seconds: i32,
    pub min_index_interval: i32,
    pub max_index_interval: i32,
    pub memtable_flush_period_in_ms: i32,
    pub compaction: Option<Compaction>,
    pub comment: Option<String>,
    /// Whether `default_time_to_live` / `gc_grace_seconds` were given (the model keeps only given values).
    pub ttl_given: bool,
    pub gc_grace_given: bool,
    pub has_id: bool,
    /// The span of each property, for errors.
    spans: BTreeMap<String, Span>,
}

impl Params {
    fn span(&self, name: &str) -> Span {
        self.spans.get(name).copied().unwrap_or_default()
    }
}

/// `TableAttributes.build`: parses every value in Cassandra's order. Errors are
/// the value errors (OPT-3…OPT-7, OPT-9, OPT-10).
pub(crate) fn build(properties: &[Property]) -> PropResult<Params> {
    props::boolean(properties, "allow_auto_snapshot")?;
    let bloom_filter_fp_chance = props::double(properties, "bloom_filter_fp_chance")?;
    props::map_property(properties, "caching")?;
    let comment = props::string(properties, "comment")?;
    let compaction = compaction(properties)?;
    compression(properties)?;
    props::string(properties, "memtable")?;
    let ttl = props::int(properties, "default_time_to_live")?;
    let gc = props::int(properties, "gc_grace_seconds")?;
    props::boolean(properties, "incremental_backups")?;
    let max_index_interval = props::int(properties, "max_index_interval")?;
    let memtable_flush_period_in_ms = props::int(properties, "memtable_flush_period_in_ms")?;
    let min_index_interval = props::int(properties, "min_index_interval")?;
    props::string(properties, "speculative_retry")?;
    props::string(properties, "additional_write_policy")?;
    let crc_check_chance = props::double(properties, "crc_check_chance")?;
    props::boolean(properties, "cdc")?;
    props::string(properties, "read_repair")?;
    let has_id = match props::string(properties, "id")? {
        Some(id) if !is_uuid(&id) => {
            return Err((
                SchemaErrorKind::InvalidTableId,
                props::find(properties, "id").map_or_else(Span::default, |p| p.value.span),
            ));
        }
        Some(_) => true,
        None => false,
    };
    Ok(Params {
        bloom_filter_fp_chance,
        crc_check_chance: crc_check_chance.unwrap_or(1.0),
        default_time_to_live: ttl.unwrap_or(0),
        gc_grace_seconds: gc.unwrap_or(864_000),
        min_index_interval: min_index_interval.unwrap_or(128),
        max_index_interval: max_index_interval.unwrap_or(2048),
        memtable_flush_period_in_ms: memtable_flush_period_in_ms.unwrap_or(0),
        compaction,
        comment,
        ttl_given: ttl.is_some(),
        gc_grace_given: gc.is_some(),
        has_id,
        spans: properties
            .iter()
            .map(|p| (p.name.value.clone(), p.value.span))
            .collect(),
    })
}

/// `TableParams.validate`: the ranges of OPT-8, in Cassandra's order.
pub(crate) fn validate(p: &Params) -> PropResult<()> {
    let fail = |option: &str, requirement: String, got: String| {
        Err((
            SchemaErrorKind::OptionOutOfRange {
                option: option.to_string(),
                requirement,
                got,
            },
            p.span(option),
        ))
    };
    if let Some(chance) = p.bloom_filter_fp_chance
        && (chance <= MIN_BLOOM_FILTER_FP_CHANCE || chance > 1.0)
    {
        return fail(
            "bloom_filter_fp_chance",
            format!(
                "larger than {} and less than or equal to 1.0",
                java_double(MIN_BLOOM_FILTER_FP_CHANCE)
            ),
            java_double(chance),
        );
    }
    if !(0.0..=1.0).contains(&p.crc_check_chance) {
        return fail(
            "crc_check_chance",
            "larger than or equal to 0 and smaller than or equal to 1.0".into(),
            java_double(p.crc_check_chance),
        );
    }
    if p.default_time_to_live < 0 {
        return fail(
            "default_time_to_live",
            "greater than or equal to 0".into(),
            p.default_time_to_live.to_string(),
        );
    }
    if i64::from(p.default_time_to_live) > MAX_TTL {
        return fail(
            "default_time_to_live",
            format!("less than or equal to {MAX_TTL}"),
            p.default_time_to_live.to_string(),
        );
    }
    if p.gc_grace_seconds < 0 {
        return fail(
            "gc_grace_seconds",
            "greater than or equal to 0".into(),
            p.gc_grace_seconds.to_string(),
        );
    }
    if p.min_index_interval < 1 {
        return fail(
            "min_index_interval",
            "greater than or equal to 1".into(),
            p.min_index_interval.to_string(),
        );
    }
    if p.max_index_interval < p.min_index_interval {
        return fail(
            "max_index_interval",
            format!(
                "greater than or equal to min_index_interval ({})",
                p.min_index_interval
            ),
            p.max_index_interval.to_string(),
        );
    }
    if p.memtable_flush_period_in_ms < 0 {
        return fail(
            "memtable_flush_period_in_ms",
            "greater than or equal to 0".into(),
            p.memtable_flush_period_in_ms.to_string(),
        );
    }
    Ok(())
}

/// `BloomCalculations.minSupportedBloomFilterFpChance()`, the last entry of the
/// bloom filter tables (printed `6.71E-5` by Java).
const MIN_BLOOM_FILTER_FP_CHANCE: f64 = 6.71e-5;

/// `CompactionParams.fromMap`: OPT-3, OPT-7, OPT-7b.
fn compaction(properties: &[Property]) -> PropResult<Option<Compaction>> {
    let Some((mut map, span)) = props::map_property(properties, "compaction")? else {
        return Ok(None);
    };
    let Some(class) = map.remove("class") else {
        return Err((SchemaErrorKind::MissingCompactionClass, span));
    };
    let qualified = if class.contains('.') {
        class.clone()
    } else {
        format!("{COMPACTION_PACKAGE}{class}")
    };
    // Divergence: a class outside Cassandra's package cannot be checked offline
    // (it may be on the node's classpath), so it is accepted.
    if let Some(short) = qualified.strip_prefix(COMPACTION_PACKAGE)
        && !COMPACTION_STRATEGIES.contains(&short)
    {
        return Err((SchemaErrorKind::UnknownCompactionClass(qualified), span));
    }
    Ok(Some(Compaction {
        class,
        options: map,
    }))
}

/// `CompressionParams.fromMap`: OPT-9a, OPT-9b, OPT-9c.
fn compression(properties: &[Property]) -> PropResult<()> {
    let Some((mut map, span)) = props::map_property(properties, "compression")? else {
        return Ok(());
    };
    let enabled = map
        .get("enabled")
        .is_none_or(|v| v.eq_ignore_ascii_case("true"));
    let has_class = map.contains_key("class") || map.contains_key("sstable_compression");
    if !map.is_empty() && enabled && !has_class {
        return Err((SchemaErrorKind::MissingCompressionClass, span));
    }
    map.remove("enabled");
    if !enabled {
        if !map.is_empty() {
            return Err((SchemaErrorKind::CompressionDisabledWithOptions, span));
        }
        return Ok(());
    }
    let class = map.get("class").or_else(|| map.get("sstable_compression"));
    if class.is_some_and(String::is_empty) {
        return Err((SchemaErrorKind::EmptyCompressionClass, span));
    }
    Ok(())
}

/// `UUID.fromString`'s accepted form: five groups of hex digits.
fn is_uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .all(|g| !g.is_empty() && g.len() <= 16 && g.chars().all(|c| c.is_ascii_hexdigit()))
}

/// The model's view of the options: the decoded ones and every property as written.
pub(crate) fn to_model(params: &Params, properties: &[Property], compact: bool) -> TableOptions {
    TableOptions {
        default_time_to_live: params
            .ttl_given
            .then(|| u64::try_from(params.default_time_to_live).unwrap_or(0)),
        gc_grace_seconds: params
            .gc_grace_given
            .then(|| u64::try_from(params.gc_grace_seconds).unwrap_or(0)),
        compaction: params.compaction.clone(),
        comment: params.comment.clone(),
        compact_storage: compact,
        raw: properties
            .iter()
            .map(|p| (p.name.value.clone(), p.value.clone()))
            .collect(),
    }
}

/// The properties of a table after ALTER ... WITH: the old ones, replaced by the new.
pub(crate) fn merge(old: &TableOptions, new: &[Property]) -> Vec<Property> {
    let mut merged: Vec<Property> = old
        .raw
        .iter()
        .filter(|(name, _)| !new.iter().any(|p| p.name.value == *name))
        .map(|(name, value)| Property {
            name: cqlmodel_cql::ast::Ident::new(name.clone()),
            value: value.clone(),
            span: value.span,
        })
        .collect();
    merged.extend(new.iter().cloned());
    merged
}
