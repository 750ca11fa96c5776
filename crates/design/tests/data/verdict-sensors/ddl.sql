-- A fleet of soil-moisture sensors on farms: each probe reports every 5
-- seconds, the agronomy app charts a probe's recent readings, and the field
-- team registers and re-flashes probes. Append-heavy, read by key: the fit
-- verdict's "fits" case. scripts/pg-fixtures.sh loads this and dumps it.

CREATE TABLE farms (
    farm_id     uuid PRIMARY KEY,
    name        text NOT NULL,
    region      text NOT NULL
);

CREATE TABLE probes (
    probe_id    text PRIMARY KEY,
    farm_id     uuid NOT NULL REFERENCES farms (farm_id),
    depth_cm    smallint NOT NULL,
    firmware    text NOT NULL,
    installed_at timestamptz NOT NULL
);

CREATE TABLE moisture_readings (
    probe_id    text NOT NULL REFERENCES probes (probe_id),
    read_at     timestamptz NOT NULL,
    moisture    real NOT NULL,
    soil_temp   real,
    battery_mv  integer NOT NULL,
    PRIMARY KEY (probe_id, read_at)
);
