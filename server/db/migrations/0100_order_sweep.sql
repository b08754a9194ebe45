-- The open-orders sweep (server/orders/sweep.ts): the upstream sends no event when an order is accepted, so an order
-- a customer placed in their own app reaches the books only when the desk asks. Each account's open orders are read
-- in turn within a share of the order-query budget; `attempted_at` is the last try (the sweep's order), `checked_at`
-- the last that succeeded, `wanted_at` when staff asked for a check (opening the account, filtering the blotter by it,
-- "Check now"), which puts it first until tried.
CREATE TABLE order_sweep (
  account_id text PRIMARY KEY,
  attempted_at timestamptz,
  checked_at timestamptz,
  wanted_at timestamptz,
  open_orders integer NOT NULL DEFAULT 0,
  found integer NOT NULL DEFAULT 0,
  last_error text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_sweep_wanted ON order_sweep (wanted_at) WHERE wanted_at IS NOT NULL;
-- Accounts by the number a customer reads out (the blotter's account filter, the header search).
CREATE INDEX account_directory_number ON account_directory (account_number);
-- "Has this account open or recent orders?" for the sweep's order, one probe an account.
CREATE INDEX orders_account_updated ON orders (account_id, updated_at DESC);
-- An order by either id (the header's search; the upstream's order id, the client order id whatever the account).
CREATE INDEX orders_client_order_id ON orders (client_order_id);
CREATE INDEX orders_order_id ON orders (order_id) WHERE order_id IS NOT NULL;
