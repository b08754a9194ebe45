-- End-of-day reconciliation (server/reconciliation): a run compares the desk's books with the upstream, account by
-- account, and keeps what differs as breaks that staff assign, comment on and close.

-- One run: who or what started it, its progress (accounts compared of total) and, once done, its summary (per
-- currency the desk's and the upstream's totals, the counts of breaks found, opened and still open).
CREATE TABLE reconciliation_runs (
  id bigserial PRIMARY KEY,
  trigger text NOT NULL CHECK (trigger IN ('schedule', 'request')),
  status text NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
  requested_by text,
  requested_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  total integer,
  done integer NOT NULL DEFAULT 0,
  summary jsonb,
  last_error text
);
CREATE INDEX reconciliation_runs_recent ON reconciliation_runs (id DESC);
CREATE INDEX reconciliation_runs_open ON reconciliation_runs (id) WHERE status IN ('queued', 'running');

-- A break: one thing the books and the upstream disagree on. `subject` names it within its kind (an account's
-- currency, an account's instrument, a movement); an open break is found again by it, so a difference that lasts over
-- many runs is one break whose figures follow the latest run (last_run_id), not a new one each run.
CREATE TABLE reconciliation_breaks (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('cash', 'position', 'account', 'movement')),
  subject text NOT NULL,
  account_id text,
  account_number text,
  currency text,
  symbol text,
  desk_value numeric,
  upstream_value numeric,
  difference numeric,
  summary text NOT NULL,
  evidence jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  first_run_id bigint NOT NULL REFERENCES reconciliation_runs (id),
  last_run_id bigint NOT NULL REFERENCES reconciliation_runs (id),
  opened_at timestamptz NOT NULL DEFAULT now(),
  assigned_to text,
  closed_by text,
  closed_at timestamptz,
  resolution text,
  CHECK ((status = 'closed') = (closed_at IS NOT NULL))
);
CREATE UNIQUE INDEX reconciliation_breaks_open_subject ON reconciliation_breaks (kind, subject) WHERE status = 'open';
CREATE INDEX reconciliation_breaks_recent ON reconciliation_breaks (id DESC);

CREATE TABLE reconciliation_break_comments (
  id bigserial PRIMARY KEY,
  break_id bigint NOT NULL REFERENCES reconciliation_breaks (id) ON DELETE CASCADE,
  author text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reconciliation_break_comments_break ON reconciliation_break_comments (break_id, id);
