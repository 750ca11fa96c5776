//! The tablestats numbers cqlmodel reads, by the text label and the JSON/YAML key
//! each Cassandra and ScyllaDB version prints them under. Labels read from
//! `TableStatsPrinter` and keys from `TableStatsHolder` (4.0, 4.1, 5.0); the
//! pre-3.0 spellings (`Compacted row ... size`, `Number of keys`) that
//! ScyllaDB's Java nodetool inherited are aliases.

use crate::model::TableStats;
use crate::number::{NotANumber, parse_count, parse_value};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    SstableCount,
    SpaceUsedLive,
    PartitionsEstimate,
    LocalReadCount,
    LocalReadLatencyMs,
    LocalWriteCount,
    LocalWriteLatencyMs,
    PartitionMin,
    PartitionMax,
    PartitionMean,
    AvgLiveCells,
    MaxLiveCells,
    AvgTombstones,
    MaxTombstones,
    DroppableTombstoneRatio,
}

impl Field {
    /// The field a text label names (`SSTable count`, `Local read latency`, ...).
    pub fn from_label(label: &str) -> Option<Field> {
        Some(match label {
            "SSTable count" => Field::SstableCount,
            "Space used (live)" | "Space used (live), bytes" => Field::SpaceUsedLive,
            "Number of partitions (estimate)" | "Number of keys (estimate)" => {
                Field::PartitionsEstimate
            }
            "Local read count" => Field::LocalReadCount,
            "Local read latency" => Field::LocalReadLatencyMs,
            "Local write count" => Field::LocalWriteCount,
            "Local write latency" => Field::LocalWriteLatencyMs,
            "Compacted partition minimum bytes" | "Compacted row minimum size" => {
                Field::PartitionMin
            }
            "Compacted partition maximum bytes" | "Compacted row maximum size" => {
                Field::PartitionMax
            }
            "Compacted partition mean bytes" | "Compacted row mean size" => Field::PartitionMean,
            "Average live cells per slice (last five minutes)" => Field::AvgLiveCells,
            "Maximum live cells per slice (last five minutes)" => Field::MaxLiveCells,
            "Average tombstones per slice (last five minutes)" => Field::AvgTombstones,
            "Maximum tombstones per slice (last five minutes)" => Field::MaxTombstones,
            "Droppable tombstone ratio" => Field::DroppableTombstoneRatio,
            _ => return None,
        })
    }

    /// The field a JSON/YAML key names (`sstable_count`, `local_read_latency_ms`, ...).
    pub fn from_key(key: &str) -> Option<Field> {
        Some(match key {
            "sstable_count" => Field::SstableCount,
            "space_used_live" => Field::SpaceUsedLive,
            "number_of_partitions_estimate" | "number_of_keys_estimate" => {
                Field::PartitionsEstimate
            }
            "local_read_count" => Field::LocalReadCount,
            "local_read_latency_ms" => Field::LocalReadLatencyMs,
            "local_write_count" => Field::LocalWriteCount,
            "local_write_latency_ms" => Field::LocalWriteLatencyMs,
            "compacted_partition_minimum_bytes" => Field::PartitionMin,
            "compacted_partition_maximum_bytes" => Field::PartitionMax,
            "compacted_partition_mean_bytes" => Field::PartitionMean,
            "average_live_cells_per_slice_last_five_minutes" => Field::AvgLiveCells,
            "maximum_live_cells_per_slice_last_five_minutes" => Field::MaxLiveCells,
            "average_tombstones_per_slice_last_five_minutes" => Field::AvgTombstones,
            "maximum_tombstones_per_slice_last_five_minutes" => Field::MaxTombstones,
            "droppable_tombstone_ratio" => Field::DroppableTombstoneRatio,
            _ => return None,
        })
    }

    /// Stores `value` (as printed) into the table.
    pub fn set(self, t: &mut TableStats, value: &str) -> Result<(), NotANumber> {
        match self {
            Field::SstableCount => t.sstable_count = parse_count(value)?,
            Field::SpaceUsedLive => t.space_used_live = parse_count(value)?,
            Field::PartitionsEstimate => t.partitions_estimate = parse_count(value)?,
            Field::LocalReadCount => t.local_read_count = parse_count(value)?,
            Field::LocalReadLatencyMs => t.local_read_latency_ms = parse_value(value)?,
            Field::LocalWriteCount => t.local_write_count = parse_count(value)?,
            Field::LocalWriteLatencyMs => t.local_write_latency_ms = parse_value(value)?,
            Field::PartitionMin => t.partition_min_bytes = parse_count(value)?,
            Field::PartitionMax => t.partition_max_bytes = parse_count(value)?,
            Field::PartitionMean => t.partition_mean_bytes = parse_count(value)?,
            Field::AvgLiveCells => t.avg_live_cells_per_slice = parse_value(value)?,
            Field::MaxLiveCells => t.max_live_cells_per_slice = parse_value(value)?,
            Field::AvgTombstones => t.avg_tombstones_per_slice = parse_value(value)?,
            Field::MaxTombstones => t.max_tombstones_per_slice = parse_value(value)?,
            Field::DroppableTombstoneRatio => t.droppable_tombstone_ratio = parse_value(value)?,
        }
        Ok(())
    }
}
