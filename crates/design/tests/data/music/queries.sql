-- The music store's statements, as the application sends them.

-- @name add_artist @rate 1/min
INSERT INTO artists (name) VALUES ($1);

-- @name albums_of_artist @rate 200/s
SELECT album_id, title, released FROM albums WHERE artist_id = $1 ORDER BY released DESC;

-- @name tracks_of_album @rate 400/s
SELECT track_id, name, milliseconds, unit_price_cents FROM tracks WHERE album_id = $1;

-- @name sign_up @rate 1/s
INSERT INTO customers (email, first_name, last_name, country) VALUES ($1, $2, $3, $4);

-- @name customer_by_email @rate 20/s
SELECT customer_id, first_name, last_name FROM customers WHERE email = $1;

-- @name update_customer @rate 1/s
UPDATE customers SET first_name = coalesce($2, first_name), last_name = coalesce($3, last_name), country = coalesce($4, country) WHERE customer_id = $1;

-- @name create_playlist @rate 2/s
INSERT INTO playlists (owner_id, name) VALUES ($1, $2);

-- @name playlists_of_owner @rate 100/s
SELECT playlist_id, name, created_at FROM playlists WHERE owner_id = $1 ORDER BY created_at DESC;

-- @name add_to_playlist @rate 20/s
INSERT INTO playlist_tracks (playlist_id, track_id) VALUES ($1, $2);

-- @name playlist_size @rate 300/s
SELECT count(*) FROM playlist_tracks WHERE playlist_id = $1;

-- @name remove_from_playlist @rate 5/s
DELETE FROM playlist_tracks WHERE playlist_id = $1 AND track_id = $2;

-- @name invoice @rate 5/s
INSERT INTO invoices (customer_id, total_cents) VALUES ($1, $2);

-- @name invoices_of_customer @rate 10/s
SELECT invoice_id, total_cents, issued_at FROM invoices WHERE customer_id = $1 ORDER BY issued_at DESC;

-- @name delete_playlist @rate 1/min
DELETE FROM playlists WHERE playlist_id = $1;
