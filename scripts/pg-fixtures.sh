#!/bin/sh
# Regenerates the pg_dump fixtures of crates/design/tests/data/*/model.sql from
# the DDL next to them (ddl.sql), with Debian's PostgreSQL: a scratch cluster
# in a temporary directory, loaded with psql and dumped with
# `pg_dump --schema-only`; every statement of queries.sql is PREPAREd against
# it, so the fixtures' SQL is checked by PostgreSQL itself.
#
#   apt-get install -y postgresql postgresql-15-postgis-3 && scripts/pg-fixtures.sh
#
# (PostGIS for pg-postgis; every rerun also renews the random \restrict key
# pg_dump writes, so restore the dumps whose DDL did not change.)
#
# Given fixture names (`scripts/pg-fixtures.sh pg-app-billing`), only those
# are regenerated: the other dumps keep their \restrict key.
#
# Run as root it runs PostgreSQL as the `postgres` user. Debian offers only
# PostgreSQL 15 here, so every committed dump is a PostgreSQL 15 pg_dump.
#
# Per fixture directory: ddl.sql (loaded), queries.sql (PREPAREd; `?` and
# `:name` placeholders are numbered `$n` for PostgreSQL first), tail.sql
# (appended to the dump as is: what a Rails/Django structure.sql adds after
# pg_dump's output). A directory without ddl.sql holds a hand-written dump
# (for extensions Debian does not package) and is left alone.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
scratch=$(mktemp -d)
chmod 777 "$scratch"
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
as_pg "$bin/initdb -D $scratch/data -A trust -U postgres >/dev/null"
as_pg "$bin/pg_ctl -D $scratch/data -o '-k $scratch -c listen_addresses=' -l $scratch/log -w start >/dev/null"
trap 'as_pg "$bin/pg_ctl -D $scratch/data -m fast stop >/dev/null"; rm -rf "$scratch"' EXIT
if [ $# -gt 0 ]; then
    dirs=$(for n in "$@"; do echo "$root/crates/design/tests/data/$n/"; done)
else
    dirs=$(ls -d "$root"/crates/design/tests/data/*/)
fi
for dir in $dirs; do
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
def numbered(st):
    names, out = [], []
    # Strings kept as they are; `?`, `:name` and `%(name)s` become `$n`.
    for part in re.split(r"('(?:[^']|'')*')", st):
        if part.startswith("'"):
            out.append(part)
            continue
        def repl(m):
            name = m.group(1) or m.group(2)
            if name is None:
                names.append(None)
                return f"${len(names)}"
            if name not in names:
                names.append(name)
            return f"${names.index(name) + 1}"
        out.append(re.sub(r"(?<!:):([A-Za-z_]\w*)|%\((\w+)\)s|%s\b|\?", repl, part))
    return "".join(out)
# Transaction control cannot be PREPAREd (the query list's BEGIN … COMMIT
# groups only say which writes go together): left out.
control = re.compile(r"(?i)(begin|commit|end|rollback|abort|start\s+transaction)\b")
for i, st in enumerate(s.strip() for s in body.split(";")):
    if st and not control.match(st):
        print(f"PREPARE q{i} AS {numbered(st)};")
PY
        as_pg "$bin/psql -q -v ON_ERROR_STOP=1 -h $scratch -U postgres -d fx_$name -f $scratch/prepare_$name.sql" >/dev/null
    fi
    as_pg "$bin/pg_dump --schema-only -h $scratch -U postgres fx_$name" > "$dir/model.sql"
    if [ -f "$dir/tail.sql" ]; then cat "$dir/tail.sql" >> "$dir/model.sql"; fi
    echo "$name: $(grep -c 'CREATE TABLE' "$dir/model.sql") tables dumped with $($bin/pg_dump --version)"
done
