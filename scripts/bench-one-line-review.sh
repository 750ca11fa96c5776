#!/usr/bin/env bash
# `cqlmodel review` of one-line schema files (issue 16), with the wall time,
# CPU time and peak memory of each run (`/usr/bin/time -v`):
#   - a keyspace, a table and 330,000 `SELECT`s on one 11.2 MB line (memory
#     target: well under 10x the input; it was 706 MB, 65x);
#   - the same 330,000 `SELECT`s as a `--queries` file (one line) against a
#     schema of that table: the queries keep their syntax trees (the rules
#     look at them), so this one grows with the input;
#   - 5,000 to 110,000 `CREATE TABLE`s on one line, each with a finding
#     (unbounded partition), for the time curve (linear) and the memory (the
#     findings are held; the report is written as it is rendered).
# Usage: scripts/bench-one-line-review.sh [TABLE COUNTS...]
#   CQLMODEL_BIN=path times a given build (default: the release build).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${CQLMODEL_BIN:-}" ]; then
    cargo build --release -q -p cqlmodel
fi
bin="${CQLMODEL_BIN:-$(pwd)/${CARGO_TARGET_DIR:-target}/release/cqlmodel}"
dir="$(mktemp -d "${TMPDIR:-/tmp}/cqlmodel-one-line.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(5000 10000 20000 40000 110385)
python3 - "$dir" "${counts[@]}" <<'PY'
import sys
d, counts = sys.argv[1], [int(n) for n in sys.argv[2:]]
ks = "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3}; "
with open(f"{d}/selects.cql", "w") as f:
    f.write(ks + "CREATE TABLE shop.t (k int, c int, v text, PRIMARY KEY (k, c)); ")
    f.write("".join(f"SELECT v FROM shop.t WHERE k = {i % 10}; " for i in range(330_000)) + "\n")
with open(f"{d}/schema.cql", "w") as f:
    f.write(ks + "CREATE TABLE shop.t (k int, c int, v text, PRIMARY KEY (k, c));\n")
with open(f"{d}/queries.cql", "w") as f:
    f.write("".join(f"SELECT v FROM shop.t WHERE k = {i % 10}; " for i in range(330_000)) + "\n")
for n in counts:
    with open(f"{d}/tables{n}.cql", "w") as f:
        f.write(ks + "".join(
            f"CREATE TABLE shop.t{i} (k int, c timestamp, v text, PRIMARY KEY (k, c)); "
            for i in range(n)) + "\n")
PY
measure() {
    local label="$1"; shift
    /usr/bin/time -v "$@" >/dev/null 2>"$dir/time" || true
    printf '%-28s %s wall, %s s user, %s KB peak\n' "$label" \
        "$(grep -F 'Elapsed (wall' "$dir/time" | awk '{print $NF}')" \
        "$(grep -F 'User time' "$dir/time" | awk '{print $NF}')" \
        "$(grep -F 'Maximum resident' "$dir/time" | awk '{print $NF}')"
}
echo "input: $(stat -c %s "$dir/selects.cql") bytes"
measure "330,000 SELECTs" "$bin" review "$dir/selects.cql"
measure "330,000 SELECTs, --queries" "$bin" review "$dir/schema.cql" --queries "$dir/queries.cql"
for n in "${counts[@]}"; do
    measure "$n CREATE TABLEs" "$bin" review "$dir/tables$n.cql"
done
