#!/usr/bin/env bash
# The large inputs of issue 16 through the release binary, as a user runs them:
# `cqlmodel explain SCHEMA --queries FILE`, text and JSON, with the wall time,
# the CPU time and the peak memory of each run (`/usr/bin/time -v`). The inputs
# are the shapes of `cargo bench -p cqlmodel --bench large`:
#   - 100,000 annotated queries against 1,000 tables (target < 2 s);
#   - 330,000 annotated queries against one table, for the memory: the
#     statements are explained and dropped one at a time, so the peak should
#     stay near the input's size, not grow with the syntax trees;
#   - a single line of statements of 5, 10 and 20 MB (linear: each doubling
#     should double the time; the memory should stay near the input's size).
# Usage: scripts/bench-large-cli.sh        (inputs under $TMPDIR, removed after)
#   CQLMODEL_BIN=path times a given build (default: the release build).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${CQLMODEL_BIN:-}" ]; then
    cargo build --release -q -p cqlmodel
fi
bin="${CQLMODEL_BIN:-$(pwd)/${CARGO_TARGET_DIR:-target}/release/cqlmodel}"
dir="$(mktemp -d "${TMPDIR:-/tmp}/cqlmodel-large.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" <<'PY'
import sys
d = sys.argv[1]
with open(f"{d}/schema.cql", "w") as f:
    f.write("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n")
    for i in range(1000):
        f.write(f"CREATE TABLE ks.t{i} (k int, c int, v text, PRIMARY KEY (k, c));\n")
with open(f"{d}/many.cql", "w") as f:
    for i in range(100_000):
        f.write(f"-- @name q{i}\nSELECT * FROM ks.t{i % 1000} WHERE k = ? AND c > ?;\n")
with open(f"{d}/many330k.cql", "w") as f:
    for i in range(330_000):
        f.write(f"-- @name q{i}\nSELECT v FROM ks.t1 WHERE k = {i % 10};\n")
stmt = "SELECT * FROM ks.t1 WHERE k = 1 AND c = 2; "
for mb in (5, 10, 20):
    n = -(-mb * 1_000_000 // len(stmt))
    with open(f"{d}/line{mb}.cql", "w") as f:
        f.write(stmt * n)
PY
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
run() {
    local label="$1"
    shift
    /usr/bin/time -v "$@" > "$dir/out" 2> "$dir/time" || true
    local wall user sys rss
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time")
    user=$(sed -n 's/.*User time (seconds): //p' "$dir/time")
    sys=$(sed -n 's/.*System time (seconds): //p' "$dir/time")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time")
    printf '%-40s wall %8s  user %6s s  sys %5s s  peak %6d MB  output %d bytes\n' \
        "$label" "$wall" "$user" "$sys" "$((rss / 1024))" "$(stat -c %s "$dir/out")"
}
run "100k queries x 1k tables, text" "$bin" explain "$dir/schema.cql" --queries "$dir/many.cql"
run "100k queries x 1k tables, json" "$bin" explain "$dir/schema.cql" --queries "$dir/many.cql" --format json
run "330k queries x 1 table, text" "$bin" explain "$dir/schema.cql" --queries "$dir/many330k.cql"
run "330k queries x 1 table, json" "$bin" explain "$dir/schema.cql" --queries "$dir/many330k.cql" --format json
for mb in 5 10 20; do
    run "${mb} MB single line, text" "$bin" explain "$dir/schema.cql" --queries "$dir/line$mb.cql"
    run "${mb} MB single line, json" "$bin" explain "$dir/schema.cql" --queries "$dir/line$mb.cql" --format json
done
