-- The status facility's incidents (server/status): a module that left `operational` (after hysteresis) opens one,
-- and its return for the hysteresis period closes it.
CREATE TABLE status_incidents (
  id bigserial PRIMARY KEY,
  module text NOT NULL,            -- a StatusModule
  state text NOT NULL,             -- 'degraded' | 'outage' (the worst state reached; updated while open)
  started_at timestamptz NOT NULL,
  ended_at timestamptz,            -- NULL while open
  evidence jsonb NOT NULL DEFAULT '{}'  -- error rate, latency, sample counts, probe results
);
CREATE INDEX status_incidents_open ON status_incidents (module) WHERE ended_at IS NULL;
