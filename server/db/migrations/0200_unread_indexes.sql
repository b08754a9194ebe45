-- Indexes no query reads, each written on every projected batch (every order update changes updated_at, so none of
-- them is skipped as a heap-only update could):
-- - orders_updated and orders_symbol: the blotter pages by listed_at (orders_listed, orders_symbol_listed);
-- - upstream_events_account: nothing reads the stored events by account;
-- - orders_status served one read, the open-orders sweep's oldest first; a partial index of the open orders alone
--   serves it now, and a filled or cancelled order no longer gets an entry on each update.
DROP INDEX orders_updated;
DROP INDEX orders_symbol;
DROP INDEX orders_status;
DROP INDEX upstream_events_account;
CREATE INDEX orders_open_updated ON orders (updated_at) WHERE status IN ('PENDING', 'SUBMITTED', 'PARTIAL_FILLED');
