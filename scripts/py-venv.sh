#!/usr/bin/env bash
# Creates <repo>/.venv with the DataStax/Apache Python driver (cassandra-driver), which
# the cqlmodel-ring differential tests use as an independent reference for value
# serialization and Murmur3 tokens. Idempotent: does nothing if the driver and its
# murmur3 extension already import.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$repo/.venv"
python="${PYTHON:-python3}"

if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import cassandra; from cassandra.cmurmur3 import murmur3' 2>/dev/null; then
    echo "py-venv: $venv already has cassandra-driver $("$venv/bin/python" -c 'import cassandra; print(cassandra.__version__)')"
    exit 0
fi

has_murmur3() {
    "$venv/bin/python" -c 'import cassandra; from cassandra.cmurmur3 import murmur3' 2>/dev/null
}

"$python" -m venv "$venv"
# The driver's C extension cmurmur3 is what Murmur3Token.hash_fn uses (it raises
# NoMurmur3 without it). 3.29.x builds a cmurmur3 that fails to load here
# ("undefined symbol: rotl64" with a recent gcc); 3.30.1 works.
"$venv/bin/pip" install -q 'cassandra-driver==3.30.1'
if ! has_murmur3; then
    echo "py-venv: cassandra-driver installed but its murmur3 extension does not load" >&2
    exit 1
fi
"$venv/bin/python" -c 'import cassandra; print("py-venv: cassandra-driver", cassandra.__version__, "with murmur3")'
