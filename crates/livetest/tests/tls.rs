//! `--ssl --ca-file` against the node started with `scripts/cassandra.sh start tls`
//! (client_encryption_options enabled, optional false; the node's certificate is signed
//! by the CA in `$CQLMODEL_TEST_TLS_DIR/ca.pem`). With the right CA the cluster is read;
//! with a CA that signed nothing (`other-ca.pem`), or without TLS, the read fails with a
//! message that says why. Without `CQLMODEL_TEST_TLS_DIR` the tests say so and stop.
//! The `mtls_` tests run against `start mtls` (`require_client_auth: true`,
//! `CQLMODEL_TEST_MTLS=1`): `--cert/--key` signed by the CA connect; no client
//! certificate, or one signed by another CA, fails with a message naming `--cert`.

use std::path::PathBuf;

use cqlmodel_cli::cluster_args::ClusterArgs;
use cqlmodel_cluster::read_cluster;

const TLS_VAR: &str = "CQLMODEL_TEST_TLS_DIR";

fn tls_dir() -> Option<PathBuf> {
    match std::env::var(TLS_VAR) {
        Ok(dir) => Some(PathBuf::from(dir)),
        Err(_) => {
            eprintln!("{TLS_VAR} is not set: no TLS node to test against; stopping");
            None
        }
    }
}

fn args(ca: Option<PathBuf>, ssl: bool) -> ClusterArgs {
    ClusterArgs {
        cluster: vec![
            std::env::var(cqlmodel_livetest::CONTACT_VAR)
                .unwrap_or_else(|_| "127.0.0.1:9042".into()),
        ],
        ssl,
        ca_file: ca,
        connect_timeout: 10,
        ..ClusterArgs::default()
    }
}

#[test]
#[ignore = "needs the TLS node: scripts/test-cassandra.sh"]
fn tls_with_the_signing_ca_reads_the_cluster() {
    let Some(dir) = tls_dir() else { return };
    let snapshot = read_cluster(&args(Some(dir.join("ca.pem")), true).options())
        .unwrap_or_else(|e| panic!("TLS with the right CA: {e}"));
    assert!(snapshot.release_version.is_some(), "{snapshot:?}");
    assert_eq!(snapshot.nodes.len(), 1);
}

#[test]
#[ignore = "needs the TLS node: scripts/test-cassandra.sh"]
fn tls_with_a_wrong_ca_fails_clearly() {
    let Some(dir) = tls_dir() else { return };
    let error = read_cluster(&args(Some(dir.join("other-ca.pem")), true).options())
        .expect_err("a CA that did not sign the node's certificate");
    let message = error.to_string();
    eprintln!("{message}");
    assert!(
        message.contains("certificate") && message.contains("--ca-file"),
        "the message names the certificate check and the flag: {message}"
    );
}

#[test]
#[ignore = "needs the TLS node: scripts/test-cassandra.sh"]
fn tls_required_by_the_node_and_not_asked_for_fails_clearly() {
    if tls_dir().is_none() {
        return;
    }
    let error = read_cluster(&args(None, false).options()).expect_err("plain text to a TLS port");
    let message = error.to_string();
    eprintln!("{message}");
    assert!(
        message.contains("--ssl"),
        "the message suggests --ssl: {message}"
    );
}

/// The node of `scripts/cassandra.sh start mtls` (`require_client_auth: true`), when
/// `CQLMODEL_TEST_MTLS=1` says the node at the contact point is that one.
fn mtls_dir() -> Option<PathBuf> {
    if std::env::var("CQLMODEL_TEST_MTLS").is_err() {
        eprintln!("CQLMODEL_TEST_MTLS is not set: no node requiring client certificates; stopping");
        return None;
    }
    tls_dir()
}

fn with_client(dir: &std::path::Path, who: &str) -> ClusterArgs {
    ClusterArgs {
        cert: Some(dir.join(format!("{who}.pem"))),
        key: Some(dir.join(format!("{who}.key"))),
        ..args(Some(dir.join("ca.pem")), true)
    }
}

#[test]
#[ignore = "needs the mtls node: scripts/test-cassandra.sh"]
fn mtls_with_a_client_certificate_reads_the_cluster() {
    let Some(dir) = mtls_dir() else { return };
    let snapshot = read_cluster(&with_client(&dir, "client").options())
        .unwrap_or_else(|e| panic!("a client certificate the node's CA signed: {e}"));
    assert!(snapshot.release_version.is_some(), "{snapshot:?}");
    assert_eq!(snapshot.nodes.len(), 1);
}

#[test]
#[ignore = "needs the mtls node: scripts/test-cassandra.sh"]
fn mtls_without_a_client_certificate_fails_clearly() {
    let Some(dir) = mtls_dir() else { return };
    let error = read_cluster(&args(Some(dir.join("ca.pem")), true).options())
        .expect_err("no client certificate for a node that requires one");
    let message = error.to_string();
    eprintln!("{message}");
    assert!(
        message.contains("client certificate") && message.contains("--cert"),
        "the message names the missing client certificate and the flag: {message}"
    );
}

#[test]
#[ignore = "needs the mtls node: scripts/test-cassandra.sh"]
fn mtls_with_a_certificate_the_node_does_not_trust_fails_clearly() {
    let Some(dir) = mtls_dir() else { return };
    let error = read_cluster(&with_client(&dir, "other-client").options())
        .expect_err("a client certificate signed by a CA the node does not trust");
    let message = error.to_string();
    eprintln!("{message}");
    assert!(
        message.contains("other-client.pem"),
        "the message names the refused certificate: {message}"
    );
}
