import "server-only";
import { randomBytes } from "node:crypto";
import type { Queryable } from "@/server/db/engine";
import type { Sandbox } from "./context";
import { business, invalidToken } from "./errors";
import { windowLimit } from "./rate-limit";

/**
 * Token / 2FA flow (facts §2). Stored: PENDING or NORMAL (or INVALID once revoked). Derived on read:
 * PENDING older than 5 min → EXPIRED; NORMAL unused for 15 days → INVALID; unknown token → INVALID.
 */
export const CONFIRM_WINDOW_MS = 5 * 60 * 1000;
export const IDLE_LIMIT_MS = 15 * 24 * 60 * 60 * 1000;
/** Skip rewriting last_used_at more often than this: one write a minute per token, not one per call. */
const TOUCH_EVERY_MS = 60 * 1000;

export type TokenStatus = "PENDING" | "NORMAL" | "INVALID" | "EXPIRED";

interface TokenRow {
  token: string;
  app_key: string;
  status: string;
  created_at: Date;
  last_used_at: Date;
}

export interface TokenView {
  token: string;
  expires: number;
  status: TokenStatus;
}

/** view(row, now).status, without the view. */
const statusAt = (row: TokenRow, nowMs: number): TokenStatus => view(row, new Date(nowMs)).status;

function view(row: TokenRow, now: Date): TokenView {
  const t = now.getTime();
  if (row.status === "PENDING") {
    const expires = row.created_at.getTime() + CONFIRM_WINDOW_MS;
    return { token: row.token, expires, status: t > expires ? "EXPIRED" : "PENDING" };
  }
  const expires = row.last_used_at.getTime() + IDLE_LIMIT_MS;
  const status = row.status === "NORMAL" && t <= expires ? "NORMAL" : "INVALID";
  return { token: row.token, expires, status };
}

async function load(db: Queryable, appKey: string, token: unknown): Promise<TokenRow | undefined> {
  if (token === undefined) return newestPending(db, appKey);
  if (typeof token !== "string" || token === "") return undefined;
  const { rows } = await db.query<TokenRow>("SELECT * FROM sandbox.tokens WHERE token = $1 AND app_key = $2", [token, appKey]);
  return rows[0];
}

/** The confirm control without a token confirms the newest PENDING one, as the account holder's phone would. */
async function newestPending(db: Queryable, appKey: string): Promise<TokenRow | undefined> {
  const { rows } = await db.query<TokenRow>(
    "SELECT * FROM sandbox.tokens WHERE app_key = $1 AND status = 'PENDING' ORDER BY created_at DESC LIMIT 1",
    [appKey],
  );
  return rows[0];
}

// 10 calls / 30 s for create and for check, per app key (upstream documented limit).
const rateLimit = (sb: Sandbox, key: string) => windowLimit(sb, key, sb.config.tokenRateLimit, 30_000, "Token requests");

export async function createToken(sb: Sandbox, appKey: string, body: Record<string, unknown>): Promise<TokenView> {
  rateLimit(sb, `create:${appKey}`);
  const now = sb.config.now();
  // {"token": existing}: hand back that token while it is still pending or usable.
  const existing = await load(sb.engine, appKey, body.token);
  if (existing) {
    const v = view(existing, now);
    if (v.status === "PENDING" || v.status === "NORMAL") return v;
  }
  const token = randomBytes(24).toString("hex");
  const status = sb.config.autoConfirm2fa ? "NORMAL" : "PENDING";
  const { rows } = await sb.engine.query<TokenRow>(
    `INSERT INTO sandbox.tokens (token, app_key, status, created_at, confirmed_at, last_used_at)
     VALUES ($1, $2, $3, $4, $5, $4) RETURNING *`,
    [token, appKey, status, now, status === "NORMAL" ? now : null],
  );
  return view(rows[0], now);
}

export async function checkToken(sb: Sandbox, appKey: string, body: Record<string, unknown>): Promise<TokenView> {
  rateLimit(sb, `check:${appKey}`);
  const row = await load(sb.engine, appKey, body.token);
  if (!row) return { token: String(body.token ?? ""), expires: 0, status: "INVALID" };
  return view(row, sb.config.now());
}

/** Refresh restarts the 15-day clock of a usable token; any other token is reported as it is. */
export async function refreshToken(sb: Sandbox, appKey: string, body: Record<string, unknown>): Promise<TokenView> {
  const now = sb.config.now();
  const row = await load(sb.engine, appKey, body.token);
  if (!row) return { token: String(body.token ?? ""), expires: 0, status: "INVALID" };
  if (view(row, now).status !== "NORMAL") return view(row, now);
  await sb.engine.query("UPDATE sandbox.tokens SET last_used_at = $2 WHERE token = $1", [row.token, now]);
  return view({ ...row, last_used_at: now }, now);
}

/** The sandbox's stand-in for the SMS / app verification. */
export async function confirmToken(sb: Sandbox, appKey: string, token: unknown): Promise<TokenView> {
  const now = sb.config.now();
  const row = await load(sb.engine, appKey, token);
  if (!row) throw business("TOKEN_NOT_FOUND", "Token does not exist.");
  const v = view(row, now);
  if (v.status === "NORMAL") return v;
  if (v.status !== "PENDING") throw business("TOKEN_NOT_PENDING", `Token is ${v.status} and can no longer be confirmed.`);
  await sb.engine.query("UPDATE sandbox.tokens SET status = 'NORMAL', confirmed_at = $2, last_used_at = $2 WHERE token = $1", [
    row.token,
    now,
  ]);
  return view({ ...row, status: "NORMAL", last_used_at: now }, now);
}

// NORMAL tokens read in the last few seconds, so a busy client costs one token read per CACHE_MS, not one per call. The
// few seconds count from the read, not from the last use: a token changed in the database (refused from then on) is
// refused within CACHE_MS however busy its caller. Only NORMAL rows are cached: a PENDING token that gets confirmed
// is read again; a refused token leaves the cache; reset clears it.
const CACHE_MS = 5_000;
const cache = new WeakMap<Sandbox, Map<string, { row: TokenRow; until: number }>>();
export function clearTokenCache(sb: Sandbox) {
  cache.delete(sb);
}

export async function requireNormalToken(
  sb: Sandbox,
  appKey: string,
  token: string | undefined,
  nowMs = sb.config.now().getTime(),
): Promise<void> {
  let byToken = cache.get(sb);
  if (!byToken) cache.set(sb, (byToken = new Map()));
  const key = `${appKey}:${token}`;
  const hit = token ? byToken.get(key) : undefined;
  const cached = hit && hit.until > Date.now() ? hit : undefined;
  // Still NORMAL at this time and used recently enough to need no touch: nothing to read, write or cache again.
  if (cached && statusAt(cached.row, nowMs) === "NORMAL" && nowMs - cached.row.last_used_at.getTime() <= TOUCH_EVERY_MS) return;
  let row = cached ? cached.row : await load(sb.engine, appKey, token);
  const now = new Date(nowMs);
  if (!row || view(row, now).status !== "NORMAL") {
    byToken.delete(key);
    throw invalidToken();
  }
  if (nowMs - row.last_used_at.getTime() > TOUCH_EVERY_MS) {
    await sb.engine.query("UPDATE sandbox.tokens SET last_used_at = $2 WHERE token = $1", [row.token, now]);
    row = { ...row, last_used_at: now };
  }
  if (byToken.size > 10_000) byToken.clear();
  byToken.set(`${appKey}:${row.token}`, { row, until: cached ? cached.until : Date.now() + CACHE_MS });
}
