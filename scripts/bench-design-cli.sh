#!/usr/bin/env bash
# `cqlmodel design` on the bench inputs through the release binary, with the
# wall time, CPU time and peak memory of each run (`/usr/bin/time -v`). The
# inputs are those of the criterion benches, generated here the same way
# (crates/cli/benches/inputs/): a pg_dump of N tables with one read per table
# (target for 10,000: < 10 s) and the synthetic 200-table, 1,000-statement
# application (target < 2 s on one core).
# Usage: scripts/bench-design-cli.sh [N ...]   (default 10000; several sizes
# give the linearity table; inputs and outputs under $TMPDIR, removed after)
# CQLMODEL_BIN=path skips the release build and times that binary (e.g. the
# `profiling` build); BENCH_CPU=0 pins every run to that core (`taskset`).
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-10000}")
if [ -n "${CQLMODEL_BIN:-}" ]; then
    bin="$CQLMODEL_BIN"
else
    cargo build --release -q -p cqlmodel
    bin="$(pwd)/${CARGO_TARGET_DIR:-target}/release/cqlmodel"
fi
pin=()
if [ -n "${BENCH_CPU:-}" ]; then
    pin=(taskset -c "$BENCH_CPU")
fi
dir="$(mktemp -d "${TMPDIR:-/tmp}/cqlmodel-design.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" "${sizes[@]}" <<'PY'
import sys
d = sys.argv[1]
for n in map(int, sys.argv[2:]):
  with open(f"{d}/dump-{n}.sql", "w") as f:
      f.write("SET statement_timeout = 0;\nSET client_encoding = 'UTF8';\n"
              "SELECT pg_catalog.set_config('search_path', '', false);\n")
      for i in range(n):
          f.write(f"CREATE TABLE public.t{i} (\n    id bigint NOT NULL,\n    parent_id bigint,\n"
                  f"    name character varying(80) NOT NULL,\n"
                  f"    created_at timestamp with time zone DEFAULT now() NOT NULL,\n"
                  f"    price numeric(10,2),\n    tags text[]\n);\n"
                  f"ALTER TABLE public.t{i} OWNER TO app;\n"
                  f"COMMENT ON TABLE public.t{i} IS 'table {i}';\n"
                  f"CREATE SEQUENCE public.t{i}_id_seq\n    START WITH 1\n    INCREMENT BY 1\n"
                  f"    NO MINVALUE\n    NO MAXVALUE\n    CACHE 1;\n"
                  f"ALTER SEQUENCE public.t{i}_id_seq OWNED BY public.t{i}.id;\n"
                  f"ALTER TABLE ONLY public.t{i} ALTER COLUMN id SET DEFAULT nextval('public.t{i}_id_seq'::regclass);\n")
      for i in range(n):
          f.write(f"ALTER TABLE ONLY public.t{i}\n    ADD CONSTRAINT t{i}_pkey PRIMARY KEY (id);\n"
                  f"CREATE INDEX t{i}_name_idx ON public.t{i} USING btree (name);\n")
      for i in range(1, n):
          f.write(f"ALTER TABLE ONLY public.t{i}\n    ADD CONSTRAINT t{i}_parent_fkey FOREIGN KEY (parent_id) REFERENCES public.t{i - 1}(id);\n")
  with open(f"{d}/dump-queries-{n}.sql", "w") as f:
      for i in range(n):
          f.write(f"-- @name q{i} @rate 10/s\nSELECT id, name, created_at FROM t{i} WHERE parent_id = $1;\n")
with open(f"{d}/app.sql", "w") as m, open(f"{d}/app-queries.sql", "w") as q:
    for i in range(200):
        parent = i - 1 if i % 5 != 0 else None
        fk = "" if parent is None else f",\n    parent_id bigint NOT NULL REFERENCES t{parent} (id)"
        m.write(f"CREATE TABLE t{i} (\n    id bigint PRIMARY KEY,\n    code text NOT NULL UNIQUE,\n"
                f"    name text,\n    version integer NOT NULL,\n    hits bigint NOT NULL,\n"
                f"    created_at timestamptz NOT NULL{fk}\n);\n")
        q.write(f"-- @name get_{i} @rate 100/s\nSELECT code, name, hits FROM t{i} WHERE id = $1;\n")
        if parent is not None:
            q.write(f"-- @name list_{i} @rate 50/s @page 20\nSELECT id, name, created_at FROM t{i} WHERE parent_id = $1 ORDER BY created_at DESC LIMIT 20;\n")
            cols, vals = "id, code, name, version, hits, created_at, parent_id", "$1, $2, $3, 1, 0, $4, $5"
        else:
            q.write(f"-- @name by_code_{i} @rate 50/s\nSELECT id, name FROM t{i} WHERE code = $1;\n")
            cols, vals = "id, code, name, version, hits, created_at", "$1, $2, $3, 1, 0, $4"
        q.write(f"-- @name add_{i} @rate 10/s\nINSERT INTO t{i} ({cols}) VALUES ({vals});\n"
                f"-- @name rename_{i} @rate 5/s\nUPDATE t{i} SET name = $3, version = version + 1 WHERE id = $1 AND version = $2;\n"
                f"-- @name hit_{i} @rate 200/s\nUPDATE t{i} SET hits = hits + 1 WHERE id = $1;\n")
PY
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
run() {
    local label="$1"
    shift
    local rc=0
    /usr/bin/time -v "${pin[@]}" "$@" > "$dir/out" 2> "$dir/time" || rc=$?
    local wall user sys rss
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time")
    user=$(sed -n 's/.*User time (seconds): //p' "$dir/time")
    sys=$(sed -n 's/.*System time (seconds): //p' "$dir/time")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time")
    printf '%-44s exit %d  wall %8s  user %6s s  sys %5s s  peak %5d MB\n' \
        "$label" "$rc" "$wall" "$user" "$sys" "$((rss / 1024))"
    head -1 "$dir/out"
}
run "design 200-table application" "$bin" design "$dir/app.sql" --queries "$dir/app-queries.sql" --out "$dir/app-out"
for n in "${sizes[@]}"; do
    run "design $n-table pg_dump" "$bin" design "$dir/dump-$n.sql" --queries "$dir/dump-queries-$n.sql" --out "$dir/dump-out-$n"
    rm -rf "$dir/dump-out-$n"
done
