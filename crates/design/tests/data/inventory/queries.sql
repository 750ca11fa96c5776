-- The order service's statements, as the application sends them.

-- @name add_product @rate 1/min
INSERT INTO products (sku, title, price_cents) VALUES ($1, $2, $3);

-- @name product_by_sku @rate 400/s
SELECT product_id, title, price_cents FROM products WHERE sku = $1;

-- @name edit_product @rate 1/s
UPDATE products SET title = coalesce($2, title), price_cents = coalesce($3, price_cents) WHERE product_id = $1;

-- @name stock_of_product @rate 300/s
SELECT warehouse_id, on_hand FROM stock WHERE product_id = $1;

-- @name reserve @rate 40/s
UPDATE stock SET on_hand = $3, version = version + 1 WHERE warehouse_id = $1 AND product_id = $2 AND version = $4;

-- @name place_order @rate 20/s
INSERT INTO orders (customer_ref, note) VALUES ($1, $2);

-- @name add_line @rate 60/s
INSERT INTO order_lines (order_id, line_no, product_id, quantity) VALUES ($1, $2, $3, $4);

-- @name lines_of_order @rate 100/s
SELECT line_no, product_id, quantity FROM order_lines WHERE order_id = $1 ORDER BY line_no;

-- @name orders_of_customer @rate 50/s
SELECT order_id, status, placed_at FROM orders WHERE customer_ref = $1 ORDER BY placed_at DESC;

-- @name mark_shipped @rate 20/s
UPDATE orders SET status = 'shipped' WHERE order_id = $1 AND status = 'new';

-- @name ship @rate 20/s
INSERT INTO shipments (order_id, warehouse_id, carrier, shipped_at) VALUES ($1, $2, $3, $4);

-- @name shipments_of_order @rate 30/s
SELECT shipment_id, carrier, shipped_at FROM shipments WHERE order_id = $1;

-- @name cancel_order @rate 1/s
DELETE FROM orders WHERE order_id = $1 AND status = 'new';
