import "server-only";
import type { Queryable } from "@/server/db/engine";

/** The consumer's SQL: its row in brokerdesk.event_stream (the leader's lease: lease.ts). */

/**
 * Sets the given columns of the stream's row (`countReconnect` adds one to the reconnect count). "Down since" is when
 * it went down, not the latest failed attempt: kept while the stream stays down.
 */
export async function updateStreamRow(q: Queryable, fields: Record<string, unknown>, countReconnect: boolean): Promise<void> {
  const keys = Object.keys(fields);
  const sets = keys.map((k, i) =>
    k === "disconnected_at"
      ? `${k} = CASE WHEN connected OR disconnected_at IS NULL THEN $${i + 1} ELSE disconnected_at END`
      : `${k} = $${i + 1}`,
  );
  if (countReconnect) sets.push("reconnects = reconnects + 1");
  await q.query(
    `UPDATE brokerdesk.event_stream SET ${sets.join(", ")} WHERE id = 'upstream'`,
    keys.map((k) => fields[k]),
  );
}

/** The last stored event's id: where a subscription resumes. */
export async function selectResumePoint(q: Queryable): Promise<string | undefined> {
  const { rows } = await q.query<{ last_event_id: string | null }>(
    "SELECT last_event_id FROM brokerdesk.event_stream WHERE id = 'upstream'",
  );
  return rows[0]?.last_event_id ?? undefined;
}

/** Stores the upstream's resume point while the books hold none (a stored event's id is never replaced). */
export async function adoptResumePoint(q: Queryable, lastEventId: string): Promise<void> {
  await q.query("UPDATE brokerdesk.event_stream SET last_event_id = $1 WHERE id = 'upstream' AND last_event_id IS NULL", [lastEventId]);
}

/** Whether a reconnect was asked for after the current connection began (one made while no consumer led still counts). */
export async function reconnectRequested(q: Queryable): Promise<boolean> {
  const { rows } = await q.query<{ reconnect: boolean }>(
    "SELECT reconnect_requested_at > COALESCE(connected_at, '-infinity') AND connected AS reconnect FROM brokerdesk.event_stream WHERE id = 'upstream'",
  );
  return rows[0]?.reconnect === true;
}
