#!/usr/bin/env bash
# Compiles every Spark Cassandra Connector backfill job `cqlmodel migrate` writes for the
# schema pairs of crates/migrate/tests/data/ (backfill/<table>.spark.scala), with scalac
# against Spark 3.5 (Scala 2.13) and the connector, so a job that would not compile in
# spark-shell fails here.
#
#   scripts/check-spark-jobs.sh          compile every job
#   scripts/check-spark-jobs.sh --run    also run day_bucket's job in Spark local mode against
#                                        the node on 127.0.0.1:9042 (start it inside the node
#                                        lock first, see scripts/cassandra.sh): the harness
#                                        scripts/spark-jobs/DayBucketHarness.scala creates
#                                        keyspace iot (dropped first) with 200 old rows and one
#                                        newer dual write, the job backfills, and the new table
#                                        must equal the old one (values, write times, TTLs)
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

RUN=false
[ "${1:-}" = "--run" ] && RUN=true

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

$RUN || exit 0

# day_bucket's job inside a main that sets up the data, runs the job body, and checks.
JOB="$WORK/plans/day_bucket/backfill/iot.temp_by_device.spark.scala"
[ -f "$JOB" ] || die "no day_bucket job at $JOB"
RUN_DIR="$WORK/run"
mkdir -p "$RUN_DIR/classes"
{
    echo "object RunDayBucketJob {"
    echo "  def main(args: Array[String]): Unit = {"
    echo '    val conf = new org.apache.spark.SparkConf().setMaster("local[2]").setAppName("cqlmodel-backfill")'
    echo '      .set("spark.cassandra.connection.host", "127.0.0.1").set("spark.ui.enabled", "false")'
    echo '      .set("spark.cassandra.output.consistency.level", "ONE").set("spark.cassandra.input.consistency.level", "ONE")'
    echo "    val sc = new org.apache.spark.SparkContext(conf)"
    echo "    val connector = com.datastax.spark.connector.cql.CassandraConnector(conf)"
    echo "    DayBucketHarness.setup(connector)"
    echo "    locally {"
    sed 's/^/      /' "$JOB"
    echo "    }"
    echo "    DayBucketHarness.check(connector)"
    echo "    sc.stop()"
    echo "  }"
    echo "}"
} >"$RUN_DIR/RunDayBucketJob.scala"
java -cp "$LIB_DIR/*" scala.tools.nsc.Main -usejavacp -d "$RUN_DIR/classes" \
    "$ROOT/scripts/spark-jobs/DayBucketHarness.scala" "$RUN_DIR/RunDayBucketJob.scala" ||
    die "the run harness does not compile"
# Spark 3.5 on Java 17 needs these packages opened (what spark-submit adds itself).
OPENS=()
for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util \
    java.util.concurrent java.util.concurrent.atomic sun.nio.ch sun.nio.cs sun.security.action \
    sun.util.calendar; do
    OPENS+=("--add-opens=java.base/$p=ALL-UNNAMED")
done
start=$(date +%s)
# The harness's old rows have write times 1000-1199 and the dual write 5000.
if DUAL_WRITE_START_MICROS=2000 java -Xmx768m "${OPENS[@]}" \
    -cp "$RUN_DIR/classes:$LIB_DIR/*" RunDayBucketJob 2>"$RUN_DIR/spark.log"; then
    echo "spark run: day_bucket backfilled and equal in $(($(date +%s) - start)) s"
else
    echo "check-spark-jobs.sh: the day_bucket job's result differs from the old table (Spark's log: $RUN_DIR/spark.log)" >&2
    exit 1
fi
