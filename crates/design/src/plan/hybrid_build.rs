//! What the per-key hybrid generates for one table: a leaf type shared by
//! per_key (which carries it), hybrid (which builds it) and hybrid_text
//! (which words it), so none of them imports another in a circle.

use serde::Serialize;

/// What the design generates for one table's per-key widths.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HybridBuild {
    /// `<table>_widths`: key, `since` DESC, `width`.
    pub widths_table: String,
    /// `<table>_key_rows`: a counter of each cold key's rows.
    pub rows_table: String,
    /// The key columns both tables share with the bucketed table.
    pub key: Vec<String>,
    /// The bucketed table's bucket column (renamed from the width's name).
    pub bucket_column: String,
    pub fine: String,
    pub coarse: String,
    pub cache_seconds: u64,
    /// A cold key's count is read on one write in this many.
    pub check_one_in: u64,
    /// The write path whose statements read the widths and promote.
    pub write_paths: Vec<String>,
    /// Counter increments and counter reads per second (cold keys' writes).
    pub counter_writes_per_second: Option<f64>,
    pub counter_reads_per_second: Option<f64>,
    /// Promotions per second: the keys over the threshold by the sizing
    /// age, spread over it (when the distribution says how many).
    pub promotions_per_second: Option<f64>,
    /// The share of an insert's executions that increment the counter: the
    /// cold keys' share of the rows (1 when the distribution does not say).
    pub counter_share: f64,
    /// The share of an insert's executions that promote a key: the
    /// promotions over the inserts (once per hot key), or one per
    /// threshold of rows when the rates do not say.
    pub promotion_share: f64,
    /// Statements a page costs under the hybrid (the widths read included).
    pub typical_statements: u64,
    pub hottest_statements: u64,
    pub writer_read_cql: String,
    pub reader_read_cql: String,
    pub check_cql: String,
    pub count_cql: String,
    pub promote_cql: String,
    /// A deleted key's bookkeeping, after its partitions.
    pub delete_widths_cql: String,
    pub delete_rows_cql: String,
}
