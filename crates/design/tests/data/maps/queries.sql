-- The map service's statements, as the application sends them.

-- @name sign_up @rate 1/s
INSERT INTO accounts (handle, email) VALUES ($1, $2);

-- @name create_map @rate 2/s
INSERT INTO maps (owner_id, title, description) VALUES ($1, $2, $3);

-- @name maps_of_owner @rate 100/s
SELECT map_id, title, is_public, updated_at FROM maps WHERE owner_id = $1 ORDER BY updated_at DESC;

-- @name public_maps @rate 50/s
SELECT map_id, title FROM maps WHERE is_public = true;

-- @name rename_map @rate 1/s
UPDATE maps SET title = $3, description = $4, revision = revision + 1 WHERE map_id = $1 AND revision = $2;

-- @name patch_map @rate 1/s
UPDATE maps SET title = coalesce($2, title), description = coalesce($3, description) WHERE map_id = $1;

-- @name layers_of_map @rate 300/s
SELECT layer_id, name, position, visible FROM layers WHERE map_id = $1 ORDER BY position;

-- @name add_layer @rate 2/s
INSERT INTO layers (map_id, name, position) VALUES ($1, $2, $3);

-- @name features_of_layer @rate 500/s
SELECT feature_id, geojson, label, style_id FROM features WHERE layer_id = $1;

-- @name draw @rate 30/s
INSERT INTO features (layer_id, geojson, label, style_id) VALUES ($1, $2, $3, $4);

-- @name star @rate 10/s
INSERT INTO stars (account_id, map_id) VALUES ($1, $2);

-- @name star_count @rate 200/s
SELECT count(*) FROM stars WHERE map_id = $1;

-- @name log_edit @rate 30/s
INSERT INTO edits (map_id, account_id, summary) VALUES ($1, $2, $3);

-- @name history @rate 20/s
SELECT edit_id, account_id, summary, edited_at FROM edits WHERE map_id = $1 ORDER BY edited_at DESC LIMIT 50;

-- @name delete_map @rate 1/min
DELETE FROM maps WHERE map_id = $1;
