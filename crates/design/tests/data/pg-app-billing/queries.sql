-- The billing service's SQL as SQLAlchemy Core emits it (`:name`
-- parameters) and as its psycopg-based workers write it (`%(name)s`).

-- @name tenant_by_slug @rate 40/s
SELECT id, name, tier FROM tenants WHERE slug = :slug;

-- @name user_login @rate 15/s
SELECT id, role, last_login_at FROM users WHERE tenant_id = :tenant_id AND email = :email;

-- @name api_key_lookup @rate 900/s @cl LOCAL_ONE
SELECT tenant_id, user_id, hashed_key, revoked_at FROM api_keys WHERE prefix = %(prefix)s;

-- @name customer_by_ref @rate 300/s
SELECT id, name, email, country_code, balance_cents FROM customers
WHERE tenant_id = :tenant_id AND external_ref = :external_ref;

-- @name recent_customers @rate 5/s @page 50
SELECT id, name, email, created_at FROM customers WHERE tenant_id = :tenant_id
ORDER BY created_at DESC LIMIT 50;

-- @name live_subscriptions @rate 120/s
WITH live AS (
    SELECT id, customer_id, plan_id, current_period_end
    FROM subscriptions
    WHERE status = 'active'
)
SELECT l.id, l.plan_id, l.current_period_end FROM live AS l WHERE l.customer_id = :customer_id;

-- @name subscription_items @rate 120/s
SELECT si.id, si.quantity, p.unit_amount_cents, p.currency
FROM subscription_items si JOIN prices p ON p.id = si.price_id
WHERE si.subscription_id = :subscription_id;

-- @name usage_in_period @rate 60/s
SELECT recorded_at, quantity FROM usage_records
WHERE subscription_item_id = %(item_id)s AND recorded_at >= %(period_start)s AND recorded_at < %(period_end)s;

-- @name usage_of_subscription @rate 20/s
SELECT recorded_at, quantity FROM usage_records
WHERE subscription_item_id IN (SELECT id FROM subscription_items WHERE subscription_id = :subscription_id)
  AND recorded_at >= :since;

-- @name customer_invoices @rate 80/s @page 20
SELECT id, number, status, total_cents, issued_at FROM invoices
WHERE customer_id = :customer_id ORDER BY issued_at DESC LIMIT 20;

-- @name invoice_by_number @rate 50/s
SELECT id, customer_id, status, total_cents, due_at FROM invoices
WHERE tenant_id = :tenant_id AND number = :number;

-- @name overdue_with_contacts @rate 1/s
WITH overdue AS (
    SELECT id, tenant_id, customer_id, number, due_at FROM invoices
    WHERE status = 'open' AND due_at < now()
)
SELECT o.id, o.number, o.due_at, c.name, c.email
FROM overdue o JOIN customers c ON c.id = o.customer_id
WHERE o.tenant_id = :tenant_id;

-- @name invoice_lines @rate 80/s
SELECT description, quantity, unit_amount_cents, amount_cents FROM invoice_lines WHERE invoice_id = :invoice_id;

-- @name invoices_with_failed_payment @rate 2/s
SELECT i.id, i.number, i.total_cents FROM invoices i
WHERE i.customer_id = :customer_id
  AND EXISTS (SELECT 1 FROM payments p WHERE p.invoice_id = i.id AND p.status = 'failed');

-- @name never_attempted @rate 1/min
SELECT i.id, i.number FROM invoices i
WHERE i.tenant_id = :tenant_id
  AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.invoice_id = i.id);

-- @name ledger_page @rate 30/s @page 100
SELECT kind, amount_cents, balance_after_cents, created_at FROM ledger_entries
WHERE customer_id = :customer_id ORDER BY created_at DESC LIMIT 100;

-- @name entitlement @rate 2000/s @cl LOCAL_ONE
SELECT limit_value FROM entitlements WHERE subscription_id = %(subscription_id)s AND feature_key = %(feature)s;

-- @name deliveries_of_endpoint @rate 3/s
SELECT created_at, event_id, attempt, status_code FROM webhook_deliveries
WHERE endpoint_id = :endpoint_id AND created_at > :since ORDER BY created_at DESC;

-- @name tenant_events @rate 10/s
SELECT id, kind, created_at FROM events WHERE tenant_id = :tenant_id AND created_at > :since
ORDER BY created_at DESC LIMIT 200;

-- @name invoice_status_counts @rate 1/min @path admin
SELECT status, count(*) FROM invoices WHERE tenant_id = :tenant_id GROUP BY status;

-- @name plan_tree @rate 1/h
WITH RECURSIVE chain AS (
    SELECT id, plan_id FROM subscriptions WHERE id = :subscription_id
    UNION ALL
    SELECT s.id, s.plan_id FROM subscriptions s JOIN chain ON s.plan_id = chain.plan_id
)
SELECT id FROM chain;

-- @name record_usage @rate 800/s
INSERT INTO usage_records (subscription_item_id, recorded_at, idempotency_key, quantity)
VALUES (%(item_id)s, %(recorded_at)s, %(key)s, %(quantity)s) ON CONFLICT DO NOTHING;

-- @name issue_invoice @rate 20/s
INSERT INTO invoices (tenant_id, customer_id, subscription_id, number, status, currency, subtotal_cents, tax_cents, issued_at, due_at)
VALUES (:tenant_id, :customer_id, :subscription_id, :number, 'open', :currency, :subtotal, :tax, now(), :due_at);

-- @name pay @rate 15/s
BEGIN;
-- @name mark_paid
UPDATE invoices SET status = 'paid', paid_at = now() WHERE id = :invoice_id AND status = 'open';
-- @name record_payment
INSERT INTO payments (invoice_id, payment_method_id, amount_cents, status, succeeded_at)
VALUES (:invoice_id, :method_id, :amount, 'succeeded', now());
-- @name post_ledger
INSERT INTO ledger_entries (tenant_id, customer_id, kind, amount_cents, balance_after_cents)
VALUES (:tenant_id, :customer_id, 'payment', :amount, :balance_after);
COMMIT;

-- @name credit_balance @rate 15/s
UPDATE customers SET balance_cents = balance_cents + :amount WHERE id = :customer_id;

-- @name cancel_by_ref @rate 1/s
UPDATE subscriptions SET status = 'canceled', cancel_at = now()
FROM customers c
WHERE subscriptions.customer_id = c.id AND c.tenant_id = :tenant_id AND c.external_ref = :external_ref;

-- @name revoke_user_keys @rate 1/min
DELETE FROM api_keys USING users u
WHERE api_keys.user_id = u.id AND u.tenant_id = :tenant_id AND u.email = :email;

-- @name expire_usage @rate 1/h @path admin
DELETE FROM usage_records WHERE recorded_at < now() - interval '400 days';
