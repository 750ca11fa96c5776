-- Every built-in type family, and a table without a primary key.
CREATE TYPE mood AS ENUM ('calm', 'busy');
CREATE TYPE address AS (street text, city text);
CREATE TABLE samples (
    sample_id bigserial PRIMARY KEY,
    small smallint, whole integer, big bigint,
    ratio real, exact numeric(12, 3), precise double precision,
    price money,
    flag boolean,
    code char(3), label varchar(40), note text, who name,
    raw bytea,
    day date, clock time, clock_tz timetz,
    stamp timestamp, stamp_tz timestamptz, wait interval, wait_hours interval hour,
    host inet, net cidr, mac macaddr, mac8 macaddr8,
    id uuid,
    doc json, docb jsonb, page xml, path jsonpath,
    bits bit(8), varbits bit varying(16),
    spot point, segment lseg, stretch line, area box, route path, shape polygon, ring circle,
    words tsvector, search tsquery,
    span int4range, bigspan int8range, money_range numrange, period tstzrange, local_period tsrange, days daterange,
    periods tstzmultirange,
    snapshot_id pg_lsn, txid txid_snapshot,
    state mood, home address,
    tags text[], grid integer[][],
    oid_col oid, reg regclass
);
CREATE TABLE page_views (
    viewed_at timestamptz NOT NULL,
    url text NOT NULL,
    referrer text
);
CREATE TABLE tag_links (
    sample_id bigint NOT NULL REFERENCES samples (sample_id),
    tag text NOT NULL,
    UNIQUE (sample_id, tag)
);
