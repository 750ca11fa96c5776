-- The sensor platform's statements, with the rates seen at peak (harvest).

-- @name ingest_reading @rate 40000/s @cl LOCAL_ONE
INSERT INTO moisture_readings (probe_id, read_at, moisture, soil_temp, battery_mv)
    VALUES ($1, $2, $3, $4, $5);

-- @name probe_chart @rate 300/s @cl LOCAL_ONE
SELECT read_at, moisture, soil_temp FROM moisture_readings
    WHERE probe_id = $1 AND read_at >= $2 ORDER BY read_at DESC;

-- @name latest_reading @rate 900/s @cl LOCAL_ONE
SELECT read_at, moisture, battery_mv FROM moisture_readings
    WHERE probe_id = $1 ORDER BY read_at DESC LIMIT 1;

-- @name probe_details @rate 150/s @cl LOCAL_ONE
SELECT farm_id, depth_cm, firmware, installed_at FROM probes WHERE probe_id = $1;

-- @name probes_of_farm @rate 40/s @cl LOCAL_ONE
SELECT probe_id, depth_cm, firmware FROM probes WHERE farm_id = $1;

-- @name register_probe @rate 2/min
INSERT INTO probes (probe_id, farm_id, depth_cm, firmware, installed_at)
    VALUES ($1, $2, $3, $4, $5);

-- @name reflash_probe @rate 10/h
UPDATE probes SET firmware = $2 WHERE probe_id = $1;
