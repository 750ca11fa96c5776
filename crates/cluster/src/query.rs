//! One `SELECT` through the driver, typed rows out: the schema reader and the
//! node-local readers both use it, and it uses neither.

use std::sync::Arc;

use scylla::client::session::Session;
use scylla::cluster::Node;
use scylla::deserialize::row::DeserializeRow;
use scylla::policies::load_balancing::{NodeIdentifier, SingleTargetLoadBalancingPolicy};
use scylla::statement::unprepared::Statement;

use crate::ClusterError;

/// Runs one `SELECT`, on `node` alone when given.
pub(crate) async fn rows<R>(
    session: &Session,
    query: &str,
    node: Option<&Arc<Node>>,
) -> Result<Vec<R>, ClusterError>
where
    R: for<'f> DeserializeRow<'f, 'f>,
{
    let failed = |message: String| ClusterError::Query {
        query: query.to_string(),
        message,
    };
    let mut statement = Statement::new(query);
    if let Some(node) = node {
        statement.set_load_balancing_policy(Some(SingleTargetLoadBalancingPolicy::new(
            NodeIdentifier::Node(Arc::clone(node)),
            None,
        )));
    }
    let result = session
        .query_unpaged(statement, &[])
        .await
        .map_err(|e| failed(e.to_string()))?;
    let rows = result
        .into_rows_result()
        .map_err(|e| failed(e.to_string()))?;
    let iter = rows.rows::<R>().map_err(|e| failed(e.to_string()))?;
    iter.map(|r| r.map_err(|e| failed(e.to_string()))).collect()
}
