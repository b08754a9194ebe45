-- A gap backfill: the stream could not resume from the books' own point (none stored while a backfill had finished,
-- or the upstream answered another resume point than the one asked for), so the events after `gap_from` may never
-- come; the run reads the accounts' orders again (server/events/gaps.ts).
ALTER TABLE sync_runs ADD COLUMN gap_from timestamptz;
