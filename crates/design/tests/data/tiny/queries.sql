-- @name orders_of_customer @rate 500/s @cl LOCAL_QUORUM @page 50
SELECT o.id, o.status, o.total, o.created_at, c.name
  FROM orders o JOIN customers c ON c.id = o.customer_id
 WHERE o.customer_id = $1
 ORDER BY o.created_at DESC;
-- @name order_by_id @rate 2000/s
SELECT * FROM orders WHERE id = $1;
-- @name revenue @path analytics
SELECT sum(total) FROM orders;
-- @name place_order @rate 100/s
INSERT INTO orders (id, customer_id, status, total, created_at) VALUES ($1, $2, $3, $4, $5);
-- @name rename_customer @rate 1/s
UPDATE customers SET name = $2 WHERE id = $1;
