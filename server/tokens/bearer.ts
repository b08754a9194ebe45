import "server-only";
import { env } from "@/lib/env";
import type { TokenScope } from "@/lib/schemas/tokens";
import { staffOf, type Staff } from "@/server/auth/staff-access";
import { ENROL_FIRST } from "@/server/auth/enrolment";
import { metaFromHeaders } from "@/server/auth/request-meta";
import { getDb, type AppDb } from "@/server/db";
import { recordTokenCall } from "./queries";
import { hashSecret, isSecretShaped } from "./secret";

export type { TokenScope } from "@/lib/schemas/tokens";

/** Who a bearer token speaks for: its owner as the database has them now (role included), and what the token may do. */
export interface TokenCaller {
  staff: Staff;
  tokenId: string;
  scopes: readonly TokenScope[];
}

export type BearerResult =
  | { ok: true; caller: TokenCaller }
  | {
      ok: false;
      status: 401 | 403 | 429;
      error: "UNAUTHENTICATED" | "ENROL_FIRST" | "RATE_LIMITED";
      message: string;
      retryAfterSeconds?: number;
    };

/** What tests inject: the database, the clock, the limit (else the process database, now, `TOKEN_RATE_LIMIT_PER_MINUTE`). */
export interface BearerOptions {
  db?: AppDb;
  now?: Date;
  limitPerMinute?: number;
}

const WINDOW_MS = 60_000;
// One answer for every refusal: a caller learns nothing about which tokens exist or why one stopped.
const UNAUTHENTICATED = {
  ok: false,
  status: 401,
  error: "UNAUTHENTICATED",
  message: "Send a valid access token: Authorization: Bearer bdk_… (unknown, expired and revoked tokens are refused).",
} as const satisfies BearerResult;

/** The secret of `Authorization: Bearer <secret>`, or undefined. */
function bearerSecret(request: Request): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.get("authorization") ?? "");
  return match?.[1];
}

/**
 * Authenticates a call made with a staff access token (`Authorization: Bearer bdk_…`), in one statement looked up
 * by the secret's SHA-256: unknown, revoked or expired tokens and tokens of a disabled staff member are 401 (a
 * disabled owner at once; their signed-out sessions, a lockout or a password change are not the token's concern).
 * An owner whose role requires two-factor sign-in and who has not enrolled is 403 ENROL_FIRST, read by the same
 * statement (a token minted before the role required it, or before an authenticator's reset, waits for the
 * enrolment). The caller carries the owner's role as read now, so a role change applies at the next call. Each call
 * is counted in the token's one-minute window, shared by every app instance: past the limit it is 429 with the
 * seconds until the window ends, and its use is not recorded; within it the time and address are.
 */
export async function authenticateBearer(request: Request, options: BearerOptions = {}): Promise<BearerResult> {
  const secret = bearerSecret(request);
  if (!secret || !isSecretShaped(secret)) return UNAUTHENTICATED;
  const db = options.db ?? (await getDb());
  const now = options.now ?? new Date();
  const limit = options.limitPerMinute ?? env().TOKEN_RATE_LIMIT_PER_MINUTE;
  const use = await recordTokenCall(db.engine, hashSecret(secret), { now, ip: metaFromHeaders(request.headers).clientIp ?? null, limit });
  const staff = use && staffOf({ ...use, id: use.staffId });
  if (!use || !staff) return UNAUTHENTICATED;
  if (use.mustEnrol) return { ok: false, status: 403, error: ENROL_FIRST.code, message: ENROL_FIRST.message };
  if (use.windowCalls > limit) {
    const endsInMs = new Date(use.windowStartedAt).getTime() + WINDOW_MS - now.getTime();
    return {
      ok: false,
      status: 429,
      error: "RATE_LIMITED",
      message: `This token made more than ${limit} calls this minute. Try again shortly.`,
      retryAfterSeconds: Math.max(1, Math.ceil(endsInMs / 1000)),
    };
  }
  return {
    ok: true,
    caller: { staff, tokenId: use.id, scopes: use.scopes },
  };
}

/**
 * A refusal as the JSON answer of a route (`{ error, message }`), with `WWW-Authenticate` (naming the resource's
 * RFC 9728 metadata document when given, where MCP clients look) or `Retry-After`.
 */
export function bearerErrorResponse(failure: Extract<BearerResult, { ok: false }>, resourceMetadata?: string): Response {
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (failure.status === 401) {
    headers["www-authenticate"] = resourceMetadata
      ? `Bearer realm="brokerdesk", resource_metadata="${resourceMetadata}"`
      : 'Bearer realm="brokerdesk"';
  }
  if (failure.retryAfterSeconds !== undefined) headers["retry-after"] = String(failure.retryAfterSeconds);
  return Response.json({ error: failure.error, message: failure.message }, { status: failure.status, headers });
}
