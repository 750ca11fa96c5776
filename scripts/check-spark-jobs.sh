#!/usr/bin/env bash
# Compiles every Spark Cassandra Connector backfill job `cqlmodel migrate` writes for the
# schema pairs of crates/migrate/tests/data/ (backfill/<table>.spark.scala), with scalac
# against Spark 3.5 (Scala 2.13) and the connector, so a job that would not compile in
# spark-shell fails here.
#
#   scripts/check-spark-jobs.sh
#
# Each job is a spark-shell script (top-level statements using `sc`); it is compiled inside
# `object JobN { def main(...) = { val sc = new SparkContext(...); <the job> } }`, which is
# how the shell wraps it too. The jars (about 245 MB: scala-compiler 2.13, spark-core and
# spark-sql 3.5, spark-cassandra-connector 3.5.1; scripts/spark-jobs/pom.xml) are
# downloaded once with Maven into target/spark-jobs/lib.
#
# Environment: CQLMODEL_SPARK_HOME (default target/spark-jobs).
# Exit codes: 0 every job compiles, 1 a job does not, 2 a tool or download failed.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
HOME_DIR="${CQLMODEL_SPARK_HOME:-$ROOT/target/spark-jobs}"
LIB_DIR="$HOME_DIR/lib"
PAIRS="$ROOT/crates/migrate/tests/data"

die() {
    echo "check-spark-jobs.sh: $*" >&2
    exit 2
}

command -v java >/dev/null 2>&1 || die "java not found (Java 17)"
if ! compgen -G "$LIB_DIR/spark-cassandra-connector_2.13-*.jar" >/dev/null; then
    command -v mvn >/dev/null 2>&1 || die "mvn not found: install Maven to download the Scala and Spark jars"
    echo "check-spark-jobs.sh: downloading scala-compiler, Spark and the connector into $LIB_DIR" >&2
    mvn -q -B -f "$ROOT/scripts/spark-jobs/pom.xml" dependency:copy-dependencies \
        -DoutputDirectory="$LIB_DIR" >&2 || die "mvn dependency:copy-dependencies failed"
fi

(cd "$ROOT" && cargo build -q -p cqlmodel) || die "cargo build -p cqlmodel failed"
CQLMODEL="$ROOT/target/debug/cqlmodel"

WORK="$HOME_DIR/work"
rm -rf "$WORK"
mkdir -p "$WORK/plans" "$WORK/src" "$WORK/classes"

# Every pair that plans (exit 0 or 1), with its queries, stats and renames as the tests use them.
for case_dir in "$PAIRS"/*/; do
    case_name="$(basename "$case_dir")"
    [ -f "$case_dir/old.cql" ] && [ -f "$case_dir/new.cql" ] || continue
    args=()
    [ -f "$case_dir/queries.cql" ] && args+=(--queries "$case_dir/queries.cql")
    [ -f "$case_dir/stats.toml" ] && args+=(--stats "$case_dir/stats.toml")
    if [ -f "$case_dir/renames.txt" ]; then
        while read -r rename; do
            [ -n "$rename" ] && args+=(--rename "$rename")
        done <"$case_dir/renames.txt"
    fi
    code=0
    "$CQLMODEL" migrate "$case_dir/old.cql" "$case_dir/new.cql" "${args[@]}" \
        --out "$WORK/plans/$case_name" >/dev/null 2>&1 || code=$?
    [ "$code" -le 1 ] || echo "check-spark-jobs.sh: $case_name does not plan (exit $code): skipped" >&2
done

jobs=0
while IFS= read -r job; do
    jobs=$((jobs + 1))
    {
        echo "// ${job#"$WORK/plans/"}"
        echo "object Job$jobs {"
        echo "  def main(args: Array[String]): Unit = {"
        echo "    val sc = new org.apache.spark.SparkContext(new org.apache.spark.SparkConf())"
        sed 's/^/    /' "$job"
        echo "  }"
        echo "}"
    } >"$WORK/src/Job$jobs.scala"
done < <(find "$WORK/plans" -name '*.spark.scala' | sort)
[ "$jobs" -gt 0 ] || die "no backfill/*.spark.scala was written"

echo "check-spark-jobs.sh: compiling $jobs Spark jobs with scalac 2.13" >&2
start=$(date +%s)
if ! java -cp "$LIB_DIR/*" scala.tools.nsc.Main -usejavacp -deprecation -d "$WORK/classes" "$WORK/src"/*.scala; then
    echo "check-spark-jobs.sh: a Spark job does not compile (sources: $WORK/src)" >&2
    exit 1
fi
echo "spark jobs: $jobs compiled in $(($(date +%s) - start)) s"
