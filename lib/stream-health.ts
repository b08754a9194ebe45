/** The upstream event stream's health, as the desk's pages and banner read it (plain types: both sides). */
export type StreamState = "connected" | "silent" | "down" | "no-consumer";

export interface StreamStatus {
  state: StreamState;
  /** When the current state began, when known. */
  since?: string;
  checkedAt: string;
}

export interface SyncRunView {
  id: string;
  status: string;
  requestedBy?: string;
  startedAt: string;
  finishedAt?: string;
  total?: number;
  done: number;
  checked: number;
  fixed: number;
  errors: number;
  lastError?: string;
}

/**
 * A run's progress as the stream page words it: "3 of 40" once its total is known (a run with nothing to do: "0 of 0"),
 * "12 so far" while one still running has not counted it, and the count alone for one that ended without a total.
 */
export function runProgress(run: Pick<SyncRunView, "status" | "total" | "done">): string {
  const n = (v: number) => v.toLocaleString("en-GB");
  if (run.total !== undefined) return `${n(run.done)} of ${n(run.total)}`;
  return run.status === "running" ? `${n(run.done)} so far` : n(run.done);
}

export interface StreamHealth extends StreamStatus {
  leader?: string;
  heartbeatAt?: string;
  connected: boolean;
  connectedAt?: string;
  disconnectedAt?: string;
  lastEventId?: string;
  lastEventAt?: string;
  lastReceivedAt?: string;
  lastPingAt?: string;
  reconnects: number;
  unknownCount: number;
  malformedCount: number;
  lastError?: string;
  lagP50Ms?: number;
  lagP99Ms?: number;
  eventsPerMinute: { minute: string; count: number }[];
  backfill?: SyncRunView;
  reconciliation?: SyncRunView;
}

export const STREAM_STATE_LABELS: Record<StreamState, string> = {
  connected: "Connected",
  silent: "Silent",
  down: "Down",
  "no-consumer": "No consumer running",
};

/** The banner across the desk: the stream has been other than connected for longer than `afterMs`. */
export function streamAlert(s: StreamStatus | undefined, afterMs: number): boolean {
  if (!s || s.state === "connected") return false;
  if (!s.since) return true;
  return new Date(s.checkedAt).getTime() - new Date(s.since).getTime() > afterMs;
}

/** Live change notices: which TanStack Query keys (their first element) each topic makes stale. */
export const LIVE_TOPIC_QUERY_ROOTS: Record<string, string[]> = {
  order: ["orders"],
  movement: ["movements"],
  account: ["accounts"],
  stream: ["stream-health"],
  alert: ["alerts"],
  // Sent with every audit entry (server/audit/trail.ts): the trail, a staff user's change, an approval's life.
  audit: ["audit"],
  staff: ["staff"],
  approval: ["approvals"],
  token: ["tokens", "tokens-all"],
  "access-key": ["access-keys", "access-keys-all"],
  // The sweep's progress and "as of" only: the explorer offers a refresh rather than moving rows under the reader.
  activities: ["activities-status"],
  // An upstream module's state changed: the status page reads it again.
  status: ["status"],
  // A bulk statements run was asked for, moved on an account or finished: its page reads the runs again.
  statements: ["statement-runs"],
  // A reconciliation run moved on or finished, or a break was assigned, commented on or closed.
  reconciliation: ["reconciliation-runs", "breaks"],
  // A scheduled report's run was queued, done or failed, or one of its mails left: Admin → Reports reads its runs again.
  reports: ["report-runs"],
};

/** The topics whose notices make the queries under `root` stale (LIVE_TOPIC_QUERY_ROOTS read the other way). */
export function topicsOfQueryRoot(root: string): string[] {
  return Object.keys(LIVE_TOPIC_QUERY_ROOTS).filter((t) => LIVE_TOPIC_QUERY_ROOTS[t].includes(root));
}
