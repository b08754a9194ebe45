import "server-only";
import type { Engine } from "@/server/db/engine";
import type { MovementKind } from "./changes";
import { fromEnvelope, ingest } from "./ingest";

/**
 * What the desk submits is written to the read model at submission, as a `desk` event (so a rebuild keeps it),
 * and then moved on by the upstream's events: the page shows it at once, with who asked for it, and never waits
 * on a poll. Keyed by the submission's own client id, so a retried submission records once.
 */
export async function recordDeskMovement(
  engine: Engine,
  m: {
    kind: MovementKind;
    clientRequestId: string;
    requestedBy: string;
    fields: Record<string, string | undefined>;
    /**
     * A step before or instead of sending (an approval request held, declined, withdrawn, expired): each its own
     * event, so the send's record, later, is a new event too and moves the row on.
     */
    stage?: string;
  },
): Promise<void> {
  const item = fromEnvelope(
    {
      id: `movement:${m.kind}:${m.clientRequestId}${m.stage ? `:${m.stage}` : ""}`,
      event_type: "DESK_MOVEMENT",
      account_id: m.fields.account_id ?? m.fields.from_account,
      payload: {
        ...m.fields,
        movement_kind: m.kind,
        client_request_id: m.clientRequestId,
        requested_by: m.requestedBy,
        status: m.fields.status ?? "SUBMITTED",
      },
    },
    "desk",
  );
  await ingest(engine, [item]);
}

export async function recordDeskOrder(
  engine: Engine,
  o: { accountId: string; clientOrderId: string; submittedBy: string; order: Record<string, unknown> },
): Promise<void> {
  const item = fromEnvelope(
    {
      id: `order:${o.accountId}:${o.clientOrderId}`,
      event_type: "DESK_ORDER",
      account_id: o.accountId,
      payload: { status: "SUBMITTED", ...o.order, account_id: o.accountId, client_order_id: o.clientOrderId, submitted_by: o.submittedBy },
    },
    "desk",
  );
  await ingest(engine, [item]);
}
