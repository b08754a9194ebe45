import "server-only";
import { timingSafeEqual } from "node:crypto";
import { NONCE_PATTERN, sign, SIGNATURE_HEADERS, type SigningParts } from "@/cli/src/signing";
import { env } from "@/lib/env";
import type { TokenScope } from "@/lib/schemas/tokens";
import { staffOf, type Staff } from "@/server/auth/staff-access";
import { metaFromHeaders } from "@/server/auth/request-meta";
import { getDb, type AppDb } from "@/server/db";
import { isBodyTooLarge } from "@/server/http/body";
import { logger } from "@/server/log";
import { isAccessKeyId, secretOf } from "./keys";
import { insertNonce, recordKeyCall, selectSigningKey } from "./queries";

/**
 * Verifies a signed command-line request (cli/src/signing.ts computes what the signature covers): the access key
 * (unknown, revoked, or its owner disabled: UNKNOWN_KEY), the signature (BAD_SIGNATURE), the timestamp within five
 * minutes of the desk's clock (STALE_TIMESTAMP), the key's calls this minute (RATE_LIMITED), and the nonce never
 * seen for the key while its request could still be accepted (REPLAYED_NONCE; kept in PostgreSQL, so every app
 * instance sees it). In that order: nothing about a request is answered or stored before its signature holds. The
 * body is read only once the key is known, and at most its cap (server/http/body.ts: 413 REQUEST_TOO_LARGE).
 */

export const TIMESTAMP_TOLERANCE_MS = 5 * 60_000;
const WINDOW_MS = 60_000;

/** An access key that signed a request, with its owner as the database has them now. */
export interface SigningKey {
  id: string;
  scopes: readonly TokenScope[];
  staff: Staff;
}

export type CliErrorCode =
  | "UNKNOWN_KEY"
  | "BAD_SIGNATURE"
  | "STALE_TIMESTAMP"
  | "REPLAYED_NONCE"
  | "RATE_LIMITED"
  | "NOT_LOGGED_IN"
  | "SESSION_EXPIRED"
  | "NOT_ENROLLED"
  | "WRONG_CODE"
  | "BAD_REQUEST"
  | "REQUEST_TOO_LARGE";

/** A refused command-line request: its answer, and the key when it was known (the login's audit entry names its owner). */
export interface CliRefusal {
  ok: false;
  status: 400 | 401 | 413 | 429;
  error: CliErrorCode;
  message: string;
  retryAfterSeconds?: number;
  key?: SigningKey;
}

/** What tests inject: the database, the clock, the per-key limit (else the process's, now, TOKEN_RATE_LIMIT_PER_MINUTE). */
export interface CliOptions {
  db?: AppDb;
  now?: Date;
  limitPerMinute?: number;
}

/** Whether `signature` is the request's signature under `secret`, compared in constant time. */
function signatureMatches(secret: string, parts: SigningParts, signature: string): boolean {
  const expected = Buffer.from(sign(secret, parts), "base64");
  const given = Buffer.from(signature, "base64");
  // Buffer.from skips what is not base64: the given text must also be exactly the canonical encoding.
  return given.length === expected.length && given.toString("base64") === signature && timingSafeEqual(expected, given);
}

/** The key's secret; undefined (and logged) when it cannot be unsealed: AUTH_SECRET changed since the key was made. */
function readableSecret(id: string, sealed: string): string | undefined {
  try {
    return secretOf(id, sealed);
  } catch (err) {
    logger.error({ keyId: id, err }, "an access key's sealed secret cannot be read: was AUTH_SECRET changed?");
    return undefined;
  }
}

const refusal = (error: CliErrorCode, message: string, key?: SigningKey): CliRefusal => ({ ok: false, status: 401, error, message, key });

/** `signedBody`: the body's bytes, or their reader, called once the key is known (an unknown key's body is never read). */
export async function verifySignedRequest(
  request: Request,
  signedBody: Uint8Array | (() => Promise<Uint8Array>),
  options: CliOptions = {},
): Promise<{ ok: true; key: SigningKey } | CliRefusal> {
  const h = (name: string) => request.headers.get(name) ?? "";
  const keyId = h(SIGNATURE_HEADERS.key);
  if (!isAccessKeyId(keyId)) return refusal("UNKNOWN_KEY", "Sign the request with an access key: x-brokerdesk-key bdak_….");
  const db = options.db ?? (await getDb());
  const row = await selectSigningKey(db.engine, keyId);
  const staff = row && staffOf({ ...row, id: row.staffId });
  if (!row || !staff) {
    return refusal("UNKNOWN_KEY", "This access key is unknown or revoked: create one on Settings → Command line.");
  }
  const key: SigningKey = { id: row.id, scopes: row.scopes, staff };

  const secret = readableSecret(row.id, row.secretSealed);
  if (!secret) return refusal("UNKNOWN_KEY", "This access key can no longer be used: create another on Settings → Command line.");

  let body: Uint8Array;
  try {
    body = typeof signedBody === "function" ? await signedBody() : signedBody;
  } catch (e) {
    if (!isBodyTooLarge(e)) throw e;
    return { ok: false, status: 413, error: "REQUEST_TOO_LARGE", message: e.userMessage, key };
  }
  const timestamp = h(SIGNATURE_HEADERS.timestamp);
  const nonce = h(SIGNATURE_HEADERS.nonce);
  const url = new URL(request.url);
  const parts = { method: request.method, path: url.pathname, query: url.searchParams, body, timestamp, nonce };
  if (!/^\d{1,15}$/.test(timestamp) || !NONCE_PATTERN.test(nonce) || !signatureMatches(secret, parts, h(SIGNATURE_HEADERS.signature))) {
    return refusal("BAD_SIGNATURE", "The request's signature does not match: check the secret key and the signing of the request.", key);
  }

  const now = options.now ?? new Date();
  const sentAt = Number(timestamp);
  if (Math.abs(now.getTime() - sentAt) > TIMESTAMP_TOLERANCE_MS) {
    return refusal(
      "STALE_TIMESTAMP",
      "The request's timestamp is more than 5 minutes from the desk's clock: check this computer's clock.",
      key,
    );
  }

  const limit = options.limitPerMinute ?? env().TOKEN_RATE_LIMIT_PER_MINUTE;
  const use = await recordKeyCall(db.engine, key.id, { now, ip: metaFromHeaders(request.headers).clientIp ?? null, limit });
  if (use && use.windowCalls > limit) {
    const endsInMs = new Date(use.windowStartedAt).getTime() + WINDOW_MS - now.getTime();
    return {
      ok: false,
      status: 429,
      error: "RATE_LIMITED",
      message: `This access key made more than ${limit} requests this minute. Try again shortly.`,
      retryAfterSeconds: Math.max(1, Math.ceil(endsInMs / 1000)),
      key,
    };
  }

  // Kept while a request with this timestamp could be accepted at all: after that it is refused as stale anyway.
  if (!(await insertNonce(db.engine, key.id, nonce, now, new Date(sentAt + TIMESTAMP_TOLERANCE_MS + 1000)))) {
    return refusal("REPLAYED_NONCE", "This request was sent before (its nonce was used): send each request with a new nonce.", key);
  }
  return { ok: true, key };
}

/** A refusal as the JSON answer (`{ error, message }`), no-store, with Retry-After when rate limited. */
export function cliRefusalResponse(failure: CliRefusal): Response {
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (failure.retryAfterSeconds !== undefined) headers["retry-after"] = String(failure.retryAfterSeconds);
  return Response.json({ error: failure.error, message: failure.message }, { status: failure.status, headers });
}
