-- The desk's own books: every upstream event stored once, the stream's resume point and health, and the read model
-- (orders, their status changes, executions, money movements) projected from the stored events.

-- The event log. `source` is where a row came from: the upstream's stream, a snapshot the desk took with a detail or
-- list call (stored only when it changed something: a divergence), or a submission the desk made itself. The read
-- model is a function of this table in `seq` order, so it can be rebuilt from it.
CREATE TABLE upstream_events (
  seq bigserial PRIMARY KEY,
  event_id text NOT NULL UNIQUE,
  source text NOT NULL DEFAULT 'stream' CHECK (source IN ('stream', 'snapshot', 'desk')),
  event_type text NOT NULL,
  biz_type text,
  account_id text,
  occurred_at timestamptz,
  received_at timestamptz NOT NULL DEFAULT now(),
  payload jsonb,
  -- The message as received when it could not be parsed.
  raw text,
  outcome text NOT NULL CHECK (outcome IN ('projected', 'stored', 'unknown', 'malformed'))
);
CREATE INDEX upstream_events_received ON upstream_events (received_at);
CREATE INDEX upstream_events_account ON upstream_events (account_id, seq) WHERE account_id IS NOT NULL;

-- One row: the consumer's resume point and what the stream-health page shows.
CREATE TABLE event_stream (
  id text PRIMARY KEY,
  last_event_id text,
  last_event_at timestamptz,
  last_received_at timestamptz,
  last_ping_at timestamptz,
  connected boolean NOT NULL DEFAULT false,
  connected_at timestamptz,
  disconnected_at timestamptz,
  reconnects integer NOT NULL DEFAULT 0,
  unknown_count bigint NOT NULL DEFAULT 0,
  malformed_count bigint NOT NULL DEFAULT 0,
  last_error text,
  leader text,
  heartbeat_at timestamptz,
  -- Buttons of the stream-health page: the active consumer acts on a request newer than the one it last handled.
  reconnect_requested_at timestamptz,
  reconcile_requested_at timestamptz,
  reconcile_requested_by text
);
INSERT INTO event_stream (id) VALUES ('upstream');

CREATE TABLE orders (
  id bigserial PRIMARY KEY,
  account_id text NOT NULL,
  client_order_id text NOT NULL,
  order_id text,
  combo_type text,
  client_combo_order_id text,
  symbol text,
  market text,
  instrument_type text,
  category text,
  instrument_id text,
  side text,
  order_type text,
  time_in_force text,
  expire_date text,
  entrust_type text,
  trading_session text,
  quantity numeric,
  total_cash_amount numeric,
  filled_quantity numeric NOT NULL DEFAULT 0,
  avg_filled_price numeric,
  limit_price numeric,
  stop_price numeric,
  option_strategy text,
  legs jsonb,
  status text NOT NULL,
  reason text,
  commission numeric,
  receivable_commission numeric,
  fees jsonb,
  placed_at timestamptz,
  filled_at timestamptz,
  updated_at timestamptz NOT NULL,
  -- The last event applied, and whether a detail call should complete the row: never read yet (detail_at null), or
  -- changed in a way events do not describe (a replace carries no prices).
  last_event_seq bigint NOT NULL,
  detail_wanted boolean NOT NULL DEFAULT false,
  detail_at timestamptz,
  submitted_by text,
  UNIQUE (account_id, client_order_id)
);
CREATE INDEX orders_updated ON orders (updated_at DESC, id DESC);
CREATE INDEX orders_status ON orders (status, updated_at DESC);
CREATE INDEX orders_symbol ON orders (symbol, updated_at DESC);
CREATE INDEX orders_detail_wanted ON orders (id) WHERE detail_wanted OR detail_at IS NULL;

-- One row per change of an order, from the event or snapshot that made it.
CREATE TABLE order_events (
  id bigserial PRIMARY KEY,
  event_seq bigint NOT NULL,
  account_id text NOT NULL,
  client_order_id text NOT NULL,
  scene text NOT NULL,
  status text,
  filled_quantity numeric,
  reason text,
  at timestamptz NOT NULL,
  UNIQUE (event_seq, account_id, client_order_id)
);
CREATE INDEX order_events_order ON order_events (account_id, client_order_id, event_seq);

-- Executions, keyed by what identifies a fill on both paths (events and the executions list).
CREATE TABLE executions (
  id bigserial PRIMARY KEY,
  execution_key text NOT NULL UNIQUE,
  event_seq bigint NOT NULL,
  account_id text NOT NULL,
  client_order_id text NOT NULL,
  order_id text,
  symbol text,
  side text,
  quantity numeric NOT NULL,
  price numeric NOT NULL,
  commission numeric,
  receivable_commission numeric,
  fees jsonb,
  filled_at timestamptz NOT NULL
);
CREATE INDEX executions_order ON executions (account_id, client_order_id);
CREATE INDEX executions_filled ON executions (filled_at DESC, id DESC);

-- Cash journals, position journals, instant funding, FX requests and instant exchanges.
CREATE TABLE money_movements (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  client_request_id text NOT NULL,
  request_id text,
  account_id text,
  from_account text,
  to_account text,
  direction text,
  amount numeric,
  currency text,
  to_amount numeric,
  to_currency text,
  fx_rate numeric,
  instrument_type text,
  market text,
  symbol text,
  quantity numeric,
  status text NOT NULL,
  reason text,
  requested_by text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  last_event_seq bigint NOT NULL,
  detail_at timestamptz,
  UNIQUE (kind, client_request_id)
);
CREATE INDEX money_movements_updated ON money_movements (updated_at DESC, id DESC);
CREATE INDEX money_movements_open ON money_movements (updated_at) WHERE status NOT IN ('COMPLETED', 'CANCELED', 'REJECTED', 'FAILED');

CREATE TABLE movement_events (
  id bigserial PRIMARY KEY,
  event_seq bigint NOT NULL,
  kind text NOT NULL,
  client_request_id text NOT NULL,
  status text NOT NULL,
  reason text,
  at timestamptz NOT NULL,
  UNIQUE (event_seq, kind, client_request_id)
);
CREATE INDEX movement_events_movement ON movement_events (kind, client_request_id, event_seq);

-- Backfill and reconciliation runs: resumable (cursor), with their progress and counts.
CREATE TABLE sync_runs (
  id bigserial PRIMARY KEY,
  job text NOT NULL CHECK (job IN ('backfill', 'reconcile')),
  status text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
  requested_by text,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  cursor text,
  total integer,
  done integer NOT NULL DEFAULT 0,
  checked integer NOT NULL DEFAULT 0,
  fixed integer NOT NULL DEFAULT 0,
  errors integer NOT NULL DEFAULT 0,
  last_error text
);
CREATE INDEX sync_runs_job ON sync_runs (job, id DESC);
