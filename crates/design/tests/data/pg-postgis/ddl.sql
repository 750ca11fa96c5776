-- A store locator: shops with a PostGIS location, found by distance.
CREATE EXTENSION postgis;
CREATE TABLE shops (
    shop_id bigint PRIMARY KEY,
    city text NOT NULL,
    name text NOT NULL,
    location geometry(Point, 4326) NOT NULL,
    delivery_area geography(Polygon, 4326)
);
CREATE INDEX shops_location_idx ON shops USING gist (location);
