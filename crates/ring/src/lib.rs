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

mod bigint;
mod compare;
mod error;
mod inet;
mod literal;
mod murmur3;
mod serialize;
mod temporal;
mod token;

pub use error::{ValueError, ValueErrorKind};
pub use murmur3::hash3_x64_128;
pub use serialize::{can_be_partition_key, serialize_term};
pub use token::{Token, composite_key, partition_key_bytes, token_of_key};
