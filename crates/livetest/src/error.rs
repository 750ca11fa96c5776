//! What can go wrong between the tests and the node (as opposed to the node refusing a
//! statement, which is a [`crate::Verdict`], not an error).

use thiserror::Error;

#[derive(Debug, Error)]
pub enum LiveError {
    #[error(
        "{var} is not set: start a node (scripts/cassandra.sh start) and set {var}=127.0.0.1:9042, \
         or point it at an existing Cassandra or ScyllaDB node"
    )]
    NoContact { var: &'static str },
    #[error("cannot connect to {contact}: {reason}")]
    Connect { contact: String, reason: String },
    #[error("the node did not answer `{cql}`: {reason}")]
    Transport { cql: String, reason: String },
    #[error("the CQL script does not parse at byte {offset}: {message}")]
    Script { offset: u32, message: String },
}
