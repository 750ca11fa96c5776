//! Connecting (bounded in time, optionally over TLS, optionally to one
//! datacenter) and reading: the schema through any node, the node-local tables
//! from every node in turn.

use std::time::Duration;

use scylla::client::execution_profile::ExecutionProfile;
use scylla::client::session::Session;
use scylla::client::session_builder::SessionBuilder;
use scylla::policies::load_balancing::DefaultPolicy;

use crate::node_tables::read_node;
use crate::query::rows;
use crate::schema::{ColumnRow, IndexRow, KeyspaceRow, TableRow, TypeRow, ViewRow, ddl};
use crate::{
    ClusterError, ClusterOptions, ClusterSnapshot, NodeReading, SCHEMA_QUERIES, with_default_port,
};

/// Connects, reads, disconnects. Blocking; the runtime lives only inside.
pub fn read_cluster(options: &ClusterOptions) -> Result<ClusterSnapshot, ClusterError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(read(options))
}

fn tls_context(options: &ClusterOptions) -> Result<openssl::ssl::SslContext, ClusterError> {
    use openssl::ssl::{SslContextBuilder, SslMethod, SslVerifyMode};
    let failed = |message: String| ClusterError::Tls { message };
    let mut builder =
        SslContextBuilder::new(SslMethod::tls()).map_err(|e| failed(e.to_string()))?;
    match &options.ca_file {
        Some(path) => builder
            .set_ca_file(path)
            .map_err(|e| failed(format!("{}: {e}", path.display())))?,
        None => builder
            .set_default_verify_paths()
            .map_err(|e| failed(e.to_string()))?,
    }
    match (&options.client_cert, &options.client_key) {
        (Some(cert), Some(key)) => {
            builder
                .set_certificate_chain_file(cert)
                .map_err(|e| failed(format!("--cert {}: {e}", cert.display())))?;
            builder
                .set_private_key_file(key, openssl::ssl::SslFiletype::PEM)
                .map_err(|e| failed(format!("--key {}: {e}", key.display())))?;
            builder.check_private_key().map_err(|e| {
                failed(format!(
                    "--key {} is not the key of --cert {}: {e}",
                    key.display(),
                    cert.display()
                ))
            })?;
        }
        (Some(_), None) => return Err(failed("--cert needs --key (its private key)".into())),
        (None, Some(_)) => return Err(failed("--key needs --cert (its certificate)".into())),
        (None, None) => {}
    }
    builder.set_verify(SslVerifyMode::PEER);
    Ok(builder.build())
}

async fn connect(options: &ClusterOptions) -> Result<Session, ClusterError> {
    let points: Vec<String> = options
        .contact_points
        .iter()
        .map(|p| with_default_port(p))
        .collect();
    let mut builder = SessionBuilder::new()
        .known_nodes(&points)
        .connection_timeout(options.connect_timeout)
        // The schema is read from system_schema directly (the driver's metadata
        // lacks clustering order, options and indexes).
        .fetch_schema_metadata(false);
    if let Some(user) = &options.username {
        builder = builder.user(user, options.password.clone().unwrap_or_default());
    }
    if uses_tls(options) {
        builder = builder.tls_context(Some(tls_context(options)?));
    }
    if let Some(dc) = &options.datacenter {
        let policy = DefaultPolicy::builder()
            .prefer_datacenter(dc.clone())
            .permit_dc_failover(false)
            .build();
        let profile = ExecutionProfile::builder()
            .load_balancing_policy(policy)
            .build();
        builder = builder.default_execution_profile_handle(profile.into_handle());
    }
    let seconds = options.connect_timeout.as_secs().max(1);
    // The driver retries contact points on its own: the whole attempt is bounded too.
    let limit = options.connect_timeout + Duration::from_secs(1);
    match tokio::time::timeout(limit, builder.build()).await {
        Ok(Ok(session)) => Ok(session),
        Ok(Err(e)) => {
            let message = e.to_string();
            Err(ClusterError::Connect {
                points: points.join(", "),
                seconds,
                hint: connect_hint(&message, options),
                message,
            })
        }
        Err(_) => Err(ClusterError::Timeout {
            points: points.join(", "),
            seconds,
        }),
    }
}

