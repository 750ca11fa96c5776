#!/usr/bin/env bash
# End-to-end throughput of `cqlmodel token --hex -`: N random 16-byte keys (hex,
# one per line) through the release binary, stdout to /dev/null.
# Usage: scripts/bench-token-stdin.sh [N]   (default 10,000,000)
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-10000000}"
input="${TMPDIR:-/tmp}/cqlmodel-keys-$n.hex"
if [ ! -s "$input" ]; then
    python3 - "$n" "$input" <<'PY'
import os, sys
n, path = int(sys.argv[1]), sys.argv[2]
with open(path + ".part", "w") as f:
    chunk = 100_000
    for start in range(0, n, chunk):
        k = min(chunk, n - start)
        raw = os.urandom(16 * k).hex()
        f.write("\n".join(raw[i:i + 32] for i in range(0, 32 * k, 32)))
        f.write("\n")
os.replace(path + ".part", path)
PY
fi
cargo build --release -q -p cqlmodel
bin="${CARGO_TARGET_DIR:-target}/release/cqlmodel"
best=""
for _ in 1 2 3; do
    start=$(date +%s.%N)
    "$bin" token --hex - < "$input" > /dev/null
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
done
printf 'token --hex -: %d keys in %.3f s (best of 3) = %.1f M keys/s\n' "$n" "$best" "$(echo "$n / $best / 1000000" | bc -l)"
