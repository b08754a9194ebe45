-- How far a job that works over the stored events has got (server/jobs): the surveillance evaluation reads the
-- read-model rows whose last event is after its seq. Starts at the events already stored: those were evaluated
-- inside their projection before the evaluation became a job.
CREATE TABLE job_watermarks (
  name text PRIMARY KEY,
  seq bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO job_watermarks (name, seq) SELECT 'surveillance', COALESCE(max(seq), 0) FROM upstream_events;
