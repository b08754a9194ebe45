-- Sandbox state. Runs with search_path = sandbox (see server/db/engine.ts migrate()).
-- Money and quantities are numeric(24,8): exact decimals, never floats.

CREATE TABLE master_accounts (
  account_id     text PRIMARY KEY,
  account_number text NOT NULL UNIQUE,
  app_key        text NOT NULL,
  option_level   text NOT NULL,
  created_at     timestamptz NOT NULL
);

CREATE TABLE virtual_accounts (
  account_id                  text PRIMARY KEY,
  account_number              text NOT NULL UNIQUE,
  external_account_number     text NOT NULL UNIQUE,
  belong_account_id           text NOT NULL REFERENCES master_accounts(account_id),
  account_type                text NOT NULL,
  account_status              text NOT NULL,
  trading_permissions         text[] NOT NULL,
  option_level                text,
  commission_code             text,
  w8ben_info                  jsonb,
  china_connect_investor_info jsonb,
  -- lower-cased "first last" of the W-8BEN, for the back office's name search
  search_name                 text NOT NULL DEFAULT '',
  created_at                  timestamptz NOT NULL,
  updated_at                  timestamptz NOT NULL
);
-- keyset pagination: newest first, account_id breaks ties
CREATE INDEX virtual_accounts_page ON virtual_accounts (created_at DESC, account_id DESC);
CREATE INDEX virtual_accounts_status_page ON virtual_accounts (account_status, created_at DESC, account_id DESC);

CREATE TABLE cash_balances (
  account_id   text NOT NULL,
  currency     text NOT NULL,
  cash_balance numeric(24,8) NOT NULL DEFAULT 0,
  unsettled_cash numeric(24,8) NOT NULL DEFAULT 0,
  -- reserved by open orders (part 2) and by nothing else yet
  held_amount  numeric(24,8) NOT NULL DEFAULT 0,
  frozen_amount numeric(24,8) NOT NULL DEFAULT 0,
  updated_at   timestamptz NOT NULL,
  PRIMARY KEY (account_id, currency)
);

CREATE TABLE positions (
  position_id     text NOT NULL UNIQUE,
  account_id      text NOT NULL,
  instrument_type text NOT NULL,
  market          text NOT NULL,
  symbol          text NOT NULL,
  currency        text NOT NULL,
  quantity        numeric(24,8) NOT NULL,
  cost_price      numeric(24,8) NOT NULL,
  updated_at      timestamptz NOT NULL,
  PRIMARY KEY (account_id, instrument_type, symbol)
);

CREATE TABLE activities (
  id                text PRIMARY KEY,
  account_id        text NOT NULL,
  activity_type     text NOT NULL,
  activity_sub_type text NOT NULL,
  currency          text NOT NULL,
  market            text,
  symbol            text,
  quantity          numeric(24,8),
  net_amount        numeric(24,8) NOT NULL,
  trade_date        date NOT NULL,
  biz_time          timestamptz NOT NULL,
  description       text,
  ref_type          text,
  ref_id            text
);
CREATE INDEX activities_page ON activities (account_id, biz_time DESC, id DESC);

-- Every client_request_id-keyed operation (accounts, funding, FX, journals). The unique key is the idempotency key.
CREATE TABLE requests (
  kind              text NOT NULL,
  client_request_id text NOT NULL,
  id                text NOT NULL UNIQUE,
  account_id        text NOT NULL,
  body_hash         text NOT NULL,
  status            text NOT NULL,
  reason            text,
  payload           jsonb NOT NULL,
  result            jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL,
  PRIMARY KEY (kind, client_request_id)
);

CREATE TABLE instruments (
  instrument_id text PRIMARY KEY,
  symbol        text NOT NULL,
  market        text NOT NULL,
  category      text NOT NULL,
  sub_category  text NOT NULL,
  currency      text NOT NULL,
  last_price    numeric(24,8) NOT NULL,
  profile       jsonb NOT NULL,
  locate        jsonb NOT NULL,
  UNIQUE (market, symbol)
);

CREATE TABLE option_contracts (
  instrument_id   text PRIMARY KEY,
  symbol          text NOT NULL UNIQUE,
  root_symbol     text NOT NULL,
  option_type     text NOT NULL,
  strike_price    numeric(24,8) NOT NULL,
  expiration_date date NOT NULL,
  style           text NOT NULL,
  status          text NOT NULL,
  ppind           boolean NOT NULL,
  last_price      numeric(24,8) NOT NULL,
  multiplier      integer NOT NULL,
  deliverables    jsonb NOT NULL
);
CREATE INDEX option_contracts_root ON option_contracts (root_symbol, instrument_id);

CREATE TABLE corporate_actions (
  event_id text PRIMARY KEY,
  detail   jsonb NOT NULL
);

CREATE TABLE tokens (
  token        text PRIMARY KEY,
  app_key      text NOT NULL,
  status       text NOT NULL,
  created_at   timestamptz NOT NULL,
  confirmed_at timestamptz,
  last_used_at timestamptz NOT NULL
);

CREATE TABLE seed_state (
  id        integer PRIMARY KEY,
  seeded_at timestamptz NOT NULL
);
