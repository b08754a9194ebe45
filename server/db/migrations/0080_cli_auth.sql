-- Two-factor sign-in and the command line's credentials (server/two-factor, server/cli-auth). Secrets the desk must
-- read back (a TOTP secret, an access key's secret for HMAC verification) are stored sealed: AES-256-GCM under a key
-- derived from AUTH_SECRET (server/secrets/seal.ts), bound to their row, so a copy of the database alone reveals none.

-- A staff member's authenticator (RFC 6238: SHA-1, 6 digits, 30 s). Pending until a first code confirms it;
-- `last_step` is the time step of the last code accepted: a code of that step or an earlier one is refused (replay).
CREATE TABLE staff_totp (
  staff_id uuid PRIMARY KEY REFERENCES staff_users (id),
  secret_sealed text NOT NULL,
  created_at timestamptz NOT NULL,
  confirmed_at timestamptz,
  last_step bigint
);

-- Wrong codes, counted per staff member over the last 15 minutes (sign-in and command line alike): past the limit
-- no code is accepted until the oldest one in the window is old enough.
CREATE TABLE totp_failures (
  staff_id uuid NOT NULL REFERENCES staff_users (id),
  at timestamptz NOT NULL
);
CREATE INDEX totp_failures_by_staff ON totp_failures (staff_id, at);

-- The roles whose members must sign in with a code (Admin → Staff); a role without a row needs none.
CREATE TABLE role_two_factor (
  role text PRIMARY KEY CHECK (role IN ('admin', 'operations', 'support', 'compliance')),
  required boolean NOT NULL,
  updated_at timestamptz NOT NULL,
  updated_by uuid REFERENCES staff_users (id)
);

-- Access keys of the command line: a public id (`bdak_…`) and a secret (`bdsk_…`, sealed) that signs every request.
-- Scopes as the access tokens' (read, or read and write). Counted per minute like a token (`window_*`).
CREATE TABLE cli_access_keys (
  id text PRIMARY KEY CHECK (id ~ '^bdak_[A-Za-z0-9_-]{20}$'),
  staff_id uuid NOT NULL REFERENCES staff_users (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  secret_sealed text NOT NULL,
  scopes text[] NOT NULL CHECK (scopes <@ ARRAY['read', 'write']::text[] AND 'read' = ANY (scopes)),
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  last_used_ip text,
  revoked_at timestamptz,
  revoked_by uuid REFERENCES staff_users (id),
  window_started_at timestamptz,
  window_calls integer NOT NULL DEFAULT 0
);
CREATE INDEX cli_access_keys_by_staff ON cli_access_keys (staff_id, created_at DESC, id DESC);
CREATE INDEX cli_access_keys_by_created ON cli_access_keys (created_at DESC, id DESC);

-- Nonces of signed requests, one row per key and nonce while the request's timestamp is acceptable (every app
-- instance sees them); expired rows of a key are removed by its next request.
CREATE TABLE cli_request_nonces (
  key_id text NOT NULL REFERENCES cli_access_keys (id),
  nonce text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (key_id, nonce)
);

-- Command-line sessions (`bdcs_…`, kept as SHA-256 hex), made by a login with a code and bound to the access key
-- that signed it: they end at `expires_at`, with the key's revocation, or while their owner is disabled.
CREATE TABLE cli_sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  key_id text NOT NULL REFERENCES cli_access_keys (id),
  staff_id uuid NOT NULL REFERENCES staff_users (id),
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL CHECK (expires_at > created_at),
  ended_at timestamptz
);
CREATE INDEX cli_sessions_by_key ON cli_sessions (key_id);
