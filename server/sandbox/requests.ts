import "server-only";
import type { Queryable, Tx } from "@/server/db/engine";
import { findAccount } from "./account-store";
import type { Sandbox } from "./context";
import { business, illegal } from "./errors";
import { bodyHash, newId } from "./ids";
import { emitRequestEvent } from "./trading/events/outbox";

/**
 * client_request_id-keyed requests. The (kind, client_request_id) primary key is the idempotency key: the same id
 * with the same body returns the first result; the same id with another body is 417 DUPLICATE_CLIENT_REQUEST_ID.
 * On a PostgreSQL server a concurrent duplicate waits on the unique index and then sees the committed first row.
 */
export type RequestKind =
  "ACCOUNT_CREATE" | "ACCOUNT_UPDATE" | "FX_EXCHANGE" | "INSTANT_EXCHANGE" | "INSTANT_FUNDING" | "CASH_JOURNAL" | "POSITION_JOURNAL";
export const MOVEMENT_KINDS = ["FX_EXCHANGE", "INSTANT_EXCHANGE", "INSTANT_FUNDING", "CASH_JOURNAL", "POSITION_JOURNAL"] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

export type RequestStatus = "SUBMITTED" | "CANCELED" | "REJECTED" | "FAILED" | "COMPLETED";

export interface RequestRow {
  kind: RequestKind;
  client_request_id: string;
  id: string;
  account_id: string;
  body_hash: string;
  status: RequestStatus;
  reason: string | null;
  payload: Record<string, string>;
  result: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const CLIENT_REQUEST_ID_RE = /^[A-Za-z0-9_-]{1,32}$/;

export function clientRequestId(body: Record<string, unknown>): string {
  const id = body.client_request_id;
  if (typeof id !== "string" || !CLIENT_REQUEST_ID_RE.test(id)) {
    throw illegal("client_request_id is required: 1 to 32 characters of A-Z a-z 0-9 _ -.");
  }
  return id;
}

/**
 * Inserts the request row, or returns the existing one for a repeated id. `fresh` tells the caller whether this
 * call created it (and so must process it).
 */
export async function claim(
  tx: Tx,
  r: { kind: RequestKind; clientRequestId: string; accountId: string; body: unknown; payload: Record<string, string>; id?: string },
  at: Date,
): Promise<{ row: RequestRow; fresh: boolean }> {
  const hash = bodyHash(r.body);
  const { rows } = await tx.query<RequestRow>(
    `INSERT INTO sandbox.requests (kind, client_request_id, id, account_id, body_hash, status, payload, created_at, updated_at)
     VALUES ($1,$2,$3,$4,$5,'SUBMITTED',$6,$7,$7) ON CONFLICT (kind, client_request_id) DO NOTHING RETURNING *`,
    [r.kind, r.clientRequestId, r.id ?? newId(), r.accountId, hash, JSON.stringify(r.payload), at],
  );
  if (rows[0]) return { row: rows[0], fresh: true };
  const existing = await getRequest(tx, r.kind, r.clientRequestId);
  if (!existing || existing.body_hash !== hash) {
    throw business("DUPLICATE_CLIENT_REQUEST_ID", `client_request_id ${r.clientRequestId} was already used with a different request.`);
  }
  return { row: existing, fresh: false };
}

export async function getRequest(db: Queryable, kind: RequestKind, clientRequestId: string): Promise<RequestRow | undefined> {
  const { rows } = await db.query<RequestRow>("SELECT * FROM sandbox.requests WHERE kind = $1 AND client_request_id = $2", [
    kind,
    clientRequestId,
  ]);
  return rows[0];
}

export async function finish(
  tx: Queryable,
  row: RequestRow,
  outcome: { status: RequestStatus; reason?: string; result?: Record<string, unknown> },
  at: Date,
): Promise<RequestRow> {
  const { rows } = await tx.query<RequestRow>(
    `UPDATE sandbox.requests SET status = $3, reason = $4, result = $5, updated_at = $6
      WHERE kind = $1 AND client_request_id = $2 RETURNING *`,
    [row.kind, row.client_request_id, outcome.status, outcome.reason ?? null, JSON.stringify(outcome.result ?? row.result), at],
  );
  // Part 2's event stream: account, funding and journal events are written in the transaction that finishes the request.
  await emitRequestEvent(tx, rows[0], at);
  return rows[0];
}

/** Detail lookups take client_request_id and account_id (for journals: the from-account). */
export async function requireRequest(sb: Sandbox, kind: RequestKind, query: Record<string, string>): Promise<RequestRow> {
  const crid = query.client_request_id;
  if (!crid) throw illegal("client_request_id is required.");
  if (!query.account_id) throw illegal("account_id is required.");
  const row = await getRequest(sb.engine, kind, crid);
  const account = await findAccount(sb.engine, query.account_id);
  if (!row || row.account_id !== account?.account_id) {
    throw business("REQUEST_NOT_FOUND", `No request with client_request_id ${crid} for account ${query.account_id}.`);
  }
  return row;
}
