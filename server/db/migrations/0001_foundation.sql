-- Staff users, the append-only audit trail, and the upstream access token.
CREATE TABLE staff_users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL UNIQUE CHECK (email = lower(email)),
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'operations', 'support', 'compliance')),
  password_hash text NOT NULL,
  disabled boolean NOT NULL DEFAULT false,
  failed_attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  last_sign_in_at timestamptz,
  -- Sessions issued before this moment are void (sign-out ends every session of the user).
  sessions_revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE audit_entries (
  seq bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  actor_id uuid,
  actor_email text,
  actor_role text,
  action text NOT NULL,
  target text,
  input jsonb,
  upstream_request_id text,
  idempotency_key text,
  outcome text NOT NULL CHECK (outcome IN ('success', 'failure', 'denied')),
  error_code text,
  client_ip text,
  user_agent text,
  prev_hash text NOT NULL,
  hash text NOT NULL UNIQUE
);
CREATE INDEX audit_entries_at_idx ON audit_entries (at DESC);
CREATE INDEX audit_entries_action_idx ON audit_entries (action);
CREATE INDEX audit_entries_actor_idx ON audit_entries (actor_email);

-- The trail is append-only: the database itself refuses to change or remove an entry.
CREATE FUNCTION audit_entries_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_entries is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_entries_no_update_delete BEFORE UPDATE OR DELETE ON audit_entries
  FOR EACH ROW EXECUTE FUNCTION audit_entries_reject_change();
CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
  FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_reject_change();

CREATE TABLE broker_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  base_url text NOT NULL,
  app_key text NOT NULL,
  token text NOT NULL,
  status text NOT NULL,
  expires_at timestamptz,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  checked_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX broker_tokens_latest_idx ON broker_tokens (base_url, app_key, created_at DESC);
