-- Verified marks of the audit chain: verification after the last mark reads only the entries after it.
CREATE TABLE audit_checkpoints (
  seq bigint PRIMARY KEY,
  hash text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('full', 'incremental')),
  checked bigint NOT NULL,
  verified_at timestamptz NOT NULL DEFAULT now()
);
CREATE FUNCTION audit_checkpoints_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_checkpoints is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_checkpoints_no_update_delete BEFORE UPDATE OR DELETE ON audit_checkpoints
  FOR EACH ROW EXECUTE FUNCTION audit_checkpoints_reject_change();
CREATE TRIGGER audit_checkpoints_no_truncate BEFORE TRUNCATE ON audit_checkpoints
  FOR EACH STATEMENT EXECUTE FUNCTION audit_checkpoints_reject_change();
