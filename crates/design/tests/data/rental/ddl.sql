-- A film rental store: films, copies in stores, customers, rentals and
-- payments (written for cqlmodel's tests).
CREATE TABLE stores (
    store_id    smallint PRIMARY KEY,
    city        text NOT NULL
);

CREATE TABLE films (
    film_id     serial PRIMARY KEY,
    title       text NOT NULL,
    rating      text NOT NULL,
    rental_rate_cents integer NOT NULL DEFAULT 499,
    last_update timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE inventory (
    inventory_id serial PRIMARY KEY,
    film_id     integer NOT NULL REFERENCES films (film_id) ON DELETE CASCADE,
    store_id    smallint NOT NULL REFERENCES stores (store_id),
    available   boolean NOT NULL DEFAULT true,
    version     integer NOT NULL DEFAULT 0
);

CREATE TABLE customers (
    customer_id serial PRIMARY KEY,
    store_id    smallint NOT NULL REFERENCES stores (store_id),
    email       text NOT NULL,
    full_name   text NOT NULL,
    active      boolean NOT NULL DEFAULT true,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX customers_active_email ON customers (email) WHERE active;

CREATE TABLE rentals (
    rental_id   bigserial PRIMARY KEY,
    inventory_id integer NOT NULL REFERENCES inventory (inventory_id) ON DELETE CASCADE,
    customer_id integer NOT NULL REFERENCES customers (customer_id),
    rented_at   timestamptz NOT NULL DEFAULT now(),
    returned_at timestamptz
);

CREATE TABLE payments (
    payment_id  bigserial PRIMARY KEY,
    rental_id   bigint REFERENCES rentals (rental_id) ON DELETE SET NULL,
    customer_id integer NOT NULL REFERENCES customers (customer_id),
    amount_cents integer NOT NULL,
    paid_at     timestamptz NOT NULL DEFAULT now()
);
