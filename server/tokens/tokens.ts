import "server-only";
import { AppError } from "@/lib/errors";
import type { CredentialRow, TokenRow, TokenStatus, TokenView } from "@/lib/schemas/token-list";
import { scopesOf, type CreatedToken, type CreateTokenInput } from "@/lib/schemas/tokens";
import type { Staff } from "@/server/auth/guard";
import type { AppDb } from "@/server/db";
import { timeIdCursor } from "@/server/db/keyset";
import { revokeCredential, type CredentialKind } from "./credentials";
import { insertToken, selectTokenPage, type CredentialPageRow, type TokenPageRow } from "./queries";
import { displayPrefix, hashSecret, newSecret } from "./secret";

/** Tokens a staff member may hold at once (neither revoked nor expired): a leak stays countable. */
export const MAX_ACTIVE_TOKENS = 20;
const DAY_MS = 86_400_000;

/**
 * Creates a token for `staff` and answers its secret, this once: only the secret's hash is stored. The token acts
 * with its owner's role at each call, within its scopes, until it expires or is revoked.
 */
export async function createToken(db: AppDb, staff: Staff, input: CreateTokenInput, now = new Date()): Promise<CreatedToken> {
  const secret = newSecret();
  const scopes = scopesOf(input.access);
  const expiresAt = new Date(now.getTime() + Number(input.expiresInDays) * DAY_MS);
  const token = await insertToken(
    db.engine,
    { staffId: staff.id, name: input.name, hash: hashSecret(secret), prefix: displayPrefix(secret), scopes, createdAt: now, expiresAt },
    MAX_ACTIVE_TOKENS,
  );
  if (!token) {
    throw new AppError(
      "TOO_MANY_TOKENS",
      `${staff.email} holds ${MAX_ACTIVE_TOKENS} active tokens`,
      `You have ${MAX_ACTIVE_TOKENS} active tokens: revoke one you no longer use first.`,
    );
  }
  return { id: token.id, name: token.name, prefix: token.prefix, scopes: token.scopes, expiresAt: token.expiresAt.toISOString(), secret };
}

/** Access tokens as a kind of staff credential. */
export const TOKEN_CREDENTIAL: CredentialKind = {
  noun: "token",
  table: "staff_tokens",
  target: "staff_token",
  own: "tokens:own",
  manage: "tokens:manage",
  page: "/settings/tokens",
};

/** Revokes a token: one's own, or anyone's with `tokens:manage` (`revokeCredential`). Takes effect at the token's next call. */
export function revokeToken(db: AppDb, actor: Staff, id: string, now = new Date()): Promise<{ id: string; ownerId: string }> {
  return revokeCredential(db, TOKEN_CREDENTIAL, actor, id, now);
}

const iso = (v: Date | string) => new Date(v).toISOString();

/** A staff credential's row as every list shows it (a token's, an access key's). */
export function credentialRow(r: CredentialPageRow): CredentialRow {
  return {
    id: r.id,
    name: r.name,
    scopes: r.scopes,
    createdAt: iso(r.created_at),
    lastUsedAt: r.last_used_at ? iso(r.last_used_at) : null,
    lastUsedIp: r.last_used_ip,
    revokedAt: r.revoked_at ? iso(r.revoked_at) : null,
    revokedByEmail: r.revoked_by_email,
    owner: { id: r.owner_id, email: r.owner_email, name: r.owner_name },
  };
}

function statusOf(row: TokenPageRow, now: Date): TokenStatus {
  if (row.revoked_at) return "revoked";
  return new Date(row.expires_at) <= now ? "expired" : "active";
}

/** One page of tokens, newest first: `staff`'s own, or (the caller checked tokens:manage) everyone's. */
export async function listTokenPage(
  db: AppDb,
  staff: Staff,
  query: { view: TokenView; cursor?: string; limit: number },
  now = new Date(),
): Promise<{ rows: TokenRow[]; nextCursor?: string }> {
  const { rows, nextCursor } = await selectTokenPage(db.engine, {
    view: query.view,
    staffId: staff.id,
    cursor: timeIdCursor(query.cursor, /^[0-9a-f-]{36}$/i),
    limit: query.limit,
  });
  return {
    rows: rows.map((r) => ({ ...credentialRow(r), prefix: r.prefix, status: statusOf(r, now), expiresAt: iso(r.expires_at) })),
    nextCursor,
  };
}
