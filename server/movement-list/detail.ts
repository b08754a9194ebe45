import "server-only";
import { NotFoundError } from "@/lib/errors";
import type { MovementDetail, MovementFull, MovementTimelineEntry, MovementUpstream } from "@/lib/schemas/movement-detail";
import type { BrokerClient } from "@/server/broker/client";
import type { Engine, Queryable } from "@/server/db/engine";
import { MOVEMENT_KINDS, type MovementKind } from "@/server/books/changes";
import { applyMovementSnapshot, DETAIL_CALL } from "@/server/books/snapshots";
import { selectMovement, selectMovementEvents } from "./queries/detail";
import { toMovementRow } from "./queries/list";

/** One movement from the read model, by its kind and client request id (the detail page's address). */
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,64}$/;

function notFound(): never {
  throw new NotFoundError("The desk has no record of this movement.");
}

export async function findMovement(q: Queryable, kind: string, clientRequestId: string): Promise<MovementFull> {
  if (!(MOVEMENT_KINDS as readonly string[]).includes(kind) || !CLIENT_ID.test(clientRequestId)) notFound();
  const r = await selectMovement(q, kind, clientRequestId);
  if (!r) notFound();
  return {
    ...toMovementRow(r),
    lastEventSeq: Number(r.last_event_seq),
    detailAt: r.detail_at ? new Date(r.detail_at).toISOString() : null,
  };
}

const json = (v: unknown): unknown => (typeof v === "string" ? JSON.parse(v) : (v ?? null));

export async function getMovementDetail(q: Queryable, kind: string, clientRequestId: string): Promise<MovementDetail> {
  const movement = await findMovement(q, kind, clientRequestId);
  const rows = await selectMovementEvents(q, movement.kind, movement.clientRequestId);
  const timeline = rows.map((t): MovementTimelineEntry => {
    const payload = json(t.payload) as Record<string, unknown> | null;
    const by = payload?.requested_by;
    return {
      seq: Number(t.seq),
      status: t.status,
      reason: t.reason,
      at: new Date(t.at).toISOString(),
      source: t.source,
      eventType: t.event_type,
      requestedBy: typeof by === "string" ? by : null,
      payload,
    };
  });
  return { movement, timeline };
}

/**
 * "Refresh from upstream": one live detail call (journals are read at their from-account), shown as received and
 * applied to the read model as the consumer's reconciliation does (a snapshot event only when the status differs or
 * the detail fills what the row lacks, such as an FX request's bought amount and rate, and only when no event moved
 * the row meanwhile).
 */
export async function refreshMovementFromUpstream(
  engine: Engine,
  client: BrokerClient,
  kind: string,
  clientRequestId: string,
): Promise<MovementUpstream> {
  const m = await findMovement(engine, kind, clientRequestId);
  const accountId = m.kind.endsWith("_JOURNAL") ? (m.fromAccount ?? m.accountId) : (m.accountId ?? m.fromAccount);
  if (!accountId) throw new NotFoundError("The desk does not know which account this movement is at, so the upstream cannot be asked.");
  let raw: unknown;
  let requestId: string | undefined;
  const call = client[DETAIL_CALL[m.kind as MovementKind]] as (
    i: { account_id: string; client_request_id: string },
    o: { onResponse: (info: { requestId?: string; body?: unknown }) => void },
  ) => Promise<Record<string, unknown>>;
  const detail = await call(
    { account_id: accountId, client_request_id: m.clientRequestId },
    { onResponse: (info) => ((raw = info.body), (requestId = info.requestId)) },
  );
  const applied = await applyMovementSnapshot(
    engine,
    {
      kind: m.kind as MovementKind,
      client_request_id: m.clientRequestId,
      account_id: accountId,
      status: m.status,
      last_event_seq: String(m.lastEventSeq),
    },
    detail,
  );
  const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
  return { fetchedAt: new Date().toISOString(), requestId, status: str(detail.status), reason: str(detail.reason), applied, detail, raw };
}
