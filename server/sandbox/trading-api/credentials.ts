import "server-only";
import { randomBytes } from "node:crypto";
import type { Queryable } from "@/server/db/engine";
import type { Sandbox } from "../context";
import { business, illegal } from "../errors";
import { trading } from "../trading/state";

/**
 * Trading API credentials: an app key and secret issued for one virtual account (its account holder's app).
 * The secret is stored as issued, because an HMAC signature can only be verified with it; it is returned once, by
 * issue(), and never listed or logged. A revoked key stays in the table (so the refusal can say it was revoked).
 */
export interface TradingCredential {
  app_key: string;
  account_id: string;
  created_at: Date;
  revoked_at: Date | null;
}

interface CredentialRow extends TradingCredential {
  app_secret: string;
}

/** Trading API app keys carry a prefix, so a log line or a support question shows which family a key belongs to. */
export const TRADING_KEY_PREFIX = "ta-";

export async function findCredential(db: Queryable, appKey: string): Promise<CredentialRow | undefined> {
  if (!appKey.startsWith(TRADING_KEY_PREFIX)) return undefined;
  const { rows } = await db.query<CredentialRow>("SELECT * FROM sandbox.trading_credentials WHERE app_key = $1", [appKey]);
  return rows[0];
}

const view = (r: TradingCredential) => ({
  app_key: r.app_key,
  account_id: r.account_id,
  status: r.revoked_at ? "REVOKED" : "ACTIVE",
  create_time: new Date(r.created_at).toISOString(),
  ...(r.revoked_at ? { revoke_time: new Date(r.revoked_at).toISOString() } : {}),
});

/** Issues a key and secret for a virtual account (by id or number). The only answer that carries the secret. */
export async function issueCredential(sb: Sandbox, accountRef: unknown) {
  if (typeof accountRef !== "string" || accountRef === "") throw illegal("account_id is required.");
  const { rows } = await sb.engine.query<{ account_id: string; account_number: string }>(
    "SELECT account_id, account_number FROM sandbox.virtual_accounts WHERE account_id = $1 OR account_number = $1",
    [accountRef],
  );
  const account = rows[0];
  if (!account) throw business("ACCOUNT_NOT_FOUND", `Virtual account ${accountRef} does not exist.`);
  const appKey = `${TRADING_KEY_PREFIX}${randomBytes(16).toString("hex")}`;
  const appSecret = randomBytes(16).toString("hex");
  const at = sb.config.now();
  await sb.engine.query("INSERT INTO sandbox.trading_credentials (app_key, app_secret, account_id, created_at) VALUES ($1, $2, $3, $4)", [
    appKey,
    appSecret,
    account.account_id,
    at,
  ]);
  return {
    ...view({ app_key: appKey, account_id: account.account_id, created_at: at, revoked_at: null }),
    account_number: account.account_number,
    app_secret: appSecret,
  };
}

/** Revokes one key and ends its open event streams; revoking an already revoked key answers its state again. */
export async function revokeCredential(sb: Sandbox, appKey: unknown) {
  if (typeof appKey !== "string" || appKey === "") throw illegal("app_key is required.");
  const { rows } = await sb.engine.query<TradingCredential>(
    `UPDATE sandbox.trading_credentials SET revoked_at = coalesce(revoked_at, $2) WHERE app_key = $1
     RETURNING app_key, account_id, created_at, revoked_at`,
    [appKey, sb.config.now()],
  );
  if (!rows[0]) throw business("CREDENTIAL_NOT_FOUND", `No Trading API credential ${appKey}.`);
  // The key's open event streams end now, not at their next reconnect (trading/events/grpc-server.ts).
  trading(sb).bus.emit("revoked", appKey);
  return view(rows[0]);
}

/** The credentials of one account (or all), newest first, without secrets. */
export async function listCredentials(sb: Sandbox, accountId: string | undefined) {
  const { rows } = await sb.engine.query<TradingCredential>(
    `SELECT app_key, account_id, created_at, revoked_at FROM sandbox.trading_credentials
      WHERE $1::text IS NULL OR account_id = $1 ORDER BY created_at DESC, app_key`,
    [accountId ?? null],
  );
  return rows.map(view);
}
