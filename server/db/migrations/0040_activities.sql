-- Account activities across accounts: the upstream lists them one account at a time, within a tight rate budget, so
-- the desk keeps its own copy, filled by a resumable sweep per account (server/activities/sweep.ts) and read by the
-- activities explorer. A page is a keyset range on one index whatever the number of rows.
CREATE TABLE activities (
  account_id text NOT NULL,
  id text NOT NULL,
  account_number text,
  activity_type text NOT NULL,
  activity_sub_type text,
  currency text NOT NULL,
  market text,
  symbol text,
  quantity numeric,
  net_amount numeric NOT NULL,
  trade_date date,
  biz_time timestamptz NOT NULL,
  description text,
  swept_at timestamptz NOT NULL DEFAULT now(),
  -- One unique column for keyset paging's tiebreak (an id is unique within its account).
  uid text GENERATED ALWAYS AS (account_id || '/' || id) STORED,
  PRIMARY KEY (account_id, id)
);
CREATE INDEX activities_time ON activities (biz_time DESC, uid DESC);
CREATE INDEX activities_type_time ON activities (activity_type, biz_time DESC, uid DESC);
CREATE INDEX activities_account_time ON activities (account_id, biz_time DESC, uid DESC);
CREATE INDEX activities_currency_time ON activities (currency, biz_time DESC, uid DESC);
CREATE INDEX activities_symbol_time ON activities (symbol, biz_time DESC, uid DESC) WHERE symbol IS NOT NULL;

-- The sweep's place per account. Every activity with biz_time before `swept_until` is in `activities`. A pass in
-- progress covers [swept_until, window_end) and resumes after a restart from `cursor` (the upstream's
-- last_activity_id), so nothing is fetched twice and nothing is skipped.
CREATE TABLE activity_sweeps (
  account_id text PRIMARY KEY,
  account_number text,
  swept_until timestamptz,
  window_end timestamptz,
  cursor text,
  fetched bigint NOT NULL DEFAULT 0,
  last_run_at timestamptz,
  last_error text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A reviewer's "Sweep now" reaches the event service (another process on a PostgreSQL server) through this row, as
-- a reconciliation request does.
ALTER TABLE event_stream ADD COLUMN activities_sweep_requested_at timestamptz;
ALTER TABLE event_stream ADD COLUMN activities_sweep_requested_by text;
ALTER TABLE sync_runs DROP CONSTRAINT sync_runs_job_check;
ALTER TABLE sync_runs ADD CONSTRAINT sync_runs_job_check CHECK (job IN ('backfill', 'reconcile', 'activities'));
