//! Sampling partition keys from the declared distributions, for the ring
//! analysis: each draw writes a real serialized partition key into a reused buffer,
//! hashes it with Murmur3 and reports the token with the share of rows and of
//! requests the draw stands for.
//!
//! Draws follow the rows: a key holding 10% of the rows comes up in ~10% of the
//! draws, so the data weight of every draw is the same. Requests follow the rows
//! too, except across time buckets: reads and writes go to the current bucket.
//! Keys are therefore drawn from the mixture ½(rows) + ½(requests) and each draw
//! carries importance weights that make both sums unbiased: Σ data_weight ≈ total
//! rows, Σ request_weight ≈ total requests/s.

mod alias;
mod encode;

use cqlmodel_ring::{Token, token_of_key};
use cqlmodel_schema::{Column, Table};

use crate::distribution::{Distribution, groups};
use crate::layout::{Flow, Layout, live_seconds};
use crate::model::{BucketUnit, TableStats};
use crate::rng::{Rng, mix64};
use alias::AliasTable;
use encode::Encoder;
pub use encode::TIME_ORIGIN;

/// One drawn partition.
#[derive(Debug, Clone, PartialEq)]
pub struct SampledPartition {
    pub token: Token,
    /// The serialized partition key (what `token(...)` hashes).
    pub key: Vec<u8>,
    /// Rows this draw stands for: Σ over a sample ≈ the table's rows.
    pub data_weight: f64,
    /// Requests/s this draw stands for: Σ over a sample ≈ the table's request rate
    /// (the sum of its queries' `rate_per_second`, or 1 when none is given, making
    /// the weights shares).
    pub request_weight: f64,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SampleError {
    #[error(
        "cannot sample keys of `{table}`: partition-key column `{column}` has type {ty}, which has no generated values"
    )]
    UnsupportedKeyType {
        table: String,
        column: String,
        ty: String,
    },
    #[error("table `{table}` has no partition key")]
    NoPartitionKey { table: String },
}

/// How a column's value index is drawn.
#[derive(Debug, Clone)]
enum Draw {
    /// Uniform over `0..n` (uniform, sequential and time-based columns).
    Uniform { n: u64 },
    /// Zipf ranks through an alias table over groups of ranks.
    Zipf {
        table: AliasTable,
        /// (first index, count) of each group.
        groups: Vec<(u64, u64)>,
    },
    /// A time bucket over `0..n`: rows spread evenly, requests all go to the last
    /// (current) bucket; drawn from the half-and-half mixture.
    Bucket { n: u64 },
}

#[derive(Debug, Clone)]
struct ColumnGen {
    draw: Draw,
    encoder: Encoder,
}

/// A seeded, reusable key generator for one table.
#[derive(Debug, Clone)]
pub struct KeySampler {
    columns: Vec<ColumnGen>,
    composite: bool,
    rng: Rng,
    buf: Vec<u8>,
    partitions: f64,
    total_rows: f64,
    total_requests: f64,
    /// (data, request) importance factors of a draw of the current time bucket.
    last_bucket: (f64, f64),
}

impl KeySampler {
    /// Prepares a sampler for `table` under `stats`; `seed` fixes every draw.
    pub fn new(table: &Table, stats: &TableStats, seed: u64) -> Result<Self, SampleError> {
        let layout = Layout::build(table, stats);
        let age = match layout.flow {
            Flow::Growth { age, .. } => age,
            Flow::Fixed { .. } => 0,
        };
        let pk: Vec<&Column> = table.partition_key().collect();
        if pk.is_empty() {
            return Err(SampleError::NoPartitionKey {
                table: table.qualified_name(),
            });
        }
        let mut columns = Vec::with_capacity(pk.len());
        let mut partitions = 1.0;
        let mut last_bucket = (1.0, 1.0);
        for (position, c) in pk.iter().enumerate() {
            let salt = mix64(seed ^ (position as u64).wrapping_mul(0x9e37_79b9));
            let unsupported = || SampleError::UnsupportedKeyType {
                table: table.qualified_name(),
                column: c.name.clone(),
                ty: c.ty.to_string(),
            };
            let bucket = layout.bucket.as_ref().filter(|(name, _)| *name == c.name);
            let generator = if let Some((_, width)) = bucket {
                let unit = bucket_unit(*width);
                let live = match layout.flow {
                    Flow::Growth { retention, .. } => live_seconds(age, retention),
                    Flow::Fixed { .. } => *width as f64,
                };
                let n = (live / *width as f64).ceil().max(1.0);
                partitions *= n;
                // Rows give the current bucket 1/n, requests give it everything;
                // the mixture draws it with probability (1/n + 1)/2.
                let mixture = (1.0 / n + 1.0) / 2.0;
                last_bucket = ((1.0 / n) / mixture, 1.0 / mixture);
                ColumnGen {
                    draw: Draw::Bucket { n: n as u64 },
                    encoder: Encoder::for_bucket(&c.ty, unit, salt).map_err(|_| unsupported())?,
                }
            } else {
                let dim = layout.dims.iter().find(|d| d.column == c.name);
                let (distribution, distinct) = dim.map_or((Distribution::Uniform, 1.0), |d| {
                    (d.distribution, d.distinct)
                });
                partitions *= distinct;
                let step = match distribution {
                    Distribution::Time { per_second } => 1.0 / per_second,
                    _ if c.ty
                        == cqlmodel_schema::types::CqlType::Native(
                            cqlmodel_schema::types::NativeType::Date,
                        ) =>
                    {
                        86_400.0
                    }
                    _ => 1.0,
                };
                ColumnGen {
                    draw: draw_for(&distribution, distinct),
                    encoder: Encoder::for_type(&c.ty, step, salt).map_err(|_| unsupported())?,
                }
            };
            columns.push(generator);
        }
        let total_rows = layout.total_rows_at(age);
        Ok(Self {
            composite: columns.len() > 1,
            columns,
            rng: Rng::new(seed),
            buf: Vec::with_capacity(64),
            partitions: if layout.one_row_per_partition {
                partitions.min(total_rows)
            } else {
                partitions
            },
            total_rows,
            total_requests: stats.request_rate.unwrap_or(1.0),
            last_bucket,
        })
    }

