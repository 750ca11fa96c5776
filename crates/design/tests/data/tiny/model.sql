CREATE TABLE customers (
    id bigint PRIMARY KEY,
    email varchar(200) NOT NULL UNIQUE,
    name text
);
CREATE TABLE orders (
    id bigint PRIMARY KEY,
    customer_id bigint NOT NULL REFERENCES customers(id),
    status text NOT NULL,
    total numeric(10,2),
    created_at timestamptz NOT NULL
);
