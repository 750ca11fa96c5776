-- @name invoices_of_tenant @rate 50/s
SELECT invoice_no, issued_on, amount FROM invoices WHERE tenant_id = $1 AND issued_on >= $2;

-- @name tenant_by_id @rate 100/s
SELECT name, contact FROM tenants WHERE tenant_id = $1;

-- @name contract @rate 5/s
SELECT title, signed_on FROM contracts WHERE doc_id = $1;
