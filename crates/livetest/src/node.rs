//! One connection to the node under test and its verdict on statements.

use std::fmt;

use scylla::client::session::Session;
use scylla::client::session_builder::SessionBuilder;
use scylla::errors::{DbError, ExecutionError, PrepareError, RequestAttemptError};

use crate::LiveError;

/// The environment variable naming the node: `host:port` of its native transport.
pub const CONTACT_VAR: &str = "CQLMODEL_TEST_CONTACT";

/// The node's answer to one statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Accepted; `warnings` are the client warnings the node sent with the result
    /// (always empty for a prepare, whose response carries none we can read).
    Accepted {
        warnings: Vec<String>,
    },
    Rejected(Rejection),
}

impl Verdict {
    pub fn is_accepted(&self) -> bool {
        matches!(self, Verdict::Accepted { .. })
    }

    /// The rejection message, `None` when accepted.
    pub fn message(&self) -> Option<&str> {
        match self {
            Verdict::Accepted { .. } => None,
            Verdict::Rejected(r) => Some(&r.message),
        }
    }
}

/// A statement the node refused: the protocol error class (`Invalid` for Cassandra's
/// InvalidRequestException, `SyntaxError`, `ConfigError`, ...) and the message verbatim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub class: String,
    pub message: String,
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.class, self.message)
    }
}

pub struct Node {
    session: Session,
    contact: String,
}

impl Node {
    /// Connects to the node named by [`CONTACT_VAR`].
    pub async fn from_env() -> Result<Node, LiveError> {
        match std::env::var(CONTACT_VAR) {
            Ok(contact) if !contact.trim().is_empty() => Node::connect(contact.trim()).await,
            _ => Err(LiveError::NoContact { var: CONTACT_VAR }),
        }
    }

    pub async fn connect(contact: &str) -> Result<Node, LiveError> {
        Node::connect_as(contact, None).await
    }

    /// Connects with `(user, password)` when given (a node with PasswordAuthenticator).
    pub async fn connect_as(
        contact: &str,
        credentials: Option<(&str, &str)>,
    ) -> Result<Node, LiveError> {
        // Schema metadata is not needed and would be re-read after every DDL statement.
        let mut builder = SessionBuilder::new()
            .known_node(contact)
            .fetch_schema_metadata(false);
        if let Some((user, password)) = credentials {
            builder = builder.user(user, password);
        }
        let session = builder.build().await.map_err(|e| LiveError::Connect {
            contact: contact.to_string(),
            reason: e.to_string(),
        })?;
        Ok(Node {
            session,
            contact: contact.to_string(),
        })
    }

