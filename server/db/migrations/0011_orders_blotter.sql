-- The orders blotter reads the read model only, newest first, in keyset pages whose cost must not grow with the
-- table. Its order is `listed_at`: when the order was placed, or, until a detail call has told the placing time, when
-- the desk first heard of it (events carry no placing time). Times are written from JavaScript dates, so they have
-- millisecond precision and the keyset cursor (a JSON date) holds them exactly.
ALTER TABLE orders ADD COLUMN listed_at timestamptz GENERATED ALWAYS AS (COALESCE(placed_at, updated_at)) STORED;

-- The unfiltered blotter, and each selective filter with the same order behind it, so that a page is an index range.
CREATE INDEX orders_listed ON orders (listed_at DESC, id DESC);
CREATE INDEX orders_account_listed ON orders (account_id, listed_at DESC, id DESC);
CREATE INDEX orders_symbol_listed ON orders (symbol, listed_at DESC, id DESC);
CREATE INDEX orders_status_listed ON orders (status, listed_at DESC, id DESC);
-- The "open" and "working today" quick views.
CREATE INDEX orders_open_listed ON orders (listed_at DESC, id DESC) WHERE status IN ('PENDING', 'SUBMITTED', 'PARTIAL_FILLED');
-- "Filled today": few rows by fill time, whenever the orders were placed.
CREATE INDEX orders_filled_at ON orders (filled_at DESC) WHERE filled_at IS NOT NULL;
-- What changed since a watermark (the blotter's live updates), and an order's combo group (the detail page).
CREATE INDEX orders_changes ON orders (last_event_seq);
CREATE INDEX orders_combo ON orders (account_id, client_combo_order_id) WHERE client_combo_order_id IS NOT NULL;
