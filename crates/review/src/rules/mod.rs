//! One file per rule. The registry below is the only list of rules.

pub mod allow_filtering;
mod bucketing;
pub mod clustering_order_mismatch;
mod column_roles;
pub mod compaction_mismatch;
pub mod constant_partition_key;
pub mod copies_out_of_sync;
pub mod full_scan;
pub mod hot_partition;
pub mod in_order_by_paging;
pub mod invalid_query;
mod key_facts;
pub mod large_partition;
pub mod large_value;
pub mod lwt_hot_path;
pub mod materialized_view_write_heavy;
pub mod multi_partition_batch;
pub mod mutable_primary_key;
pub mod olap_query;
mod partition_in;
mod query_facts;
pub mod query_path;
pub mod queue_pattern;
pub mod read_before_write;
pub mod replication_risk;
pub mod row_overwrite;
pub mod scatter_gather;
pub mod secondary_index_misuse;
mod shared_key;
mod table_cql;
pub mod unbounded_partition;
pub mod unserved_query;
pub mod unused_suppression;
pub mod unused_table;
pub mod write_fan_out;
pub mod wrong_consistency_level;

use crate::rule::Rule;

/// Every rule, in code order. Codes are stable: never renumber, never reuse.
pub static RULES: &[&Rule] = &[
    &invalid_query::INVALID_QUERY,
    &allow_filtering::ALLOW_FILTERING,
    &unserved_query::UNSERVED_QUERY,
    &scatter_gather::SCATTER_GATHER,
    &full_scan::FULL_SCAN,
    &secondary_index_misuse::SECONDARY_INDEX_MISUSE,
    &unbounded_partition::UNBOUNDED_PARTITION,
    &large_partition::LARGE_PARTITION,
    &hot_partition::HOT_PARTITION,
    &materialized_view_write_heavy::MATERIALIZED_VIEW_WRITE_HEAVY,
    &multi_partition_batch::MULTI_PARTITION_BATCH,
    &olap_query::OLAP_QUERY,
    &large_value::LARGE_VALUE,
    &queue_pattern::QUEUE_PATTERN,
    &compaction_mismatch::COMPACTION_MISMATCH,
    &clustering_order_mismatch::CLUSTERING_ORDER_MISMATCH,
    &replication_risk::REPLICATION_RISK,
    &lwt_hot_path::LWT_HOT_PATH,
    &read_before_write::READ_BEFORE_WRITE,
    &mutable_primary_key::MUTABLE_PRIMARY_KEY,
    &unused_table::UNUSED_TABLE,
    &constant_partition_key::CONSTANT_PARTITION_KEY,
    &in_order_by_paging::IN_ORDER_BY_PAGING,
    &write_fan_out::WRITE_FAN_OUT,
    &row_overwrite::ROW_OVERWRITE,
    &copies_out_of_sync::COPIES_OUT_OF_SYNC,
    &wrong_consistency_level::WRONG_CONSISTENCY_LEVEL,
    &unused_suppression::UNUSED_SUPPRESSION,
];

/// A rule by name or code.
pub fn find(name_or_code: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .copied()
        .find(|r| r.name == name_or_code || r.code.eq_ignore_ascii_case(name_or_code))
}
