-- Four-eyes approvals (server/approvals). Rules are data edited by admins; a request that meets a rule is stored
-- exactly as it will be sent (payload, its client_request_id, a hash of its canonical JSON) and waits for other
-- people's decisions. Executing it is claimed by one UPDATE (status pending → executing), so it is sent once.
CREATE TABLE approval_rules (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The approvable action's rule key, e.g. movements.cash_journal or movements.instant_funding.DEPOSIT.
  action text NOT NULL,
  -- NULL: any currency.
  currency text,
  -- NULL: always; otherwise only amounts above it.
  threshold numeric CHECK (threshold IS NULL OR threshold >= 0),
  approvers_required integer NOT NULL CHECK (approvers_required BETWEEN 1 AND 3),
  approver_roles text[] NOT NULL CHECK (cardinality(approver_roles) > 0),
  enabled boolean NOT NULL DEFAULT true,
  created_by text NOT NULL,
  updated_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX approval_rules_action ON approval_rules (action) WHERE enabled;

CREATE TABLE approval_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The operation's action name (its audit name, e.g. movements.cash_journal) and the rule key that held it.
  action text NOT NULL,
  rule_action text NOT NULL,
  target text NOT NULL,
  -- The request exactly as it will be sent.
  payload jsonb NOT NULL,
  client_request_id text,
  payload_hash text NOT NULL,
  summary text NOT NULL,
  -- Before → after, for updates.
  diff jsonb,
  currency text,
  amount numeric,
  rule_id uuid REFERENCES approval_rules (id) ON DELETE SET NULL,
  approvers_required integer NOT NULL CHECK (approvers_required BETWEEN 1 AND 3),
  approver_roles text[] NOT NULL,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'executing', 'executed', 'failed', 'rejected', 'withdrawn', 'expired')),
  maker_id uuid NOT NULL,
  maker_email text NOT NULL,
  maker_role text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  decided_at timestamptz,
  executed_at timestamptz,
  upstream_request_id text,
  result jsonb,
  error text
);
-- One pending request per action, target and payload: the same submission twice waits once.
CREATE UNIQUE INDEX approval_requests_one_pending ON approval_requests (action, target, payload_hash) WHERE status = 'pending';
CREATE INDEX approval_requests_expiring ON approval_requests (expires_at) WHERE status = 'pending';
CREATE INDEX approval_requests_created ON approval_requests (created_at DESC, id DESC);

CREATE TABLE approval_decisions (
  id bigserial PRIMARY KEY,
  request_id uuid NOT NULL REFERENCES approval_requests (id),
  approver_id uuid NOT NULL,
  approver_email text NOT NULL,
  approver_role text NOT NULL,
  decision text NOT NULL CHECK (decision IN ('approve', 'reject')),
  reason text,
  at timestamptz NOT NULL DEFAULT now(),
  -- Nobody decides twice.
  UNIQUE (request_id, approver_id),
  CHECK (decision = 'approve' OR (reason IS NOT NULL AND length(btrim(reason)) > 0))
);
