#!/usr/bin/env bash
# Captures real cqlsh DESCRIBE output from the Cassandra 5.0 node into
# crates/cli/tests/data/describe/5.0-cqlsh/ (the fixtures crates/cli/tests/describe_cqlsh.rs reads):
#   1. installs cqlsh from PyPI into target/cqlsh-venv (once);
#   2. starts the node in the `auth` configuration (PasswordAuthenticator, CassandraAuthorizer,
#      views and SASI enabled), so roles and grants can be made;
#   3. creates the keyspace `lending` (UDTs, a static column, a frozen UDT collection, a vector,
#      secondary, SAI and SASI indexes, a materialized view, a counter table, TWCS with a TTL),
#      a role with grants on it, and a login role;
#   4. writes `DESCRIBE KEYSPACE lending` and `DESCRIBE FULL SCHEMA`, each under a header naming
#      the server version, the cqlsh version and the command; stops the node.
# The node is shared: run it inside the lock (common rules), e.g.
#   flock /work/node.lock scripts/capture-describe.sh
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=crates/cli/tests/data/describe/5.0-cqlsh
VENV=target/cqlsh-venv
CQLSH_VERSION=6.2.2

if ! "$VENV/bin/cqlsh" --version >/dev/null 2>&1; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q "cqlsh==$CQLSH_VERSION"
fi

started=0
cleanup() { if ((started)); then scripts/cassandra.sh stop || true; fi; }
trap cleanup EXIT
scripts/cassandra.sh start auth
started=1

cqlsh() {
    "$VENV/bin/cqlsh" -u cassandra -p cassandra --request-timeout=60 127.0.0.1 9042 "$@"
}

cqlsh -e "DROP KEYSPACE IF EXISTS lending; DROP ROLE IF EXISTS lending_reader; DROP ROLE IF EXISTS lending_app;"
setup="$(mktemp)"
cat >"$setup" <<'CQL'
CREATE KEYSPACE lending WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 1};
CREATE TYPE lending.postal_address (street text, city text, zip text);
CREATE TYPE lending.contact (name text, phones frozen<set<text>>, address frozen<postal_address>);
CREATE TABLE lending.members (
    member_id uuid PRIMARY KEY,
    email text,
    display_name text,
    home frozen<postal_address>,
    contacts list<frozen<contact>>,
    joined_at timestamp,
    taste vector<float, 4>
) WITH comment = 'library members';
CREATE INDEX members_email ON lending.members (email);
CREATE CUSTOM INDEX members_taste ON lending.members (taste) USING 'StorageAttachedIndex'
    WITH OPTIONS = {'similarity_function': 'cosine'};
CREATE TABLE lending.loans_by_member (
    member_id uuid,
    loaned_at timestamp,
    book_id uuid,
    title text,
    due date,
    member_name text STATIC,
    PRIMARY KEY ((member_id), loaned_at, book_id)
) WITH CLUSTERING ORDER BY (loaned_at DESC, book_id ASC)
    AND compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'DAYS', 'compaction_window_size': 7}
    AND default_time_to_live = 31536000
    AND gc_grace_seconds = 86400;
CREATE CUSTOM INDEX loans_due ON lending.loans_by_member (due) USING 'StorageAttachedIndex';
CREATE CUSTOM INDEX loans_title ON lending.loans_by_member (title) USING 'org.apache.cassandra.index.sasi.SASIIndex'
    WITH OPTIONS = {'mode': 'CONTAINS'};
CREATE MATERIALIZED VIEW lending.loans_by_book AS
    SELECT book_id, member_id, loaned_at, due FROM lending.loans_by_member
    WHERE book_id IS NOT NULL AND member_id IS NOT NULL AND loaned_at IS NOT NULL
    PRIMARY KEY ((book_id), loaned_at, member_id)
    WITH CLUSTERING ORDER BY (loaned_at DESC, member_id ASC);
CREATE TABLE lending.book_counters (book_id uuid PRIMARY KEY, times_loaned counter, times_reserved counter);
CREATE ROLE lending_reader;
GRANT SELECT ON KEYSPACE lending TO lending_reader;
CREATE ROLE lending_app WITH PASSWORD = 'not-a-secret-test-only' AND LOGIN = true;
GRANT lending_reader TO lending_app;
GRANT MODIFY ON TABLE lending.loans_by_member TO lending_app;
CQL
cqlsh -f "$setup"
rm -f "$setup"

release="$(cqlsh -e "SELECT release_version FROM system.local" | grep -Eo '^ *[0-9]+\.[0-9]+\.[0-9]+' | tr -d ' ')"
cqlsh_version="$("$VENV/bin/cqlsh" --version)"
mkdir -p "$OUT"
capture() {
    local file="$1" command="$2"
    {
        echo "-- Captured by scripts/capture-describe.sh from a real node: Cassandra $release, $cqlsh_version"
        echo "-- Command: cqlsh -e \"$command\""
        echo "-- Roles made for this keyspace (DESCRIBE does not print roles or grants): lending_reader"
        echo "-- (GRANT SELECT ON KEYSPACE lending), lending_app (LOGIN, GRANT lending_reader, GRANT MODIFY"
        echo "-- ON TABLE lending.loans_by_member)."
        # cqlsh prints a client/server version notice on stdout before the output
        # ("WARNING: cqlsh was built against …"): not DESCRIBE's, so it goes in the header.
        cqlsh -e "$command" | sed 's/^WARNING: cqlsh was built against/-- cqlsh printed: WARNING: cqlsh was built against/'
    } >"$OUT/$file"
    echo "capture-describe.sh: $OUT/$file ($(wc -l <"$OUT/$file") lines)" >&2
}
capture describe-keyspace-lending.cql "DESCRIBE KEYSPACE lending"
capture describe-full-schema.cql "DESCRIBE FULL SCHEMA"
cqlsh -e "LIST ALL PERMISSIONS OF lending_app" >&2
