#!/usr/bin/env bash
# One real Apache Cassandra 5.0 node on 127.0.0.1 for the node-backed tests (crates/livetest).
#
#   scripts/cassandra.sh fetch                 download cassandra-all 5.0.x + dependencies (Maven)
#   scripts/cassandra.sh start [default|mv|auth|tls|mtls|multidc]  start the node (idempotent) and wait for CQL
#   scripts/cassandra.sh stop                  stop it (idempotent)
#   scripts/cassandra.sh status                say whether it runs, with which configuration
#   scripts/cassandra.sh nodetool ARGS...      run nodetool against the node (JMX 127.0.0.1:7199)
#   scripts/cassandra.sh contact               print host:port for CQLMODEL_TEST_CONTACT
#   scripts/cassandra.sh tls-dir               make (once) and print the TLS material's directory
#   scripts/cassandra.sh log                   print the tail of the node's system log
#
# Configurations: `default` is a stock single node (materialized views and SASI disabled, as
# Cassandra 4.0+ ships), so whatever a default cluster refuses shows up in the tests; `mv` turns on
# `materialized_views_enabled` and `sasi_indexes_enabled` for the checks that need them; `auth`
# turns on PasswordAuthenticator and CassandraAuthorizer (superuser cassandra/cassandra, created
# at startup without the usual 10 s delay) for the read-only-role check of diagnose; `tls` requires
# TLS on the native port (client_encryption_options enabled, optional false) with a node
# certificate signed by a test CA, all made by keytool under target/cassandra/tls/ (ca.pem is
# the CA clients trust; other-ca.pem is a CA that signed nothing, for the wrong-CA check); `mtls`
# is `tls` with `require_client_auth: true` and a truststore holding the test CA, so a client must
# offer a certificate the CA signed (client.pem with its unencrypted key client.key; other-client.pem
# and other-client.key are signed by the other CA, for the refused-certificate check). Each
# keeps its own data under target/cassandra/<config>/ so switching never mixes schemas.
# `multidc` is two nodes in two datacenters on this machine (GossipingPropertyFileSnitch): dc1 on
# 127.0.0.1 (JMX 7199) and dc2 on 127.0.0.2 (JMX 7299; a loopback alias, which Linux routes without
# setup), 768 MiB of heap each unless CQLMODEL_CASSANDRA_HEAP says otherwise; `stop` stops both, and
# `CQLMODEL_NODE_JMX=7299 scripts/cassandra.sh nodetool …` talks to the second.
#
# Environment: CQLMODEL_CASSANDRA_HOME (default target/cassandra), CQLMODEL_CASSANDRA_HEAP
# (default 1G), CQLMODEL_CASSANDRA_START_TIMEOUT seconds (default 240).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
HOME_DIR="${CQLMODEL_CASSANDRA_HOME:-$ROOT/target/cassandra}"
LIB_DIR="$HOME_DIR/lib"
RUN_DIR="$HOME_DIR/run"
TLS_DIR="$HOME_DIR/tls"
# The test keystores' password: test material for 127.0.0.1 only, not a secret.
TLS_PASS=cqlmodel-test
# The second node of `multidc` is this script run again with these set (see start_second).
PID_FILE="$RUN_DIR/${CQLMODEL_NODE_PID:-cassandra.pid}"
SECOND_PID_FILE="$RUN_DIR/cassandra2.pid"
CONFIG_FILE="$RUN_DIR/config"
HEAP="${CQLMODEL_CASSANDRA_HEAP:-1G}"
START_TIMEOUT="${CQLMODEL_CASSANDRA_START_TIMEOUT:-240}"
NATIVE_PORT=9042
STORAGE_PORT=7000
JMX_PORT="${CQLMODEL_NODE_JMX:-7199}"
HOST="${CQLMODEL_NODE_HOST:-127.0.0.1}"
SEED_HOST=127.0.0.1
DATACENTER="${CQLMODEL_NODE_DC:-dc1}"

die() {
    echo "cassandra.sh: $*" >&2
    exit 2
}

