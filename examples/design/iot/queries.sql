-- The IoT temperature-monitoring application's statements, as it runs them on
-- PostgreSQL today. The comment line right above each statement annotates it:
-- its name in the design report, its rate (executions per second, or per min,
-- h, day), the consistency level it needs on Cassandra and, for a query that
-- pages through its result, the page size.

-- Q1: a device's temperature curve over the last 24 hours, newest first.
-- $2 is now() - 24 h (the span in stats.toml).
-- @name last_24h_of_device @rate 200/s @cl LOCAL_ONE @page 1000
SELECT ts, temp
  FROM public.readings
 WHERE device_id = $1
   AND ts > $2
 ORDER BY ts DESC;

-- Q2: a device's raw reading at one instant.
-- @name reading_at @rate 50/s @cl LOCAL_ONE
SELECT temp, humidity, battery_pct
  FROM public.readings
 WHERE device_id = $1
   AND ts = $2;

-- Q3: the devices that went over the plant-wide threshold today, hottest first.
-- Low frequency: a dashboard refreshed every minute, seconds of latency accepted.
-- @name devices_over_threshold_today @rate 1/min @cl LOCAL_ONE
SELECT r.device_id, d.site_id, max(r.temp) AS max_temp
  FROM public.readings r
  JOIN public.devices d ON d.device_id = r.device_id
 WHERE r.ts >= $1
   AND r.temp > $2
 GROUP BY r.device_id, d.site_id
 ORDER BY max_temp DESC;

-- A device's details, shown next to its curve.
-- @name device_by_id @rate 200/s @cl LOCAL_ONE
SELECT d.device_id, d.model, d.firmware_version, d.installed_at, s.name AS site_name, s.timezone
  FROM public.devices d
  JOIN public.sites s ON s.site_id = d.site_id
 WHERE d.device_id = $1;

-- The devices of a site, for the site overview page.
-- @name devices_of_site @rate 5/s @cl LOCAL_ONE @page 500
SELECT device_id, model, installed_at
  FROM public.devices
 WHERE site_id = $1
 ORDER BY device_id;

-- Mutations -----------------------------------------------------------------

-- Every device reports once a second.
-- @name ingest_reading @rate 10000/s @cl LOCAL_ONE
INSERT INTO public.readings (device_id, ts, temp, humidity, battery_pct)
VALUES ($1, $2, $3, $4, $5);

-- @name register_device @rate 10/h @cl LOCAL_QUORUM
INSERT INTO public.devices (device_id, site_id, model, firmware_version, installed_at)
VALUES ($1, $2, $3, $4, $5);

-- @name update_firmware @rate 1/min @cl LOCAL_QUORUM
UPDATE public.devices
   SET firmware_version = $2
 WHERE device_id = $1;

-- @name decommission_device @rate 1/h @cl LOCAL_QUORUM
DELETE FROM public.devices
 WHERE device_id = $1;

-- @name add_site @rate 1/day @cl LOCAL_QUORUM
INSERT INTO public.sites (site_id, name, timezone)
VALUES ($1, $2, $3);