    /// Distinct partitions the key space holds (the product of the columns' values).
    pub fn partitions(&self) -> f64 {
        self.partitions
    }

    /// Rows the data weights of a whole sample add up to.
    pub fn total_rows(&self) -> f64 {
        self.total_rows
    }

    /// Requests/s the request weights of a whole sample add up to.
    pub fn total_requests(&self) -> f64 {
        self.total_requests
    }

    /// The serialized partition key of the last draw.
    pub fn key(&self) -> &[u8] {
        &self.buf
    }

    /// Draws one key: its token, and its data and request importance factors (each
    /// averaging 1 over many draws; multiply by total/n for a sample of n).
    #[inline]
    pub fn next_key(&mut self) -> (Token, f64, f64) {
        self.buf.clear();
        let mut data = 1.0;
        let mut requests = 1.0;
        for column in &self.columns {
            let index = match &column.draw {
                Draw::Uniform { n } => self.rng.below(*n),
                Draw::Zipf { table, groups } => {
                    let g = table.sample(&mut self.rng);
                    let (start, count) = groups.get(g).copied().unwrap_or((0, 1));
                    start + self.rng.below(count)
                }
                Draw::Bucket { n } => {
                    let n = *n;
                    let last = n - 1;
                    // Mixture: half the draws uniform (rows), half the current bucket
                    // (requests); one random word decides both.
                    let word = self.rng.next_u64();
                    let b = if word >> 63 == 0 {
                        ((u128::from(word << 1) * u128::from(n)) >> 64) as u64
                    } else {
                        last
                    };
                    if b == last {
                        data *= self.last_bucket.0;
                        requests *= self.last_bucket.1;
                    } else {
                        data *= 2.0;
                        requests = 0.0;
                    }
                    b
                }
            };
            if self.composite {
                let at = self.buf.len();
                self.buf.extend_from_slice(&[0, 0]);
                column.encoder.write(index, &mut self.buf);
                let len = (self.buf.len() - at - 2) as u16;
                if let Some(slot) = self.buf.get_mut(at..at + 2) {
                    slot.copy_from_slice(&len.to_be_bytes());
                }
                self.buf.push(0);
            } else {
                column.encoder.write(index, &mut self.buf);
            }
        }
        (token_of_key(&self.buf), data, requests)
    }

    /// Draws `n` keys and hands each to `f` as (token, data_weight, request_weight),
    /// weights scaled so that their sums estimate the table's rows and requests/s.
    #[inline]
    pub fn for_each(&mut self, n: usize, mut f: impl FnMut(Token, f64, f64)) {
        if n == 0 {
            return;
        }
        let data_scale = self.total_rows / n as f64;
        let request_scale = self.total_requests / n as f64;
        for _ in 0..n {
            let (token, d, r) = self.next_key();
            f(token, d * data_scale, r * request_scale);
        }
    }
}

fn bucket_unit(width: u64) -> BucketUnit {
    BucketUnit::COARSEST_FIRST
        .into_iter()
        .find(|u| u.seconds() == width)
        .unwrap_or(BucketUnit::Day)
}

fn draw_for(distribution: &Distribution, distinct: f64) -> Draw {
    let n = distinct.round().clamp(1.0, u64::MAX as f64) as u64;
    if let Distribution::Zipf { .. } = distribution {
        let gs = groups(distribution, n as f64);
        let weights: Vec<f64> = gs.iter().map(|g| g.share * g.count).collect();
        if let Some(table) = AliasTable::new(&weights) {
            let mut start = 0u64;
            let spans = gs
                .iter()
                .map(|g| {
                    let count = g.count as u64;
                    let span = (start, count.max(1));
                    start = start.saturating_add(count);
                    span
                })
                .collect();
            return Draw::Zipf {
                table,
                groups: spans,
            };
        }
    }
    Draw::Uniform { n }
}

/// Draws `n` partitions of `table` (seeded: the same seed gives the same sample).
///
/// Allocates a key per draw; the ring analysis's hot loop uses
/// [`KeySampler::for_each`] instead.
pub fn sample_partitions(
    table: &Table,
    stats: &TableStats,
    n: usize,
    seed: u64,
) -> Result<Vec<SampledPartition>, SampleError> {
    let mut sampler = KeySampler::new(table, stats, seed)?;
    let mut out = Vec::with_capacity(n);
    if n == 0 {
        return Ok(out);
    }
    let data_scale = sampler.total_rows() / n as f64;
    let request_scale = sampler.total_requests() / n as f64;
    for _ in 0..n {
        let (token, d, r) = sampler.next_key();
        out.push(SampledPartition {
            token,
            key: sampler.key().to_vec(),
            data_weight: d * data_scale,
            request_weight: r * request_scale,
        });
    }
    Ok(out)
}
