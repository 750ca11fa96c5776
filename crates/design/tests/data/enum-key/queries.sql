-- name: orders_of_store_by_status
SELECT id, total_cents, created_at FROM orders WHERE store_id = $1 AND status = $2 ORDER BY created_at DESC LIMIT 20;
-- name: place_order
INSERT INTO orders (store_id, status, total_cents) VALUES ($1, 'new', $2);
