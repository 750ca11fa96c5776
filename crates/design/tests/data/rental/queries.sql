-- The rental store's statements, as the application sends them.

-- @name add_film @rate 1/min
INSERT INTO films (title, rating) VALUES ($1, $2);

-- @name film_page @rate 300/s
SELECT title, rating, rental_rate_cents FROM films WHERE film_id = $1;

-- @name copies_of_film @rate 100/s
SELECT inventory_id, store_id, available FROM inventory WHERE film_id = $1;

-- @name check_out @rate 10/s
UPDATE inventory SET available = false, version = version + 1 WHERE inventory_id = $1 AND version = $2;

-- @name rent @rate 10/s
INSERT INTO rentals (inventory_id, customer_id) VALUES ($1, $2);

-- @name rentals_of_customer @rate 50/s
SELECT rental_id, inventory_id, rented_at, returned_at FROM rentals WHERE customer_id = $1 ORDER BY rented_at DESC;

-- @name give_back @rate 10/s
UPDATE rentals SET returned_at = $2 WHERE rental_id = $1;

-- @name join_store @rate 1/s
INSERT INTO customers (store_id, email, full_name) VALUES ($1, $2, $3);

-- @name customer_by_email @rate 20/s
SELECT customer_id, full_name, active FROM customers WHERE email = $1;

-- @name pay @rate 10/s
INSERT INTO payments (rental_id, customer_id, amount_cents) VALUES ($1, $2, $3);

-- @name payments_of_customer @rate 10/s
SELECT payment_id, rental_id, amount_cents, paid_at FROM payments WHERE customer_id = $1 ORDER BY paid_at DESC;

-- @name retire_copy @rate 1/h
DELETE FROM inventory WHERE inventory_id = $1;