/// The likely cause of a failed connection, in the user's terms: the driver
/// reports a TLS mismatch as an OpenSSL error or as a reset connection.
/// `--ssl`, or a flag that only means something with TLS.
fn uses_tls(options: &ClusterOptions) -> bool {
    options.ssl
        || options.ca_file.is_some()
        || options.client_cert.is_some()
        || options.client_key.is_some()
}

fn connect_hint(message: &str, options: &ClusterOptions) -> String {
    let tls = uses_tls(options);
    if message.contains("certificate verify failed") {
        return match &options.ca_file {
            Some(ca) => format!(
                " (the node's certificate is not signed by the CA in --ca-file {}, or it has expired: give the CA that signed it)",
                ca.display()
            ),
            None => " (the node's certificate is not signed by a CA this system trusts: give the CA that signed it with --ca-file)".to_string(),
        };
    }
    let reset = message.contains("Connection reset by peer")
        || message.contains("Failed to read the frame header");
    if !tls && reset {
        return " (the node closed the connection at once: if it requires TLS (client_encryption_options), connect with --ssl and --ca-file)".to_string();
    }
    // A node with require_client_auth ends the handshake with an alert when no
    // (or an unknown) client certificate is offered.
    // With TLS 1.3 the client learns of the refusal only when its first request
    // finds the connection closed.
    let closed_after_handshake =
        message.contains("Connection broken") || message.contains("Failed to send/receive data");
    let refused_client = message.contains("certificate required")
        || closed_after_handshake
        || message.contains("alert bad certificate")
        || message.contains("alert unknown ca")
        || message.contains("alert handshake failure");
    if tls && refused_client {
        return match &options.client_cert {
            None => " (the node closed the TLS connection: if it requires a client certificate (require_client_auth), give one signed by a CA the node trusts with --cert and --key)".to_string(),
            Some(cert) => format!(
                " (the node closed the TLS connection: it may have refused the client certificate --cert {}, which must be signed by a CA in the node's truststore)",
                cert.display()
            ),
        };
    }
    if tls && (message.contains("wrong version number") || message.contains("unexpected eof")) {
        return " (the TLS handshake failed: the node may not use TLS on this port; try without --ssl)".to_string();
    }
    String::new()
}

