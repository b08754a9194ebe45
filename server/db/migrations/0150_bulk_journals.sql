-- Bulk journals (server/bulk-journals): a CSV of cash or position journals, held for four-eyes as one approval
-- request and sent row by row. The batch and its rows are written when the request is held; each row keeps the
-- client_request_id it was given at upload (the same on every send, so the upstream deduplicates a re-send) and
-- its result: pending (not sent yet), sending (claimed by an execution or a retry), sent, failed (with the message).
CREATE TABLE bulk_journal_batches (
  -- The batch id the upload page made once (a double submit is the same batch, waiting once).
  id text PRIMARY KEY,
  -- The sha-256 of the held payload: the same batch id with other rows is refused (start a new batch).
  payload_hash text NOT NULL,
  maker_email text NOT NULL,
  row_count integer NOT NULL CHECK (row_count > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The last execution or retry that sent rows, and when (null until one did).
  last_run_at timestamptz
);

CREATE TABLE bulk_journal_rows (
  batch_id text NOT NULL REFERENCES bulk_journal_batches (id),
  -- The row's line in the uploaded CSV (the header is line 1).
  line integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('CASH_JOURNAL', 'POSITION_JOURNAL')),
  client_request_id text NOT NULL UNIQUE,
  from_account text NOT NULL,
  to_account text NOT NULL,
  -- Cash: currency and amount; position: instrument and quantity.
  currency text,
  amount numeric,
  symbol text,
  quantity numeric,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
  upstream_status text,
  message text,
  attempts integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (batch_id, line)
);

-- A batch is always held, whatever its amounts: its rule has no threshold. A desk gets it once, like the defaults of
-- migration 0120, and an administrator may change its approvers; with it disabled a batch is refused, never sent unheld.
INSERT INTO approval_rules (action, currency, threshold, approvers_required, approver_roles, created_by)
SELECT 'movements.bulk_journals', NULL, NULL, 1, ARRAY['admin', 'operations'], 'default'
 WHERE NOT EXISTS (SELECT 1 FROM approval_rules WHERE action = 'movements.bulk_journals');
