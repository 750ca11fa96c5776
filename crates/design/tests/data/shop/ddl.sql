-- A small shop as its PostgreSQL team runs it: unique usernames and emails,
-- stock counters, optimistic locking on orders, a job queue whose workers
-- claim jobs with a compare-and-set, and a nightly retention job on events.
-- scripts/pg-fixtures.sh loads this into a scratch cluster and dumps it.

CREATE TABLE customers (
    username    varchar(40) PRIMARY KEY,
    email       text NOT NULL UNIQUE,
    full_name   text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE products (
    sku         text PRIMARY KEY,
    title       text NOT NULL,
    price_cents integer NOT NULL,
    stock       integer NOT NULL DEFAULT 0,
    views       bigint NOT NULL DEFAULT 0
);

CREATE TABLE orders (
    order_id    uuid PRIMARY KEY,
    username    varchar(40) NOT NULL REFERENCES customers (username),
    status      text NOT NULL,
    total_cents integer NOT NULL,
    version     integer NOT NULL DEFAULT 1,
    placed_at   timestamptz NOT NULL
);

CREATE TABLE jobs (
    job_id      bigserial PRIMARY KEY,
    kind        text NOT NULL,
    payload     jsonb NOT NULL,
    state       text NOT NULL DEFAULT 'queued',
    worker      text,
    enqueued_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE events (
    username    varchar(40) NOT NULL REFERENCES customers (username),
    happened_at timestamptz NOT NULL,
    kind        text NOT NULL,
    detail      text,
    PRIMARY KEY (username, happened_at)
);