async fn read(options: &ClusterOptions) -> Result<ClusterSnapshot, ClusterError> {
    let session = connect(options).await?;
    let [
        q_ks,
        q_types,
        q_tables,
        _q_table_options,
        q_columns,
        q_indexes,
        q_views,
        q_version,
    ] = SCHEMA_QUERIES;
    let mut notes = vec![
        "schema rebuilt from system_schema: keyspaces, types, tables (key, clustering order, every option but the memtable configuration and extensions), indexes, views".to_string(),
    ];
    let release_version = rows::<(Option<String>,)>(&session, q_version, None)
        .await
        .ok()
        .and_then(|r| r.into_iter().next())
        .and_then(|(v,)| v);
    let keyspaces: Vec<KeyspaceRow> = rows(&session, q_ks, None).await?;
    let types: Vec<TypeRow> = rows(&session, q_types, None).await?;
    let tables: Vec<TableRow> = rows(&session, q_tables, None).await?;
    let scalar = match crate::table_options::read(&session).await {
        Ok(s) => s,
        Err(e) => {
            notes.push(format!(
                "table options besides TTL, gc_grace_seconds, compaction, compression and caching not read: {e}"
            ));
            Default::default()
        }
    };
    let columns: Vec<ColumnRow> = rows(&session, q_columns, None).await?;
    let indexes: Vec<IndexRow> = rows(&session, q_indexes, None).await?;
    let views: Vec<ViewRow> = match rows(&session, q_views, None).await {
        Ok(v) => v,
        Err(e) => {
            notes.push(format!("views not read: {e}"));
            Vec::new()
        }
    };
    let schema_cql = ddl(
        &keyspaces, &types, &tables, &scalar, &columns, &indexes, &views,
    );

    let mut nodes = Vec::new();
    let state = session.get_cluster_state();
    for node in state.get_nodes_info() {
        let address = node.address.ip().to_string();
        if let Some(dc) = &options.datacenter
            && node.datacenter.as_deref() != Some(dc.as_str())
        {
            notes.push(format!(
                "{address}: not read (datacenter {}, not --dc {dc})",
                node.datacenter.as_deref().unwrap_or("unknown")
            ));
            continue;
        }
        let tables = read_node(&session, node, &mut notes).await;
        nodes.push(NodeReading {
            address,
            datacenter: node.datacenter.clone(),
            tables,
        });
    }
    notes.push(format!(
        "node-local tables read on {} node(s), each query sent to that node alone",
        nodes.len()
    ));
    Ok(ClusterSnapshot {
        release_version,
        schema_cql,
        nodes,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node_tables::summed;

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
        ];
        let t = summed(&ranges);
        assert_eq!(
            t,
            vec![("iot".to_string(), "readings".to_string(), 400, 1750)]
        );
    }

    #[test]
    fn an_unreachable_cluster_fails_within_the_timeout() {
        let options = ClusterOptions {
            // Nothing listens on port 1.
            contact_points: vec!["127.0.0.1:1".to_string()],
            connect_timeout: Duration::from_secs(2),
            ..ClusterOptions::default()
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

    #[test]
    fn tls_failures_are_explained_in_the_flags_terms() {
        let verify = "Last connection failed with: error:0A000086:SSL routines:tls_post_process_server_certificate:certificate verify failed";
        let with_ca = ClusterOptions {
            ssl: true,
            ca_file: Some("ca.pem".into()),
            ..ClusterOptions::default()
        };
        assert!(connect_hint(verify, &with_ca).contains("--ca-file ca.pem"));
        let plain = ClusterOptions::default();
        let reset = "Failed to read the frame header: Connection reset by peer (os error 104)";
        assert!(connect_hint(reset, &plain).contains("--ssl"));
        assert_eq!(connect_hint("Connection refused", &plain), "");
    }

    #[test]
    fn a_refused_client_certificate_is_explained() {
        let alert = "Last connection failed with: error:0A00045C:SSL routines::tlsv13 alert certificate required";
        let none = ClusterOptions {
            ssl: true,
            ..ClusterOptions::default()
        };
        assert!(connect_hint(alert, &none).contains("--cert and --key"));
        let with = ClusterOptions {
            client_cert: Some("client.pem".into()),
            client_key: Some("client.key".into()),
            ..ClusterOptions::default()
        };
        assert!(connect_hint("SSL alert bad certificate", &with).contains("--cert client.pem"));
        // TLS 1.3: the refusal shows as a closed connection on the first request.
        let broken = "Failed to perform a connection setup request. Request: OPTIONS, reason: Connection broken";
        assert!(connect_hint(broken, &none).contains("--cert and --key"));
    }

    #[test]
    fn a_cert_without_its_key_is_refused_before_connecting() {
        let options = ClusterOptions {
            contact_points: vec!["127.0.0.1:1".to_string()],
            connect_timeout: Duration::from_secs(1),
            client_cert: Some("/nonexistent/client.pem".into()),
            ..ClusterOptions::default()
        };
        let message = read_cluster(&options)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(message.contains("--cert needs --key"), "{message}");
    }

    #[test]
    fn a_missing_ca_file_is_reported_before_connecting() {
        let options = ClusterOptions {
            contact_points: vec!["127.0.0.1:1".to_string()],
            connect_timeout: Duration::from_secs(1),
            ssl: true,
            ca_file: Some("/nonexistent/ca.pem".into()),
            ..ClusterOptions::default()
        };
        let message = read_cluster(&options)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(message.contains("/nonexistent/ca.pem"), "{message}");
        assert!(message.starts_with("TLS"), "{message}");
    }
}
