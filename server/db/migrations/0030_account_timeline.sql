-- The account timeline reads each source newest first for one account, in keyset pages by (time, id): one index a
-- source, so a page is an index range whatever the size of the table. Movements and orders have theirs already
-- (migrations 0011 and 0013).
CREATE INDEX audit_entries_target_at ON audit_entries (target, at DESC, seq DESC) WHERE target IS NOT NULL;
-- Staff acts on an account's orders name the order (`order:<account>:<client order id>`): by the account part.
CREATE INDEX audit_entries_order_account_at ON audit_entries (split_part(target, ':', 2), at DESC, seq DESC) WHERE target LIKE 'order:%';
CREATE INDEX approval_requests_target_created ON approval_requests (target, created_at DESC, id DESC);
CREATE INDEX executions_account_filled ON executions (account_id, filled_at DESC, id DESC);
CREATE INDEX alerts_account_occurred ON alerts (account_id, occurred_at DESC, id DESC) WHERE account_id IS NOT NULL;
