-- Account statements and trade confirmations (server/statements). A statement is computed from the books each time
-- it is asked for; what is kept is the bulk run: every account's statement of a period rendered into one zip by the
-- `statements` job, resumable account by account.

-- A statement's trades and an account's execution days read one range of executions_account_filled (0030).

-- One bulk run: the period, its progress (accounts done of total, the last account done: the job's cursor) and,
-- once done, the zip itself (a few kilobytes an account; kept in the database so every app instance can serve it).
CREATE TABLE statement_runs (
  id bigserial PRIMARY KEY,
  period_from date NOT NULL,
  period_to date NOT NULL CHECK (period_to >= period_from),
  status text NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
  requested_by text NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  total integer,
  done integer NOT NULL DEFAULT 0,
  cursor text,
  last_error text,
  zip bytea,
  zip_bytes integer
);
CREATE INDEX statement_runs_recent ON statement_runs (id DESC);
CREATE INDEX statement_runs_open ON statement_runs (id) WHERE status IN ('queued', 'running');

-- The files a run has rendered so far (PDF and CSV of each account), written with the cursor that passes them, so a
-- run cut short resumes after its last account; gathered into the zip at the end and then deleted.
CREATE TABLE statement_run_files (
  run_id bigint NOT NULL REFERENCES statement_runs (id) ON DELETE CASCADE,
  name text NOT NULL,
  body bytea NOT NULL,
  PRIMARY KEY (run_id, name)
);
