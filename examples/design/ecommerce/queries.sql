-- The shop's statements, as it runs them on PostgreSQL today. The comment line
-- right above each statement annotates it: its name in the design report, its
-- rate (executions per second, or per min, h, day), the consistency level it
-- needs on Cassandra and, for a query that pages, the page size.

-- "My orders": a customer's orders, newest first, 20 a page.
-- @name orders_of_customer @rate 500/s @cl LOCAL_ONE @page 20
SELECT order_id, status, placed_at, total, currency
  FROM public.orders
 WHERE customer_id = $1
 ORDER BY placed_at DESC
 LIMIT 20;

-- A customer's orders in a date range (invoices, the account statement).
-- @name orders_of_customer_between @rate 20/s @cl LOCAL_ONE @page 100
SELECT order_id, status, placed_at, total, currency
  FROM public.orders
 WHERE customer_id = $1
   AND placed_at >= $2
   AND placed_at < $3
 ORDER BY placed_at DESC;

-- The warehouse queue: orders in one status since a time, oldest first.
-- @name orders_by_status @rate 20/s @cl LOCAL_QUORUM @page 100
SELECT order_id, customer_id, placed_at, total
  FROM public.orders
 WHERE status = $1
   AND placed_at >= $2
 ORDER BY placed_at ASC
 LIMIT 100;

-- All orders placed in a time range (operations dashboard).
-- @name orders_by_date @rate 5/s @cl LOCAL_ONE @page 500
SELECT order_id, customer_id, status, placed_at, total
  FROM public.orders
 WHERE placed_at >= $1
   AND placed_at < $2
 ORDER BY placed_at;

-- One order with its lines and the products' names (order page, e-mails).
-- @name order_by_id @rate 2000/s @cl LOCAL_ONE
SELECT o.order_id, o.customer_id, o.status, o.placed_at, o.total, o.currency, o.shipping_address,
       i.line_no, i.product_id, p.name AS product_name, i.quantity, i.unit_price
  FROM public.orders o
  JOIN public.order_items i ON i.order_id = o.order_id
  JOIN public.products p ON p.product_id = i.product_id
 WHERE o.order_id = $1
 ORDER BY i.line_no;

-- @name customer_by_id @rate 600/s @cl LOCAL_ONE
SELECT customer_id, email, full_name, tier, created_at
  FROM public.customers
 WHERE customer_id = $1;

-- Sign-in.
-- @name customer_by_email @rate 100/s @cl LOCAL_QUORUM
SELECT customer_id, full_name, tier
  FROM public.customers
 WHERE email = $1;

-- @name product_by_id @rate 3000/s @cl LOCAL_ONE
SELECT product_id, sku, name, category, price, active
  FROM public.products
 WHERE product_id = $1;

-- @name product_by_sku @rate 200/s @cl LOCAL_ONE
SELECT product_id, name, category, price, active
  FROM public.products
 WHERE sku = $1;

-- The products of a category, by name (catalogue browsing).
-- @name products_of_category @rate 300/s @cl LOCAL_ONE @page 50
SELECT product_id, sku, name, price
  FROM public.products
 WHERE category = $1
   AND active = true
 ORDER BY name
 LIMIT 50;

-- How many orders a customer has placed (shown on the account page).
-- @name order_count_of_customer @rate 50/s @cl LOCAL_ONE
SELECT count(*) AS orders
  FROM public.orders
 WHERE customer_id = $1;

-- Revenue per day over a range: finance reporting, not an online query.
-- @name revenue_per_day @rate 1/h @cl LOCAL_ONE
SELECT date_trunc('day', placed_at) AS day, sum(total) AS revenue, count(*) AS orders
  FROM public.orders
 WHERE placed_at >= $1
   AND placed_at < $2
   AND status <> 'cancelled'
 GROUP BY date_trunc('day', placed_at)
 ORDER BY day;

-- Mutations -----------------------------------------------------------------

-- @name place_order @rate 3.5/s @cl LOCAL_QUORUM
INSERT INTO public.orders (order_id, customer_id, status, placed_at, total, currency, shipping_address)
VALUES ($1, $2, 'pending', $3, $4, $5, $6);

-- One row per order line, written with the order.
-- @name add_order_line @rate 10/s @cl LOCAL_QUORUM
INSERT INTO public.order_items (order_id, line_no, product_id, quantity, unit_price)
VALUES ($1, $2, $3, $4, $5);

-- status is a key of the by-status table: on Cassandra a change moves the row.
-- @name set_order_status @rate 12/s @cl LOCAL_QUORUM
UPDATE public.orders
   SET status = $2
 WHERE order_id = $1;

-- @name delete_order @rate 1/min @cl LOCAL_QUORUM
DELETE FROM public.orders
 WHERE order_id = $1;

-- @name register_customer @rate 1/s @cl LOCAL_QUORUM
INSERT INTO public.customers (customer_id, email, full_name, tier, created_at)
VALUES ($1, $2, $3, $4, $5);

-- @name change_customer_email @rate 10/min @cl LOCAL_QUORUM
UPDATE public.customers
   SET email = $2
 WHERE customer_id = $1;

-- @name add_product @rate 20/min @cl LOCAL_QUORUM
INSERT INTO public.products (sku, name, category, price, active)
VALUES ($1, $2, $3, $4, true);

-- @name change_price @rate 1/s @cl LOCAL_QUORUM
UPDATE public.products
   SET price = $2
 WHERE product_id = $1;