    pub fn contact(&self) -> &str {
        &self.contact
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Executes `cql` as a simple (unprepared) statement without bound values.
    pub async fn run(&self, cql: &str) -> Result<Verdict, LiveError> {
        match self.session.query_unpaged(cql, ()).await {
            Ok(result) => Ok(Verdict::Accepted {
                warnings: result.warnings().map(str::to_string).collect(),
            }),
            Err(error) => rejection_of_execution(cql, error).map(Verdict::Rejected),
        }
    }

    /// Prepares `cql`: the node parses and validates it (restrictions included) without
    /// running it.
    pub async fn prepare(&self, cql: &str) -> Result<Verdict, LiveError> {
        match self.session.prepare(cql).await {
            Ok(_) => Ok(Verdict::Accepted {
                warnings: Vec::new(),
            }),
            Err(error) => rejection_of_prepare(cql, error).map(Verdict::Rejected),
        }
    }

    /// Prepares `cql` and, when the node accepts it, executes it once with a generated value
    /// for each bind marker ([`crate::sample_value`], varied by `seed`). Returns the
    /// prepare's verdict and, after a successful prepare, the execution's.
    pub async fn prepare_and_execute(
        &self,
        cql: &str,
        seed: u64,
    ) -> Result<(Verdict, Option<Verdict>), LiveError> {
        let prepared = match self.session.prepare(cql).await {
            Ok(prepared) => prepared,
            Err(error) => {
                return Ok((Verdict::Rejected(rejection_of_prepare(cql, error)?), None));
            }
        };
        let values: Vec<Option<scylla::value::CqlValue>> = prepared
            .get_variable_col_specs()
            .iter()
            .enumerate()
            .map(|(i, spec)| Some(crate::sample_value(spec.typ(), seed + i as u64)))
            .collect();
        let executed = match self.session.execute_unpaged(&prepared, values).await {
            Ok(result) => Verdict::Accepted {
                warnings: result.warnings().map(str::to_string).collect(),
            },
            Err(error) => Verdict::Rejected(rejection_of_execution(cql, error)?),
        };
        let prepared = Verdict::Accepted {
            warnings: Vec::new(),
        };
        Ok((prepared, Some(executed)))
    }

    /// Runs `cql` and fails unless the node accepts it (setup statements).
    pub async fn must_run(&self, cql: &str) -> Result<(), LiveError> {
        match self.run(cql).await? {
            Verdict::Accepted { .. } => Ok(()),
            Verdict::Rejected(r) => Err(LiveError::Transport {
                cql: cql.to_string(),
                reason: format!("rejected: {r}"),
            }),
        }
    }

    /// Drops and recreates keyspace `name` with SimpleStrategy RF 1 (one node).
    pub async fn fresh_keyspace(&self, name: &str) -> Result<(), LiveError> {
        self.must_run(&format!("DROP KEYSPACE IF EXISTS {name}"))
            .await?;
        self.must_run(&format!(
            "CREATE KEYSPACE {name} WITH replication = \
             {{'class': 'SimpleStrategy', 'replication_factor': 1}}"
        ))
        .await
    }

    /// The first column of the first row as a bigint (e.g. `SELECT token(k) ...`), `None`
    /// when the query returns no row.
    pub async fn first_bigint(&self, cql: &str) -> Result<Option<i64>, LiveError> {
        let transport = |reason: String| LiveError::Transport {
            cql: cql.to_string(),
            reason,
        };
        let result = self
            .session
            .query_unpaged(cql, ())
            .await
            .map_err(|e| transport(e.to_string()))?;
        let rows = result
            .into_rows_result()
            .map_err(|e| transport(e.to_string()))?;
        let mut values = rows
            .rows::<(i64,)>()
            .map_err(|e| transport(e.to_string()))?;
        match values.next() {
            Some(row) => Ok(Some(row.map_err(|e| transport(e.to_string()))?.0)),
            None => Ok(None),
        }
    }

    /// The node's `release_version` (e.g. `5.0.9`; ScyllaDB reports `3.0.8`).
    pub async fn release_version(&self) -> Result<String, LiveError> {
        let cql = "SELECT release_version FROM system.local";
        let transport = |reason: String| LiveError::Transport {
            cql: cql.to_string(),
            reason,
        };
        let result = self
            .session
            .query_unpaged(cql, ())
            .await
            .map_err(|e| transport(e.to_string()))?;
        let rows = result
            .into_rows_result()
            .map_err(|e| transport(e.to_string()))?;
        let (version,) = rows
            .single_row::<(String,)>()
            .map_err(|e| transport(e.to_string()))?;
        Ok(version)
    }
}

fn rejection_of_attempt(cql: &str, attempt: RequestAttemptError) -> Result<Rejection, LiveError> {
    match attempt {
        RequestAttemptError::DbError(error, message) => Ok(Rejection {
            class: class_name(&error),
            message,
        }),
        other => Err(LiveError::Transport {
            cql: cql.to_string(),
            reason: other.to_string(),
        }),
    }
}

fn rejection_of_prepare(cql: &str, error: PrepareError) -> Result<Rejection, LiveError> {
    match error {
        PrepareError::AllAttemptsFailed { first_attempt } => {
            rejection_of_attempt(cql, first_attempt)
        }
        other => Err(LiveError::Transport {
            cql: cql.to_string(),
            reason: other.to_string(),
        }),
    }
}

fn rejection_of_execution(cql: &str, error: ExecutionError) -> Result<Rejection, LiveError> {
    match error {
        ExecutionError::LastAttemptError(attempt) => rejection_of_attempt(cql, attempt),
        ExecutionError::PrepareError(prepare) => rejection_of_prepare(cql, prepare),
        other => Err(LiveError::Transport {
            cql: cql.to_string(),
            reason: other.to_string(),
        }),
    }
}

/// The protocol error's name without its fields (`AlreadyExists { .. }` -> `AlreadyExists`).
fn class_name(error: &DbError) -> String {
    let debug = format!("{error:?}");
    debug
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or_default()
        .to_string()
}
