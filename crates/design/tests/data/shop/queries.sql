-- The shop's statements, as the application sends them.

-- @name sign_up @rate 5/s
INSERT INTO customers (username, email, full_name, created_at) VALUES ($1, $2, $3, $4);

-- @name customer_by_email @rate 50/s
SELECT username, full_name FROM customers WHERE email = $1;

-- @name add_product @rate 1/min
INSERT INTO products (sku, title, price_cents, stock) VALUES ($1, $2, $3, $4)
    ON CONFLICT DO NOTHING;

-- @name reprice @rate 1/min
INSERT INTO products (sku, title, price_cents) VALUES ($1, $2, $3)
    ON CONFLICT (sku) DO UPDATE SET price_cents = excluded.price_cents;

-- @name product_page @rate 500/s
SELECT title, price_cents, stock, views FROM products WHERE sku = $1;

-- @name count_view @rate 500/s
UPDATE products SET views = views + 1 WHERE sku = $1;

-- @name take_stock @rate 20/s
UPDATE products SET stock = stock - $2 WHERE sku = $1;

-- @name restock @rate 1/min
UPDATE products SET stock = $2 WHERE sku = $1;

-- @name place_order @rate 20/s
INSERT INTO orders (order_id, username, status, total_cents, placed_at) VALUES ($1, $2, 'new', $3, $4);

-- @name orders_of_customer @rate 100/s @page 20
SELECT order_id, status, total_cents, placed_at FROM orders WHERE username = $1 ORDER BY placed_at DESC, order_id DESC LIMIT 20;

-- @name orders_of_customer_next @rate 30/s @page 20
SELECT order_id, status, total_cents, placed_at FROM orders
    WHERE username = $1 AND (placed_at, order_id) < ($2, $3)
    ORDER BY placed_at DESC, order_id DESC LIMIT 20;

-- @name change_order @rate 5/s
UPDATE orders SET status = $3, total_cents = $4, version = version + 1
    WHERE order_id = $1 AND version = $2;

-- @name enqueue_job @rate 10/s
INSERT INTO jobs (kind, payload) VALUES ($1, $2);

-- @name claim_job @rate 10/s
UPDATE jobs SET state = 'running', worker = $2 WHERE job_id = $1 AND state = 'queued';

-- @name record_event @rate 200/s
INSERT INTO events (username, happened_at, kind, detail) VALUES ($1, $2, $3, $4);

-- @name recent_events @rate 20/s @page 50
SELECT happened_at, kind, detail FROM events WHERE username = $1 ORDER BY happened_at DESC LIMIT 50;

-- @name expire_events @rate 1/day @path admin
DELETE FROM events WHERE happened_at < now() - interval '90 days';

-- @name cart_products @rate 20/s
SELECT sku, title, price_cents FROM products WHERE sku = ANY($1);

-- @name customer_spend @rate 20/s
SELECT count(*), sum(total_cents) FROM orders WHERE username = $1;
