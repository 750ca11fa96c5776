-- A payments ledger: customers hold accounts, a transfer moves money between
-- two accounts and books both legs in one transaction (the debit only while
-- the balance covers it), finance runs ad-hoc reports, and every login and
-- transfer leaves an audit event. The ledger needs multi-row transactions:
-- the fit verdict's "stay relational" case for accounts and entries, while
-- the audit trail moves.

CREATE TABLE customers (
    customer_id uuid PRIMARY KEY,
    email       text NOT NULL UNIQUE,
    full_name   text NOT NULL,
    country     char(2) NOT NULL
);

CREATE TABLE accounts (
    account_id  uuid PRIMARY KEY,
    customer_id uuid NOT NULL REFERENCES customers (customer_id),
    currency    char(3) NOT NULL,
    kind        text NOT NULL,
    balance     numeric(18,2) NOT NULL DEFAULT 0,
    opened_at   timestamptz NOT NULL
);

CREATE TABLE entries (
    entry_id    uuid PRIMARY KEY,
    account_id  uuid NOT NULL REFERENCES accounts (account_id),
    transfer_id uuid NOT NULL,
    amount      numeric(18,2) NOT NULL,
    memo        text,
    booked_at   timestamptz NOT NULL
);

CREATE TABLE audit_events (
    customer_id uuid NOT NULL REFERENCES customers (customer_id),
    happened_at timestamptz NOT NULL,
    action      text NOT NULL,
    ip          inet,
    PRIMARY KEY (customer_id, happened_at)
);
