//! Differential tests of cqlmodel against a real Cassandra 5.0 node (or any node that speaks
//! CQL: an existing Cassandra or ScyllaDB cluster).
//!
//! The node is named by `CQLMODEL_TEST_CONTACT=host:port`; `scripts/test-cassandra.sh` starts a
//! local Cassandra 5.0 from Maven Central's jars, sets it, and runs the tests of this crate,
//! which are `#[ignore]`d so that a plain `cargo test` passes without a node and lists them as
//! ignored. This library holds what the tests share: the connection, the node's verdict on a
//! statement (accepted, or rejected with Cassandra's own error class and message), and the
//! splitting of emitted CQL files into their statements.
//!
//! ```no_run
//! # async fn demo() -> Result<(), cqlmodel_livetest::LiveError> {
//! use cqlmodel_livetest::{Node, Verdict};
//!
//! let node = Node::from_env().await?;
//! match node.prepare("SELECT * FROM system.local WHERE key = ?").await? {
//!     Verdict::Accepted { .. } => {}
//!     Verdict::Rejected(rejection) => println!("{}: {}", rejection.class, rejection.message),
//! }
//! # Ok(())
//! # }
//! ```

mod agreement;
mod apply;
mod error;
mod node;
mod script;
mod values;

pub use agreement::Agreement;
pub use apply::{Applied, SINGLE_NODE_REPLICATION, apply_schema};
pub use error::LiveError;
pub use node::{CONTACT_VAR, Node, Rejection, Verdict};
pub use script::{ScriptStatement, statements_of};
pub use values::sample_value;
