#!/bin/sh
# Regenerates the pg_dump fixtures of crates/design/tests/data/*/model.sql from
# the DDL next to them (ddl.sql), with Debian's PostgreSQL: a scratch cluster
# in a temporary directory, loaded with psql and dumped with
# `pg_dump --schema-only`; every statement of queries.sql is PREPAREd against
# it, so the fixtures' SQL is checked by PostgreSQL itself.
#
#   apt-get install -y postgresql && scripts/pg-fixtures.sh
#
# Run as root it runs PostgreSQL as the `postgres` user.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
scratch=$(mktemp -d)
chmod 777 "$scratch"
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
as_pg "$bin/initdb -D $scratch/data -A trust -U postgres >/dev/null"
as_pg "$bin/pg_ctl -D $scratch/data -o '-k $scratch -c listen_addresses=' -l $scratch/log -w start >/dev/null"
trap 'as_pg "$bin/pg_ctl -D $scratch/data -m fast stop >/dev/null"; rm -rf "$scratch"' EXIT
for dir in "$root"/crates/design/tests/data/*/; do
    [ -f "$dir/ddl.sql" ] || continue
    name=$(basename "$dir")
    as_pg "$bin/createdb -h $scratch -U postgres fx_$name"
    as_pg "$bin/psql -q -v ON_ERROR_STOP=1 -h $scratch -U postgres -d fx_$name -f $dir/ddl.sql" >/dev/null
    if [ -f "$dir/queries.sql" ]; then
        # Each statement PREPAREd: PostgreSQL checks its tables, columns and types.
        python3 - "$dir/queries.sql" > "$scratch/prepare_$name.sql" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
body = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("--"))
for i, st in enumerate(s.strip() for s in body.split(";")):
    if st:
        print(f"PREPARE q{i} AS {st};")
PY
        as_pg "$bin/psql -q -v ON_ERROR_STOP=1 -h $scratch -U postgres -d fx_$name -f $scratch/prepare_$name.sql" >/dev/null
    fi
    as_pg "$bin/pg_dump --schema-only -h $scratch -U postgres fx_$name" > "$dir/model.sql"
    echo "$name: $(grep -c 'CREATE TABLE' "$dir/model.sql") tables dumped with $($bin/pg_dump --version)"
done
