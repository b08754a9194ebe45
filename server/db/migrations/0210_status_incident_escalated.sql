-- When an incident that opened as degraded became an outage (incidents only get worse, so once at most). The status
-- mail waits out its debounce from here too, so that its first mail names the state the incident settled in, not the
-- degraded minute an outage's first failures read as.
ALTER TABLE status_incidents ADD COLUMN escalated_at timestamptz;
