-- A claimed request's execution beats `alive_at` while its process sends it, so a request whose process died is told
-- from a slow one within seconds, not after a fixed ten minutes; `checking_since` is when the recovery (the minute
-- job or an admin's request) first asked the upstream about it (server/approvals/recover.ts).
ALTER TABLE approval_requests ADD COLUMN alive_at timestamptz;
ALTER TABLE approval_requests ADD COLUMN checking_since timestamptz;
CREATE INDEX approval_requests_executing ON approval_requests (decided_at) WHERE status = 'executing';
