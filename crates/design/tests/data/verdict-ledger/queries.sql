-- The ledger's statements. A transfer is one PostgreSQL transaction: the
-- debit applies only while the balance covers it, both legs are booked, and
-- no reader sees one leg without the other.

-- @name transfer @rate 150/s
BEGIN;

-- @name debit_account @cl LOCAL_QUORUM
UPDATE accounts SET balance = balance - $1 WHERE account_id = $2 AND balance >= $1;

-- @name credit_account @cl LOCAL_QUORUM
UPDATE accounts SET balance = balance + $1 WHERE account_id = $2;

-- @name book_debit
INSERT INTO entries (entry_id, account_id, transfer_id, amount, memo, booked_at)
    VALUES ($1, $2, $3, $4, $5, $6);

-- @name book_credit
INSERT INTO entries (entry_id, account_id, transfer_id, amount, memo, booked_at)
    VALUES ($1, $2, $3, $4, $5, $6);

COMMIT;

-- @name account_balance @rate 800/s @cl LOCAL_QUORUM
SELECT balance, currency FROM accounts WHERE account_id = $1;

-- @name account_statement @rate 200/s @cl LOCAL_ONE @page 50
SELECT entry_id, amount, memo, booked_at FROM entries
    WHERE account_id = $1 AND booked_at >= $2 AND booked_at < $3
    ORDER BY booked_at DESC;

-- @name accounts_of_customer @rate 300/s @cl LOCAL_ONE
SELECT account_id, currency, kind, balance FROM accounts WHERE customer_id = $1;

-- @name balances_by_kind @rate 2/h @path analytics
SELECT kind, currency, sum(balance) AS total FROM accounts GROUP BY kind, currency;

-- @name large_entries_report @rate 1/min
SELECT e.entry_id, e.account_id, e.amount, e.memo FROM entries e
    WHERE e.amount > $1 AND e.booked_at >= $2 AND e.memo <> 'fee';

-- @name monthly_volume @rate 1/h
SELECT a.currency, sum(e.amount) AS volume FROM entries e
    JOIN accounts a ON a.account_id = e.account_id
    WHERE e.booked_at >= $1 AND e.booked_at < $2
    GROUP BY a.currency;

-- @name entries_of_transfer @rate 50/s @cl LOCAL_ONE
SELECT entry_id, account_id, amount FROM entries WHERE transfer_id = $1;

-- @name open_account @rate 2/s
INSERT INTO accounts (account_id, customer_id, currency, kind, opened_at) VALUES ($1, $2, $3, $4, $5);

-- @name sign_up @rate 1/s
INSERT INTO customers (customer_id, email, full_name, country) VALUES ($1, $2, $3, $4);

-- @name customer_profile @rate 300/s @cl LOCAL_ONE
SELECT email, full_name, country FROM customers WHERE customer_id = $1;

-- @name record_audit_event @rate 600/s
INSERT INTO audit_events (customer_id, happened_at, action, ip) VALUES ($1, $2, $3, $4);

-- @name audit_trail @rate 20/s @cl LOCAL_ONE @page 100
SELECT happened_at, action, ip FROM audit_events
    WHERE customer_id = $1 ORDER BY happened_at DESC LIMIT 100;
