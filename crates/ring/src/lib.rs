//! Where a partition lands on the ring: Cassandra 5.0's partition-key value
//! serialization and Murmur3Partitioner tokens.
//!
//! ```
//! use cqlmodel_cql::ast::{Literal, NativeType, Span, Term, TermKind};
//! use cqlmodel_ring::{partition_key_bytes, serialize_term, token_of_key};
//! use cqlmodel_schema::types::CqlType;
//!
//! let literal = |lit| Term { kind: TermKind::Literal(lit), span: Span::default() };
//!
//! // PRIMARY KEY ((user_id, day)) with user_id int = 42, day text = '2024-01-02'
//! let user_id = serialize_term(&CqlType::native(NativeType::Int), &literal(Literal::Integer("42".into())))?;
//! let day = serialize_term(&CqlType::native(NativeType::Text), &literal(Literal::String("2024-01-02".into())))?;
//! assert_eq!(user_id, [0, 0, 0, 42]);
//!
//! let key = partition_key_bytes(&[&user_id, &day]);
//! assert_eq!(&key[..7], &[0, 4, 0, 0, 0, 42, 0]); // length, value, end-of-component
//! let token = token_of_key(&key);
//! assert_eq!(token, token_of_key(&key)); // a pure function of the key bytes
//! println!("token({}) = {token}", "(42, '2024-01-02')");
//!
//! // The value the Python driver's Murmur3Token.hash_fn(b'hello') gives.
//! assert_eq!(token_of_key(b"hello").to_string(), "-3758069500696749310");
//! # Ok::<(), cqlmodel_ring::ValueError>(())
//! ```
//!
//! Differences from what drivers compute are documented on the functions: Cassandra
//! gives the empty key the minimum token (drivers hash it to 0), Java's calendar is used
//! for timestamp strings, and set/map literals are sorted by Cassandra's comparators.
//!
//! The ring: nodes, vnodes and replication ([`Topology`], from flags or a TOML file
//! with [`parse_topology`]), tokens drawn as Cassandra would ([`Allocation`]), the
//! replicas of every token (SimpleStrategy, rack-aware NetworkTopologyStrategy),
//! ownership as `nodetool status` reports it, and where sampled partitions land:
//!
//! ```
//! use cqlmodel_ring::{Allocation, Ring, Topology, ownership, place_load, token_of_key};
//!
//! // 6 nodes with 16 vnodes, SimpleStrategy RF 3, evenly spaced tokens.
//! let ring = Ring::build(&Topology::uniform(6, 16, 3, Allocation::Balanced, 1))?;
//! let replicas = ring.replicas(token_of_key(b"hello"));
//! assert_eq!(replicas.len(), 3);
//!
//! let owned = ownership(&ring);
//! let effective: f64 = owned.nodes.iter().map(|n| n.effective).sum();
//! assert!((effective - 3.0).abs() < 1e-9); // RF × 100%
//!
//! // A key with 3 values puts all the data on at most 3 × RF nodes.
//! let statuses = [&b"new"[..], b"paid", b"shipped"].map(token_of_key);
//! let load = place_load(&ring, (0..30_000).map(|i| (statuses[i % 3], 1.0, 1.0)));
//! assert!(load.nodes.iter().filter(|n| n.data > 0.0).count() <= 9);
//! assert_eq!(load.hottest.len(), 3);
//! # Ok::<(), cqlmodel_ring::TopologyError>(())
//! ```

mod allocation;
mod bigint;
mod compare;
mod error;
mod hot;
mod inet;
mod literal;
mod load;
mod murmur3;
mod ownership;
mod replication;
mod ring;
mod rng;
mod serialize;
mod temporal;
mod token;
mod topology;
mod topology_file;

pub use error::{ValueError, ValueErrorKind};
pub use murmur3::hash3_x64_128;
pub use serialize::{can_be_partition_key, serialize_term};
pub use token::{Token, composite_key, partition_key_bytes, token_of_key};

pub use allocation::allocate_tokens;
pub use hot::{BUCKET_WAYS, EXACT_PARTITIONS, TABLE_BUCKETS, Tally};
pub use load::{
    DEFAULT_TOP_PARTITIONS, HotPartition, LoadImbalance, LoadReport, NodeLoad, place_load,
    place_load_top,
};
pub use ownership::{NodeOwnership, Ownership, balance_groups, imbalance, ownership, range_width};
pub use ring::{NodeId, Ring, RingNode};
pub use rng::SplitMix64;
pub use topology::{
    Allocation, DEFAULT_NUM_TOKENS, DcReplication, MAX_DATACENTERS, MAX_NODES, MAX_TOTAL_VNODES,
    NodeSpec, Replication, Topology, TopologyError, TopologyErrorKind,
};
pub use topology_file::{
    DEFAULT_DC_RF, TopologyFileError, line_column, load_topology, locate, parse_topology,
};
