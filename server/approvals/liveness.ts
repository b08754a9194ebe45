/**
 * How a claimed request's execution shows its process is alive (no framework imports: the job process reads it).
 * The executing process beats `alive_at` every BEAT_MS while it sends, however long its upstream call takes; an
 * execution with no sign of its process for STUCK_AFTER_MS has lost it, and the minute job asks the upstream what
 * became of it (recover.ts).
 */
export const BEAT_MS = 5_000;
export const STUCK_AFTER_MS = 30_000;
