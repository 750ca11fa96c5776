import com.datastax.spark.connector.cql.CassandraConnector
import scala.jdk.CollectionConverters._

// Sets up iot.temp_by_device (old) with rows of their own write times and TTLs, and
// iot.temp_by_device_day (new) with one dual-written newer value; after the job, checks
// that the new table holds every old row under its day, with the same value and write time.
object DayBucketHarness {
  val Base = 1767225600000L // 2026-01-01T00:00:00Z
  def setup(c: CassandraConnector): Unit = c.withSessionDo { s =>
    s.execute("DROP KEYSPACE IF EXISTS iot")
    s.execute("CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
    s.execute("CREATE TABLE iot.temp_by_device (device_id text, ts timestamp, temp double, PRIMARY KEY (device_id, ts)) WITH CLUSTERING ORDER BY (ts DESC)")
    s.execute("CREATE TABLE iot.temp_by_device_day (device_id text, day date, ts timestamp, temp double, PRIMARY KEY ((device_id, day), ts)) WITH CLUSTERING ORDER BY (ts DESC)")
    for (i <- 0 until 200) {
      // Readings spread over 4 days; every second one with a TTL.
      val ts = Base + i * 1800000L
      val ttl = if (i % 2 == 0) " AND TTL 86400" else ""
      s.execute(s"INSERT INTO iot.temp_by_device (device_id, ts, temp) VALUES ('dev-${i % 7}', $ts, $i) USING TIMESTAMP ${1000 + i}$ttl")
    }
    // A dual-written update of an old row, newer than the backfill's copy of it.
    for (t <- Seq("temp_by_device", "temp_by_device_day")) {
      val day = if (t.endsWith("_day")) ", day" else ""
      val dayValue = if (t.endsWith("_day")) ", '2026-01-01'" else ""
      s.execute(s"INSERT INTO iot.$t (device_id$day, ts, temp) VALUES ('dev-0'$dayValue, $Base, -1) USING TIMESTAMP 5000")
    }
  }
  def rows(c: CassandraConnector, cql: String): Set[String] = c.withSessionDo { s =>
    s.execute(cql).all().asScala.map { r =>
      val ts = r.getInstant("ts")
      val day = java.time.LocalDate.ofInstant(ts, java.time.ZoneOffset.UTC)
      s"${r.getString("device_id")} $day $ts ${r.getDouble("temp")} wt=${r.getLong(3)} ttl=${!r.isNull(4)}"
    }.toSet
  }
  def check(c: CassandraConnector): Unit = {
    val old = rows(c, "SELECT device_id, ts, temp, writetime(temp), ttl(temp) FROM iot.temp_by_device")
    val niu = rows(c, "SELECT device_id, ts, temp, writetime(temp), ttl(temp) FROM iot.temp_by_device_day")
    val days = c.withSessionDo(_.execute("SELECT DISTINCT device_id, day FROM iot.temp_by_device_day").all().size)
    println(s"spark backfill: old rows ${old.size}, new rows ${niu.size}, partitions (device, day) $days")
    println(s"spark backfill: new rows with a write time of now: ${niu.count(r => r.split("wt=")(1).takeWhile(_ != ' ').toLong > 1000000000L)}; with a TTL: ${niu.count(_.endsWith("ttl=true"))} (old: ${old.count(_.endsWith("ttl=true"))})")
    if (old != niu) {
      println("only in old: " + (old -- niu).take(5)); println("only in new: " + (niu -- old).take(5))
      sys.exit(1)
    }
    if (!niu.exists(r => r.startsWith("dev-0 2026-01-01 2026-01-01T00:00:00Z -1.0 wt=5000"))) { println("the newer dual write was undone"); sys.exit(1) }
    println("spark backfill: the new table equals the old one (values, write times, TTL presence); the newer dual write survived")
  }
}
