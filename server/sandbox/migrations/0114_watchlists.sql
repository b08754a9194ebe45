-- Watchlists of the Market Data API, each owned by the app key that signed its creation (the broker's key, or an
-- account holder's Trading API key): a key sees and changes only its own. Names are unique per key whatever their
-- case. Limits (20 watchlists, 1,000 instruments in all per key) are checked under a per-key advisory lock.
CREATE TABLE watchlists (
  watchlist_id text PRIMARY KEY,
  app_key      text NOT NULL,
  name         text NOT NULL,
  sort         integer NOT NULL,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL
);
CREATE UNIQUE INDEX watchlists_app_key_name ON watchlists (app_key, lower(name));

-- A watchlist's instruments, one row per (market, symbol) of the instrument master; listed by sort, highest first.
CREATE TABLE watchlist_instruments (
  watchlist_id  text NOT NULL REFERENCES watchlists(watchlist_id) ON DELETE CASCADE,
  app_key       text NOT NULL,
  market        text NOT NULL,
  symbol        text NOT NULL,
  category      text NOT NULL,
  instrument_id text NOT NULL,
  sort          integer NOT NULL,
  added_at      timestamptz NOT NULL,
  PRIMARY KEY (watchlist_id, market, symbol)
);
CREATE INDEX watchlist_instruments_app_key ON watchlist_instruments (app_key);
