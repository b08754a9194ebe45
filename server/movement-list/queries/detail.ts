import "server-only";
import type { Queryable } from "@/server/db/engine";
import { MOVEMENT_COLUMNS_SQL, type MovementDbRow } from "./list";

/** One movement's reads for its detail page: the row and its events. */

export async function selectMovement(
  q: Queryable,
  kind: string,
  clientRequestId: string,
): Promise<(MovementDbRow & { last_event_seq: string; detail_at: Date | null }) | undefined> {
  const { rows } = await q.query<MovementDbRow & { last_event_seq: string; detail_at: Date | null }>(
    `SELECT ${MOVEMENT_COLUMNS_SQL}, m.last_event_seq::text AS last_event_seq, m.detail_at
       FROM brokerdesk.money_movements m WHERE m.kind = $1 AND m.client_request_id = $2`,
    [kind, clientRequestId],
  );
  return rows[0];
}

export interface MovementEventRow {
  seq: string;
  status: string;
  reason: string | null;
  at: Date;
  source: string | null;
  event_type: string | null;
  payload: unknown;
}

/** The movement's events in seq order, with the stored event each came from. */
export async function selectMovementEvents(q: Queryable, kind: string, clientRequestId: string): Promise<MovementEventRow[]> {
  const { rows } = await q.query<MovementEventRow>(
    `SELECT e.event_seq::text AS seq, e.status, e.reason, e.at, u.source, u.event_type, u.payload
       FROM brokerdesk.movement_events e LEFT JOIN brokerdesk.upstream_events u ON u.seq = e.event_seq
      WHERE e.kind = $1 AND e.client_request_id = $2 ORDER BY e.event_seq`,
    [kind, clientRequestId],
  );
  return rows;
}
