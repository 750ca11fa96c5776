//! Why the cluster could not be read.

#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("cannot connect to {points} within {seconds} s (--connect-timeout): {message}{hint}")]
    Connect {
        points: String,
        seconds: u64,
        message: String,
        /// What the driver's message most likely means (TLS), or empty.
        hint: String,
    },
    #[error("no connection to {points} within {seconds} s (--connect-timeout)")]
    Timeout { points: String, seconds: u64 },
    #[error("`{query}` failed: {message}")]
    Query { query: String, message: String },
    #[error("TLS: {message}")]
    Tls { message: String },
    #[error("cannot start the driver's runtime: {0}")]
    Runtime(#[from] std::io::Error),
}
