-- The status facility (server/status): evidence buckets every instance writes, each module's state with its
-- hysteresis streak, incidents, daily uptime, and the claim row that keeps one evaluation per period.
CREATE TABLE status_incidents (
  id bigserial PRIMARY KEY,
  module text NOT NULL,
  state text NOT NULL CHECK (state IN ('degraded', 'outage')),
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  evidence jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX status_incidents_open ON status_incidents (module) WHERE ended_at IS NULL;
CREATE INDEX status_incidents_module_started ON status_incidents (module, started_at DESC);

-- Calls a process made, summed per module, bucket (a few seconds) and source ('call' or 'probe').
CREATE TABLE status_samples (
  module text NOT NULL,
  bucket timestamptz NOT NULL,
  source text NOT NULL CHECK (source IN ('call', 'probe')),
  calls integer NOT NULL DEFAULT 0,
  failures integer NOT NULL DEFAULT 0,
  slow integer NOT NULL DEFAULT 0,
  latency_ms_sum bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (module, bucket, source)
);
CREATE INDEX status_samples_bucket ON status_samples (bucket);

CREATE TABLE status_modules (
  module text PRIMARY KEY,
  state text NOT NULL DEFAULT 'unknown',
  since timestamptz NOT NULL DEFAULT now(),
  -- The state the last evaluations pointed to and how many in a row (the hysteresis).
  candidate text,
  streak integer NOT NULL DEFAULT 0,
  evidence jsonb NOT NULL DEFAULT '{}',
  evaluated_at timestamptz
);

-- Per module and UTC day: evaluations seen and those operational (the 90-day bars).
CREATE TABLE status_daily (
  module text NOT NULL,
  day date NOT NULL,
  evaluations integer NOT NULL DEFAULT 0,
  operational integer NOT NULL DEFAULT 0,
  known integer NOT NULL DEFAULT 0,
  PRIMARY KEY (module, day)
);

CREATE TABLE status_evaluator (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  evaluated_at timestamptz NOT NULL DEFAULT 'epoch'
);
INSERT INTO status_evaluator DEFAULT VALUES;