need_java() {
    command -v java >/dev/null 2>&1 || die "java not found: install a Java 17 runtime (Cassandra 5.0 runs on Java 11 or 17)"
}

fetch() {
    if compgen -G "$LIB_DIR/cassandra-all-5.0.*.jar" >/dev/null; then
        return 0
    fi
    command -v mvn >/dev/null 2>&1 || die "mvn not found: install Maven to download cassandra-all (tests/cassandra/pom.xml)"
    echo "cassandra.sh: downloading cassandra-all and its dependencies into $LIB_DIR" >&2
    mkdir -p "$LIB_DIR"
    mvn -q -B -f "$ROOT/tests/cassandra/pom.xml" dependency:copy-dependencies \
        -DincludeScope=runtime -DoutputDirectory="$LIB_DIR" >&2 ||
        die "mvn dependency:copy-dependencies failed (see above)"
}

running_pid() {
    [[ -f "$PID_FILE" ]] || return 1
    local pid
    pid="$(cat "$PID_FILE")"
    [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
    echo "$pid"
}

port_open() {
    (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null
}

# cassandra.yaml: only what differs from Cassandra's built-in defaults or is required
# (partitioner, snitch, seeds, commit log sync, directories). Small memtables and caches because
# the tests share a 2-core machine; no authentication (but in `auth`); one token range split in
# 16 vnodes.
write_yaml() {
    local config="$1" dir="$2" views=false
    local authenticator=AllowAllAuthenticator authorizer=AllowAllAuthorizer snitch=SimpleSnitch
    if [[ "$config" == multidc ]]; then
        snitch=GossipingPropertyFileSnitch
        printf 'dc=%s\nrack=rack1\n' "$DATACENTER" >"$dir/conf/cassandra-rackdc.properties"
    fi
    # auth too: the DESCRIBE capture (scripts/capture-describe.sh) needs roles, grants and views at once.
    [[ "$config" == mv || "$config" == auth ]] && views=true
    if [[ "$config" == auth ]]; then
        authenticator=PasswordAuthenticator
        authorizer=CassandraAuthorizer
    fi
    cat >"$dir/conf/cassandra.yaml" <<EOF
cluster_name: cqlmodel-test
num_tokens: 16
allocate_tokens_for_local_replication_factor: 1
partitioner: org.apache.cassandra.dht.Murmur3Partitioner
endpoint_snitch: $snitch
seed_provider:
  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
    parameters:
      - seeds: "$SEED_HOST:$STORAGE_PORT"
listen_address: $HOST
rpc_address: $HOST
storage_port: $STORAGE_PORT
native_transport_port: $NATIVE_PORT
start_native_transport: true
authenticator: $authenticator
authorizer: $authorizer
role_manager: CassandraRoleManager
data_file_directories:
  - $dir/data
commitlog_directory: $dir/commitlog
saved_caches_directory: $dir/saved_caches
hints_directory: $dir/hints
cdc_raw_directory: $dir/cdc_raw
commitlog_sync: periodic
commitlog_sync_period: 10000ms
commitlog_segment_size: 8MiB
memtable_heap_space: 64MiB
memtable_offheap_space: 64MiB
key_cache_size: 8MiB
counter_cache_size: 2MiB
concurrent_reads: 8
concurrent_writes: 8
concurrent_counter_writes: 8
concurrent_compactors: 1
auto_snapshot: false
materialized_views_enabled: $views
sasi_indexes_enabled: $views
EOF
    if [[ "$config" == tls || "$config" == mtls ]]; then
        local client_auth=false
        [[ "$config" == mtls ]] && client_auth=true
        cat >>"$dir/conf/cassandra.yaml" <<EOF
client_encryption_options:
  enabled: true
  optional: false
  keystore: $TLS_DIR/keystore.p12
  keystore_password: $TLS_PASS
  truststore: $TLS_DIR/truststore.p12
  truststore_password: $TLS_PASS
  store_type: PKCS12
  require_client_auth: $client_auth
EOF
    fi
}

# The TLS material of the `tls` configuration, made once by keytool: a CA, the node's key and
# certificate (CN and SAN 127.0.0.1) signed by it in a PKCS12 keystore, the CA's certificate
# as PEM for clients, and a second CA that signed nothing.
make_tls() {
    [[ -f "$TLS_DIR/keystore.p12" && -f "$TLS_DIR/ca.pem" && -f "$TLS_DIR/other-ca.pem" &&
        -f "$TLS_DIR/truststore.p12" && -f "$TLS_DIR/client.pem" && -f "$TLS_DIR/other-client.pem" ]] && return 0
    command -v openssl >/dev/null 2>&1 || die "openssl not found (it makes the client keys of the mtls configuration)"
    command -v keytool >/dev/null 2>&1 || die "keytool not found (it comes with the Java runtime)"
    rm -rf "$TLS_DIR" && mkdir -p "$TLS_DIR"
    local kt=(keytool -storetype PKCS12 -storepass "$TLS_PASS" -keypass "$TLS_PASS")
    local key=(-keyalg RSA -keysize 2048 -validity 3650)
    "${kt[@]}" -genkeypair -alias ca "${key[@]}" -dname "CN=cqlmodel test CA" -ext bc:c \
        -keystore "$TLS_DIR/ca.p12" >/dev/null 2>&1 || die "keytool: cannot make the test CA"
    "${kt[@]}" -exportcert -rfc -alias ca -keystore "$TLS_DIR/ca.p12" -file "$TLS_DIR/ca.pem" >/dev/null 2>&1
    "${kt[@]}" -genkeypair -alias node "${key[@]}" -dname "CN=127.0.0.1" \
        -keystore "$TLS_DIR/keystore.p12" >/dev/null 2>&1 || die "keytool: cannot make the node key"
    "${kt[@]}" -certreq -alias node -keystore "$TLS_DIR/keystore.p12" -file "$TLS_DIR/node.csr" >/dev/null 2>&1
    "${kt[@]}" -gencert -alias ca -keystore "$TLS_DIR/ca.p12" -infile "$TLS_DIR/node.csr" \
        -outfile "$TLS_DIR/node.pem" -rfc -validity 3650 -ext "san=ip:127.0.0.1,dns:localhost" \
        -ext ku:c=digitalSignature,keyEncipherment -ext eku=serverAuth >/dev/null 2>&1 ||
        die "keytool: cannot sign the node certificate"
    "${kt[@]}" -importcert -noprompt -alias ca -file "$TLS_DIR/ca.pem" \
        -keystore "$TLS_DIR/keystore.p12" >/dev/null 2>&1
    "${kt[@]}" -importcert -noprompt -alias node -file "$TLS_DIR/node.pem" \
        -keystore "$TLS_DIR/keystore.p12" >/dev/null 2>&1 || die "keytool: cannot import the node certificate"
    "${kt[@]}" -genkeypair -alias other "${key[@]}" -dname "CN=cqlmodel other CA" -ext bc:c \
        -keystore "$TLS_DIR/other-ca.p12" >/dev/null 2>&1
    "${kt[@]}" -exportcert -rfc -alias other -keystore "$TLS_DIR/other-ca.p12" \
        -file "$TLS_DIR/other-ca.pem" >/dev/null 2>&1 || die "keytool: cannot make the second CA"
    # The node's truststore (mtls): the test CA, so it accepts client certificates the CA signed.
    "${kt[@]}" -importcert -noprompt -alias ca -file "$TLS_DIR/ca.pem" \
        -keystore "$TLS_DIR/truststore.p12" >/dev/null 2>&1 || die "keytool: cannot make the truststore"
    # Client keys (PEM, unencrypted) by openssl; their certificates signed by keytool, by the
    # test CA (client.pem) and by the other CA (other-client.pem, which the node must refuse).
    local who ca_store ca_alias
    for who in client other-client; do
        ca_store="$TLS_DIR/ca.p12" ca_alias=ca
        [[ "$who" == other-client ]] && ca_store="$TLS_DIR/other-ca.p12" ca_alias=other
        openssl req -newkey rsa:2048 -nodes -keyout "$TLS_DIR/$who.key" -subj "/CN=cqlmodel-$who" \
            -out "$TLS_DIR/$who.csr" >/dev/null 2>&1 || die "openssl: cannot make the $who key"
        "${kt[@]}" -gencert -alias "$ca_alias" -keystore "$ca_store" -infile "$TLS_DIR/$who.csr" \
            -outfile "$TLS_DIR/$who.pem" -rfc -validity 3650 -ext eku=clientAuth >/dev/null 2>&1 ||
            die "keytool: cannot sign the $who certificate"
    done
    echo "cassandra.sh: TLS material in $TLS_DIR" >&2
}

write_logback() {
    local dir="$1"
    cat >"$dir/conf/logback.xml" <<EOF
<configuration scan="false">
  <appender name="FILE" class="ch.qos.logback.core.FileAppender">
    <file>$dir/logs/system.log</file>
    <encoder><pattern>%-5level [%thread] %date{ISO8601} %F:%L - %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="FILE"/></root>
</configuration>
EOF
}

# The JVM flags of Cassandra's conf/jvm-server.options and conf/jvm17-server.options (module
# exports/opens the server needs on Java 17, G1) plus what cassandra-env.sh adds (local JMX port),
# with a small heap.
jvm_flags() {
    local dir="$1"
    local flags=(
        -Xms"$HEAP" -Xmx"$HEAP" -Xss256k -ea -da:net.openhft...
        -XX:+UseThreadPriorities -XX:+HeapDumpOnOutOfMemoryError -XX:HeapDumpPath="$dir/logs"
        -XX:+CrashOnOutOfMemoryError -XX:+UseTLAB -XX:+ResizeTLAB -XX:+PerfDisableSharedMem
        -XX:+UseG1GC -XX:+ParallelRefProcEnabled -XX:MaxTenuringThreshold=1
        -XX:G1RSetUpdatingPauseTimePercent=5 -XX:MaxGCPauseMillis=300
        -Djava.net.preferIPv4Stack=true -Djdk.attach.allowAttachSelf=true
        -Dio.netty.tryReflectionSetAccessible=true
        -Dio.netty.allocator.useCacheForAllThreads=true -Dio.netty.allocator.maxOrder=11
    )
    local export
    for export in java.base/jdk.internal.misc java.management.rmi/com.sun.jmx.remote.internal.rmi \
        java.rmi/sun.rmi.registry java.rmi/sun.rmi.server java.sql/java.sql java.base/java.lang.ref \
        jdk.unsupported/sun.misc jdk.compiler/com.sun.tools.javac.file jdk.attach/sun.tools.attach; do
        flags+=(--add-exports "$export=ALL-UNNAMED")
    done
    local open
    for open in java.base/java.lang.module java.base/jdk.internal.loader java.base/jdk.internal.ref \
        java.base/jdk.internal.reflect java.base/jdk.internal.math java.base/jdk.internal.module \
        java.base/jdk.internal.util.jar jdk.management/com.sun.management.internal \
        java.base/sun.nio.ch java.base/java.io java.base/java.lang.reflect \
        jdk.compiler/com.sun.tools.javac java.base/java.lang java.base/java.util; do
        flags+=(--add-opens "$open=ALL-UNNAMED")
    done
    flags+=(
        -Dcassandra.config="file://$dir/conf/cassandra.yaml"
        -Dlogback.configurationFile="file://$dir/conf/logback.xml"
        -Dcassandra.logdir="$dir/logs" -Dcassandra.storagedir="$dir"
        -Dcassandra.jmx.local.port="$JMX_PORT"
        -Dcassandra-rackdc.properties="file://$dir/conf/cassandra-rackdc.properties"
        -Dcassandra.ring_delay_ms="${CQLMODEL_RING_DELAY_MS:-30000}"
        -Dcassandra.skip_wait_for_gossip_to_settle=0
        -Dcassandra.superuser_setup_delay_ms=0
        -Dcassandra-foreground=yes
    )
    printf '%s\n' "${flags[@]}"
}

wait_ready() {
    local pid="$1" dir="$2" waited=0
    while ! port_open "$NATIVE_PORT"; do
        if ! kill -0 "$pid" 2>/dev/null; then
            tail -n 40 "$dir/logs/system.log" "$dir/logs/stdout.log" >&2 2>/dev/null || true
            rm -f "$PID_FILE"
            die "the node exited during startup (logs: $dir/logs/)"
        fi
        if ((waited >= START_TIMEOUT)); then
            tail -n 40 "$dir/logs/system.log" >&2 2>/dev/null || true
            die "no CQL on $HOST:$NATIVE_PORT after ${START_TIMEOUT}s (node still running as pid $pid; logs: $dir/logs/)"
        fi
        sleep 2
        waited=$((waited + 2))
    done
    echo "cassandra.sh: node ($(cat "$CONFIG_FILE") configuration) ready on $HOST:$NATIVE_PORT after ${waited}s" >&2
}

start() {
    local config="${1:-default}"
    [[ "$config" =~ ^(default|mv|auth|tls|mtls|multidc)$ ]] ||
        die "unknown configuration '$config' (default, mv, auth, tls, mtls or multidc)"
    local pid
    if pid="$(running_pid)"; then
        if [[ "$(cat "$CONFIG_FILE" 2>/dev/null)" == "$config" ]]; then
            echo "cassandra.sh: already running ($config, pid $pid)" >&2
            return 0
        fi
        echo "cassandra.sh: running with configuration $(cat "$CONFIG_FILE"); restarting with $config" >&2
        stop
    fi
    need_java
    fetch
    port_open "$NATIVE_PORT" && die "port $NATIVE_PORT is taken by another process: stop it or point CQLMODEL_TEST_CONTACT at it"
    local dir="$HOME_DIR/$config${CQLMODEL_NODE_SUFFIX:-}"
    if [[ "$config" == multidc ]]; then
        HEAP="${CQLMODEL_CASSANDRA_HEAP:-768M}"
        export CQLMODEL_RING_DELAY_MS=5000
    fi
    if [[ "$config" == tls || "$config" == mtls ]]; then make_tls; fi
    mkdir -p "$dir"/{conf,data,commitlog,saved_caches,hints,cdc_raw,logs} "$RUN_DIR"
    write_yaml "$config" "$dir"
    write_logback "$dir"
    local flags
    mapfile -t flags < <(jvm_flags "$dir")
    # setsid: the node outlives this script and is stopped by its own pid, never by name.
    setsid java "${flags[@]}" -cp "$LIB_DIR/*" org.apache.cassandra.service.CassandraDaemon \
        >"$dir/logs/stdout.log" 2>&1 </dev/null &
    echo $! >"$PID_FILE"
    echo "$config" >"$CONFIG_FILE"
    wait_ready "$!" "$dir"
    if [[ "$config" == multidc && -z "${CQLMODEL_NODE_PID:-}" ]]; then start_second; fi
}

# The dc2 node of `multidc`: this script again, on 127.0.0.2 with its own JMX port, pid file and data.
start_second() {
    CQLMODEL_NODE_HOST=127.0.0.2 CQLMODEL_NODE_JMX=7299 CQLMODEL_NODE_PID=cassandra2.pid \
        CQLMODEL_NODE_DC=dc2 CQLMODEL_NODE_SUFFIX=-node2 "$0" start multidc
}

stop() {
    local pid waited=0
    if [[ -z "${CQLMODEL_NODE_PID:-}" && -f "$SECOND_PID_FILE" ]]; then
        CQLMODEL_NODE_PID=cassandra2.pid CQLMODEL_NODE_HOST=127.0.0.2 "$0" stop
    fi
    if ! pid="$(running_pid)"; then
        rm -f "$PID_FILE"
        echo "cassandra.sh: not running" >&2
        return 0
    fi
    kill "$pid"
    while kill -0 "$pid" 2>/dev/null; do
        if ((waited >= 60)); then
            echo "cassandra.sh: pid $pid ignored SIGTERM for 60s; sending SIGKILL" >&2
            kill -9 "$pid" 2>/dev/null || true
        fi
        sleep 1
        waited=$((waited + 1))
    done
    rm -f "$PID_FILE"
    echo "cassandra.sh: stopped (pid $pid)" >&2
}

status() {
    local pid
    if pid="$(running_pid)"; then
        local state="starting"
        port_open "$NATIVE_PORT" && state="ready on $HOST:$NATIVE_PORT"
        echo "running ($(cat "$CONFIG_FILE") configuration, pid $pid, $state)"
    else
        echo "not running"
        return 1
    fi
}

# The client flags of Cassandra's conf/jvm17-clients.options: nodetool touches the same internals.
client_flags() {
    local flags=(-Xmx256m -Djdk.attach.allowAttachSelf=true)
    local export
    for export in java.base/jdk.internal.misc java.base/jdk.internal.ref java.base/sun.nio.ch \
        java.management.rmi/com.sun.jmx.remote.internal.rmi java.rmi/sun.rmi.registry \
        java.rmi/sun.rmi.server java.sql/java.sql jdk.unsupported/sun.misc \
        jdk.compiler/com.sun.tools.javac.file jdk.attach/sun.tools.attach; do
        flags+=(--add-exports "$export=ALL-UNNAMED")
    done
    local open
    for open in java.base/java.lang.module java.base/jdk.internal.loader java.base/jdk.internal.ref \
        java.base/jdk.internal.reflect java.base/jdk.internal.math java.base/jdk.internal.module \
        java.base/jdk.internal.util.jar jdk.management/com.sun.management.internal \
        java.base/sun.nio.ch java.base/java.io java.base/java.util.concurrent java.base/java.util \
        java.base/java.util.concurrent.atomic java.base/java.lang java.base/java.math \
        jdk.compiler/com.sun.tools.javac java.base/java.lang.reflect java.base/java.net; do
        flags+=(--add-opens "$open=ALL-UNNAMED")
    done
    printf '%s\n' "${flags[@]}"
}

nodetool() {
    need_java
    fetch
    local flags
    mapfile -t flags < <(client_flags)
    mkdir -p "$HOME_DIR/nodetool-home"
    # Tools log warnings to stderr only, so that stdout is exactly nodetool's output.
    cat >"$HOME_DIR/nodetool-home/logback-tools.xml" <<'XML'
<configuration scan="false">
  <appender name="STDERR" class="ch.qos.logback.core.ConsoleAppender">
    <target>System.err</target>
    <encoder><pattern>%-5level %msg%n</pattern></encoder>
  </appender>
  <root level="WARN"><appender-ref ref="STDERR"/></root>
</configuration>
XML
    # user.home: nodetool appends its command history under ~/.cassandra; keep it under target/.
    java "${flags[@]}" -Duser.home="$HOME_DIR/nodetool-home" \
        -Dlogback.configurationFile="file://$HOME_DIR/nodetool-home/logback-tools.xml" \
        -cp "$LIB_DIR/*" org.apache.cassandra.tools.NodeTool -h "$HOST" -p "$JMX_PORT" "$@"
}

case "${1:-}" in
fetch) fetch ;;
start) start "${2:-default}" ;;
stop) stop ;;
status) status ;;
nodetool) shift && nodetool "$@" ;;
contact) echo "$HOST:$NATIVE_PORT" ;;
tls-dir) make_tls && echo "$TLS_DIR" ;;
log) tail -n "${2:-60}" "$HOME_DIR/$(cat "$CONFIG_FILE" 2>/dev/null || echo default)/logs/system.log" ;;
*) die "usage: scripts/cassandra.sh fetch|start [default|mv|auth|tls|mtls|multidc]|stop|status|nodetool ARGS...|contact|log [N]" ;;
esac
