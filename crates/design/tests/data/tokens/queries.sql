-- The token service's statements, as the application sends them.

-- @name issue @rate 500/s
INSERT INTO tokens (member_id, kind, expires_at, secret) VALUES ($1, $2, $3, $4) RETURNING token_id;

-- @name token @rate 2000/s
SELECT member_id, kind, secret FROM tokens WHERE token_id = $1;

-- @name token_ids_of_member @rate 10/s
SELECT token_id FROM tokens WHERE member_id = $1 ORDER BY token_id LIMIT 100;

-- @name tokens_of_member_by_expiry @rate 5/s
SELECT token_id, kind, expires_at FROM tokens WHERE member_id = $1 ORDER BY expires_at DESC LIMIT 20;

-- @name expiring_of_kind @rate 1/s
SELECT token_id, expires_at FROM tokens WHERE kind = $1 AND expires_at < $2 ORDER BY expires_at LIMIT 100;

-- @name revoke_all @rate 1/s
DELETE FROM tokens WHERE member_id = $1;
