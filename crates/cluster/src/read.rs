//! Connecting (bounded in time) and reading: the schema through any node, the
//! estimates from every node in turn.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use scylla::client::session::Session;
use scylla::client::session_builder::SessionBuilder;
use scylla::cluster::Node;
use scylla::deserialize::row::DeserializeRow;
use scylla::policies::load_balancing::{NodeIdentifier, SingleTargetLoadBalancingPolicy};
use scylla::statement::unprepared::Statement;

use crate::schema::{ColumnRow, KeyspaceRow, TableRow, TypeRow, ddl, is_system};
use crate::{
    ClusterError, ClusterOptions, ClusterSnapshot, NodeReading, QUERIES, TableEstimate,
    with_default_port,
};

/// Connects, reads, disconnects. Blocking; the runtime lives only inside.
pub fn read_cluster(options: &ClusterOptions) -> Result<ClusterSnapshot, ClusterError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(read(options))
}

async fn connect(options: &ClusterOptions) -> Result<Session, ClusterError> {
    let points: Vec<String> = options
        .contact_points
        .iter()
        .map(|p| with_default_port(p))
        .collect();
    let mut builder = SessionBuilder::new()
        .known_nodes(&points)
        .connection_timeout(options.connect_timeout);
    if let Some(user) = &options.username {
        builder = builder.user(user, options.password.clone().unwrap_or_default());
    }
    let seconds = options.connect_timeout.as_secs().max(1);
    // The driver retries contact points on its own: the whole attempt is bounded too.
    let limit = options.connect_timeout + Duration::from_secs(1);
    match tokio::time::timeout(limit, builder.build()).await {
        Ok(Ok(session)) => Ok(session),
        Ok(Err(e)) => Err(ClusterError::Connect {
            points: points.join(", "),
            seconds,
            message: e.to_string(),
        }),
        Err(_) => Err(ClusterError::Timeout {
            points: points.join(", "),
            seconds,
        }),
    }
}

async fn rows<R>(
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

async fn read(options: &ClusterOptions) -> Result<ClusterSnapshot, ClusterError> {
    let session = connect(options).await?;
    let [
        q_ks,
        q_types,
        q_tables,
        q_columns,
        q_estimates,
        q_large,
        q_version,
    ] = QUERIES;
    let mut notes = vec![
        "schema rebuilt from system_schema: keyspaces, types, tables (key, clustering order, TTL, gc_grace_seconds); views and indexes are not read".to_string(),
    ];
    let release_version = rows::<(Option<String>,)>(&session, q_version, None)
        .await
        .ok()
        .and_then(|r| r.into_iter().next())
        .and_then(|(v,)| v);
    let keyspaces: Vec<KeyspaceRow> = rows(&session, q_ks, None).await?;
    let types: Vec<TypeRow> = rows(&session, q_types, None).await?;
    let tables: Vec<TableRow> = rows(&session, q_tables, None).await?;
    let columns: Vec<ColumnRow> = rows(&session, q_columns, None).await?;
    let schema_cql = ddl(&keyspaces, &types, &tables, &columns);

    let mut nodes = Vec::new();
    let state = session.get_cluster_state();
    for node in state.get_nodes_info() {
        let address = node.address.ip().to_string();
        let estimates = match rows::<(String, String, Option<i64>, Option<i64>)>(
            &session,
            q_estimates,
            Some(node),
        )
        .await
        {
            Ok(r) => r,
            Err(e) => {
                notes.push(format!("{address}: {e}"));
                continue;
            }
        };
        let large = match rows::<(String, String, Option<i64>, Option<String>)>(
            &session,
            q_large,
            Some(node),
        )
        .await
        {
            Ok(r) => r,
            Err(_) => {
                notes.push(format!("{address}: no system.large_partitions (a Cassandra node): largest partitions unknown, only means"));
                Vec::new()
            }
        };
        nodes.push(NodeReading {
            address,
            datacenter: node.datacenter.clone(),
            tables: estimates_by_table(&estimates, &large),
        });
    }
    Ok(ClusterSnapshot {
        release_version,
        schema_cql,
        nodes,
        notes,
    })
}

/// Sums a node's ranges per table; the mean is weighted by each range's partitions.
fn estimates_by_table(
    ranges: &[(String, String, Option<i64>, Option<i64>)],
    large: &[(String, String, Option<i64>, Option<String>)],
) -> Vec<TableEstimate> {
    let mut acc: BTreeMap<(&str, &str), (u64, f64)> = BTreeMap::new();
    for (ks, t, count, mean) in ranges {
        if is_system(ks) {
            continue;
        }
        let count = count.unwrap_or(0).max(0) as u64;
        let mean = mean.unwrap_or(0).max(0) as f64;
        let e = acc.entry((ks, t)).or_insert((0, 0.0));
        e.0 = e.0.saturating_add(count);
        e.1 += mean * count as f64;
    }
    acc.into_iter()
        .map(|((ks, t), (count, bytes))| {
            let largest = large
                .iter()
                .filter(|l| l.0 == ks && l.1 == t)
                .filter_map(|l| Some((l.3.clone().unwrap_or_default(), l.2?.max(0) as u64)))
                .max_by_key(|(_, b)| *b);
            TableEstimate {
                keyspace: ks.to_string(),
                table: t.to_string(),
                partitions: count,
                mean_partition_bytes: if count > 0 {
                    (bytes / count as f64).round() as u64
                } else {
                    0
                },
                largest_partition: largest,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_sum_and_weigh_their_means() {
        let ranges = vec![
            (
                "iot".to_string(),
                "readings".to_string(),
                Some(100),
                Some(1000),
            ),
            (
                "iot".to_string(),
                "readings".to_string(),
                Some(300),
                Some(2000),
            ),
            ("system".to_string(), "local".to_string(), Some(1), Some(10)),
        ];
        let large = vec![(
            "iot".to_string(),
            "readings".to_string(),
            Some(250_000_000),
            Some("dev-42".to_string()),
        )];
        let t = estimates_by_table(&ranges, &large);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].partitions, 400);
        assert_eq!(t[0].mean_partition_bytes, 1750);
        assert_eq!(
            t[0].largest_partition,
            Some(("dev-42".to_string(), 250_000_000))
        );
    }

    #[test]
    fn an_unreachable_cluster_fails_within_the_timeout() {
        let options = ClusterOptions {
            // Nothing listens on port 1.
            contact_points: vec!["127.0.0.1:1".to_string()],
            username: None,
            password: None,
            connect_timeout: Duration::from_secs(2),
        };
        let start = std::time::Instant::now();
        let result = read_cluster(&options);
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            start.elapsed()
        );
        let message = result.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(message.contains("127.0.0.1:1"), "{message}");
    }
}
