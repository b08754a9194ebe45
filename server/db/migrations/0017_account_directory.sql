-- Account numbers by upstream account id, learnt from what the desk already reads (account lists and details), so
-- pages that hold only ids (the audit trail) can name an account without an upstream call. Not PII.
CREATE TABLE account_directory (
  account_id text PRIMARY KEY,
  account_number text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
