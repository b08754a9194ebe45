-- Part 2: orders, executions, option exercises and the event outbox. Money and quantities numeric(24,8).

CREATE TABLE orders (
  order_id              text PRIMARY KEY,
  seq                   bigserial NOT NULL UNIQUE,
  account_id            text NOT NULL,
  client_order_id       text NOT NULL,
  -- the group: client_order_id of the first order of the place request, and the request's client_combo_order_id
  group_id              text NOT NULL,
  client_combo_order_id text,
  combo_type            text NOT NULL,
  -- the order whose fill activates this one (MASTER → STOP_PROFIT/STOP_LOSS, OTO/OTOCO → children)
  parent_order_id       text,
  -- orders sharing an oco_key cancel each other when one executes
  oco_key               text,
  status                text NOT NULL,
  reason                text,
  instrument_type       text NOT NULL,
  market                text NOT NULL,
  symbol                text NOT NULL,
  currency              text NOT NULL,
  side                  text NOT NULL,
  order_type            text NOT NULL,
  entrust_type          text NOT NULL,
  time_in_force         text NOT NULL,
  expire_date           date,
  trading_session       text NOT NULL,
  quantity              numeric(24,8),
  total_cash_amount     numeric(24,8),
  limit_price           numeric(24,8),
  stop_price            numeric(24,8),
  trailing_type         text,
  trailing_stop_step    numeric(24,8),
  trailing_limit_price_offset numeric(24,8),
  trigger_price_type    text,
  -- stop / touch / trailing orders: set once the trigger fired; trailing orders keep their watermark here
  triggered             boolean NOT NULL DEFAULT false,
  watermark             numeric(24,8),
  filled_quantity       numeric(24,8) NOT NULL DEFAULT 0,
  filled_value          numeric(24,8) NOT NULL DEFAULT 0,
  commission            numeric(24,8) NOT NULL DEFAULT 0,
  receivable_commission numeric(24,8) NOT NULL DEFAULT 0,
  fees                  jsonb NOT NULL DEFAULT '[]'::jsonb,
  held_amount           numeric(24,8) NOT NULL DEFAULT 0,
  option_strategy       text,
  legs                  jsonb,
  extra                 jsonb NOT NULL DEFAULT '{}'::jsonb,
  body_hash             text NOT NULL,
  place_time            timestamptz NOT NULL,
  filled_time           timestamptz,
  updated_at            timestamptz NOT NULL,
  UNIQUE (account_id, client_order_id)
);
CREATE INDEX orders_history ON orders (account_id, seq DESC);
CREATE INDEX orders_group ON orders (account_id, group_id);
CREATE INDEX orders_working ON orders (status) WHERE status IN ('PENDING', 'SUBMITTED', 'PARTIAL_FILLED');

CREATE TABLE executions (
  execution_id    text PRIMARY KEY,
  seq             bigserial NOT NULL UNIQUE,
  order_id        text NOT NULL,
  account_id      text NOT NULL,
  client_order_id text NOT NULL,
  symbol          text NOT NULL,
  market          text NOT NULL,
  instrument_type text NOT NULL,
  side            text NOT NULL,
  order_type      text NOT NULL,
  status          text NOT NULL,
  quantity        numeric(24,8) NOT NULL,
  price           numeric(24,8) NOT NULL,
  commission      numeric(24,8) NOT NULL,
  receivable_commission numeric(24,8) NOT NULL,
  fees            jsonb NOT NULL,
  currency        text NOT NULL,
  settle_date     date NOT NULL,
  settled         boolean NOT NULL DEFAULT false,
  -- cash credited to unsettled_cash by this execution (sells), released at settlement
  unsettled_amount numeric(24,8) NOT NULL DEFAULT 0,
  filled_at       timestamptz NOT NULL
);
CREATE INDEX executions_page ON executions (account_id, seq DESC);
CREATE INDEX executions_unsettled ON executions (settle_date) WHERE NOT settled;

CREATE TABLE option_exercises (
  exercise_id       text PRIMARY KEY,
  account_id        text NOT NULL,
  client_request_id text NOT NULL,
  body_hash         text NOT NULL,
  symbol            text NOT NULL,
  quantity          numeric(24,8) NOT NULL,
  exercise_type     text NOT NULL,
  status            text NOT NULL,
  reason            text,
  created_at        timestamptz NOT NULL,
  UNIQUE (account_id, client_request_id)
);

-- Transactional outbox of broker events; ids only grow, so a subscriber resumes after the last id it saw.
CREATE TABLE events (
  id          bigserial PRIMARY KEY,
  event_type  text NOT NULL,
  account_id  text,
  payload     jsonb NOT NULL,
  created_at  timestamptz NOT NULL
);
