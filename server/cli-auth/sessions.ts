import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { SIGNATURE_HEADERS } from "@/cli/src/signing";
import { env } from "@/lib/env";
import type { TokenScope } from "@/lib/schemas/tokens";
import { appendAudit } from "@/server/audit/trail";
import { metaFromHeaders } from "@/server/auth/request-meta";
import type { RequestMeta } from "@/server/auth/staff";
import { getDb, type AppDb } from "@/server/db";
import { readBody } from "@/server/http/body";
import { checkCode } from "@/server/two-factor/two-factor";
import { isAccessKeyId } from "./keys";
import { endCliSessionsOf, insertCliSession, selectLiveSession } from "./queries";
import { verifySignedRequest, type CliOptions, type CliRefusal, type SigningKey } from "./verify";

/**
 * Command-line sessions: `POST /api/cli/login`, signed, with a code from the staff member's authenticator, makes a
 * session (`bdcs_…`, kept as its SHA-256) for CLI_SESSION_HOURS, bound to the access key that signed the login.
 * Every later request is signed by that key and carries the session as `Authorization: Bearer bdcs_…`.
 */

const SESSION_PATTERN = /^bdcs_[A-Za-z0-9_-]{43}$/;
const hashOf = (session: string) => createHash("sha256").update(session, "utf8").digest("hex");

/** Who a command-line request acts for: the key's owner as they are now, the key's scopes, the session's end. */
export interface CliCaller {
  key: SigningKey;
  expiresAt: Date;
}

export interface LoginAnswer {
  session: string;
  expires_at: string;
  staff: { email: string; name: string; role: string };
  scopes: TokenScope[];
}

export interface LoginOptions extends CliOptions {
  sessionHours?: number;
}

const loginBody = z.object({ code: z.string().max(32) });

/**
 * The request's body bytes, read once, when first asked for, from a copy (the route still reads the request itself),
 * at most BODY_LIMIT_BYTES of them (`readBody`: a larger one throws REQUEST_TOO_LARGE, the rest never read).
 */
function bodyOf(request: Request): () => Promise<Uint8Array> {
  let read: Promise<Uint8Array> | undefined;
  return () => (read ??= readBody(request, { copy: true }));
}

type LoginResult = { ok: true; answer: LoginAnswer } | CliRefusal;

async function codeLogin(key: SigningKey, body: Uint8Array, o: LoginOptions): Promise<LoginResult> {
  let parsed;
  try {
    parsed = loginBody.safeParse(JSON.parse(Buffer.from(body).toString("utf8")));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) {
    return { ok: false, status: 400, error: "BAD_REQUEST", message: 'Send JSON: { "code": "123456" }.', key };
  }
  const db = o.db ?? (await getDb());
  const now = o.now ?? new Date();
  const check = await checkCode(db, key.staff.id, parsed.data.code.trim(), now);
  if (!check.ok) {
    if (check.reason === "not_enrolled") {
      return { ok: false, status: 401, error: "NOT_ENROLLED", message: "Set up two-factor sign-in on Settings → Security first.", key };
    }
    if (check.reason === "rate_limited") {
      const message = `Too many wrong codes: try again in ${check.retryAfterSeconds} seconds.`;
      return { ok: false, status: 429, error: "RATE_LIMITED", message, retryAfterSeconds: check.retryAfterSeconds, key };
    }
    return { ok: false, status: 401, error: "WRONG_CODE", message: "The code is wrong or was used already: wait for the next one.", key };
  }
  const session = `bdcs_${randomBytes(32).toString("base64url")}`;
  const expiresAt = new Date(now.getTime() + (o.sessionHours ?? env().CLI_SESSION_HOURS) * 3_600_000);
  await insertCliSession(db.engine, { keyId: key.id, staffId: key.staff.id, hash: hashOf(session), createdAt: now, expiresAt });
  const { email, name, role } = key.staff;
  return { ok: true, answer: { session, expires_at: expiresAt.toISOString(), staff: { email, name, role }, scopes: [...key.scopes] } };
}

/**
 * A login: the signature, then the code (NOT_ENROLLED, RATE_LIMITED, WRONG_CODE — a code of a step already used is
 * wrong), then a new session. Audited whatever the outcome (`cli.login`, channel `cli`, the key as the token), the
 * code never.
 */
export async function cliLogin(request: Request, o: LoginOptions = {}): Promise<LoginResult> {
  const body = bodyOf(request);
  const verified = await verifySignedRequest(request, body, o);
  const result = verified.ok ? await codeLogin(verified.key, await body(), o) : verified;
  const key = verified.key;
  const presented = request.headers.get(SIGNATURE_HEADERS.key) ?? "";
  const failed = result.ok ? undefined : result;
  await appendAudit(o.db ?? (await getDb()), {
    actorId: key?.staff.id ?? null,
    actorEmail: key?.staff.email ?? null,
    actorRole: key?.staff.role ?? null,
    action: "cli.login",
    target: key ? `staff:${key.staff.id}` : null,
    outcome: failed ? "failure" : "success",
    errorCode: failed?.error ?? null,
    ...cliMeta(request, key?.id ?? (isAccessKeyId(presented) ? presented : null)),
  });
  return result;
}

/** The audit meta of a command-line request: the client, channel `cli`, the access key's id as the token. */
export function cliMeta(request: Request, keyId: string | null): RequestMeta {
  return { ...metaFromHeaders(request.headers), channel: "cli", tokenId: keyId };
}

const NOT_LOGGED_IN = {
  ok: false,
  status: 401,
  error: "NOT_LOGGED_IN",
  message: "Send the session of `brokerdesk login` as Authorization: Bearer bdcs_….",
} as const;
const SESSION_EXPIRED = {
  ok: false,
  status: 401,
  error: "SESSION_EXPIRED",
  message: "This command-line session has expired or ended (or is not this access key's): run `brokerdesk login` again.",
} as const;

/** A signed request with its session (Authorization: Bearer bdcs_…): the caller, or why not. */
export async function authenticateCliRequest(request: Request, o: CliOptions = {}): Promise<{ ok: true; caller: CliCaller } | CliRefusal> {
  const verified = await verifySignedRequest(request, bodyOf(request), o);
  if (!verified.ok) return verified;
  const session = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (!session) return { ...NOT_LOGGED_IN, key: verified.key };
  if (!SESSION_PATTERN.test(session)) return { ...SESSION_EXPIRED, key: verified.key };
  const db = o.db ?? (await getDb());
  const live = await selectLiveSession(db.engine, hashOf(session), verified.key.id, o.now ?? new Date());
  if (!live) return { ...SESSION_EXPIRED, key: verified.key };
  return { ok: true, caller: { key: verified.key, expiresAt: live.expiresAt } };
}

/** Ends a staff member's command-line sessions (they were disabled: enabling them again does not bring these back). */
export async function endCliSessions(db: AppDb, staffId: string, now = new Date()): Promise<void> {
  await endCliSessionsOf(db.engine, staffId, now);
}
