#!/usr/bin/env bash
# The node-backed tests (crates/livetest) against a real Cassandra 5.0 node:
#   1. fetch cassandra-all from Maven Central if target/cassandra/lib is empty;
#   2. start one node in the default configuration, run every node test, stop it;
#   3. start it with materialized views enabled, run the view tests, stop it;
#   4. start it with authentication (`auth`), run the read-only-role test, stop it;
#   5. start it with TLS required (`tls`), run the --ssl/--ca-file tests, stop it;
#   6. start it requiring client certificates (`mtls`), run the --cert/--key tests, stop it;
#   7. start two nodes in two datacenters (`multidc`), run the --dc / per-node / top_partitions
#      test, stop both.
#
# With CQLMODEL_TEST_CONTACT=host:port already set, the tests run against that node instead
# (an existing Cassandra or ScyllaDB) and nothing is started; set CQLMODEL_TEST_NODETOOL to a
# nodetool command for the size test, and CQLMODEL_TEST_MV=1 if the node has views enabled.
set -euo pipefail
cd "$(dirname "$0")/.."

started=0
cleanup() {
    if ((started)); then
        scripts/cassandra.sh stop || true
    fi
}
trap cleanup EXIT

run_tests() {
    INSTA_UPDATE=no cargo test -p cqlmodel-livetest --locked -- --ignored --nocapture "$@"
}

SECONDS=0
# Compile first, so the node does not wait on the compiler for CPU.
cargo test -p cqlmodel-livetest --locked --no-run

if [[ -n "${CQLMODEL_TEST_CONTACT:-}" ]]; then
    echo "test-cassandra.sh: using the node at $CQLMODEL_TEST_CONTACT" >&2
    run_tests
    echo "test-cassandra.sh: done in ${SECONDS}s" >&2
    exit 0
fi

command -v java >/dev/null 2>&1 || { echo "test-cassandra.sh: java not found (Cassandra 5.0 needs Java 11 or 17)" >&2; exit 2; }
scripts/cassandra.sh fetch

export CQLMODEL_TEST_CONTACT
CQLMODEL_TEST_CONTACT="$(scripts/cassandra.sh contact)"
export CQLMODEL_TEST_NODETOOL="$PWD/scripts/cassandra.sh nodetool"

started=1
scripts/cassandra.sh start default
run_tests
scripts/cassandra.sh stop

scripts/cassandra.sh start mv
CQLMODEL_TEST_MV=1 run_tests view migrate_plans
scripts/cassandra.sh stop

scripts/cassandra.sh start auth
CQLMODEL_TEST_AUTH=cassandra:cassandra run_tests read_only
scripts/cassandra.sh stop

scripts/cassandra.sh start tls
CQLMODEL_TEST_TLS_DIR="$(scripts/cassandra.sh tls-dir)" run_tests tls_
scripts/cassandra.sh stop

scripts/cassandra.sh start mtls
CQLMODEL_TEST_MTLS=1 CQLMODEL_TEST_TLS_DIR="$(scripts/cassandra.sh tls-dir)" run_tests mtls_
scripts/cassandra.sh stop

scripts/cassandra.sh start multidc
CQLMODEL_TEST_MULTIDC=1 run_tests multidc_
scripts/cassandra.sh stop
started=0
echo "test-cassandra.sh: done in ${SECONDS}s" >&2
