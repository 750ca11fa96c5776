//! The limits sizing works to: a leaf, so that every sizing module (and the
//! crate's users) read them without importing the sizing stage.

/// A largest partition this many times the median one: the bucket that fits
/// the largest key is far too fine for the others.
pub const SKEW_WARNING: f64 = 100.0;

/// The most salt buckets the design uses: every read of a key runs once per
/// bucket, so more would turn each read into a scatter over the cluster.
pub const SALT_CAP: u32 = 64;

/// Above this many salt buckets a read's fan-out is worth a warning.
pub const SALT_FANOUT_WARNING: u32 = 16;

/// The growth horizon when nothing bounds a table (its home is the
/// horizon leaf, which the write paths read too).
pub use crate::horizon::DEFAULT_HORIZON;
