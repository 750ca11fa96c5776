-- A music store: artists, albums, tracks, customers, playlists and their
-- tracks, invoices (written for cqlmodel's tests).
CREATE TABLE artists (
    artist_id   serial PRIMARY KEY,
    name        text NOT NULL
);
CREATE UNIQUE INDEX artists_name_ci ON artists (lower(name));

CREATE TABLE albums (
    album_id    serial PRIMARY KEY,
    artist_id   integer NOT NULL REFERENCES artists (artist_id) ON DELETE CASCADE,
    title       text NOT NULL,
    released    date
);

CREATE TABLE tracks (
    track_id    serial PRIMARY KEY,
    album_id    integer NOT NULL REFERENCES albums (album_id) ON DELETE CASCADE,
    name        text NOT NULL,
    milliseconds integer NOT NULL,
    unit_price_cents integer NOT NULL
);

CREATE TABLE customers (
    customer_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email       text NOT NULL,
    first_name  text NOT NULL,
    last_name   text NOT NULL,
    country     text
);
CREATE UNIQUE INDEX customers_email_lower ON customers (lower(email));

CREATE TABLE playlists (
    playlist_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    owner_id    uuid NOT NULL REFERENCES customers (customer_id) ON DELETE CASCADE,
    name        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE playlist_tracks (
    playlist_id uuid NOT NULL REFERENCES playlists (playlist_id) ON DELETE CASCADE,
    track_id    integer NOT NULL REFERENCES tracks (track_id) ON DELETE CASCADE,
    added_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (playlist_id, track_id)
);

CREATE TABLE invoices (
    invoice_id  bigserial PRIMARY KEY,
    customer_id uuid NOT NULL REFERENCES customers (customer_id),
    total_cents integer NOT NULL,
    issued_at   timestamptz NOT NULL DEFAULT now()
);
