import "server-only";
import { randomBytes } from "node:crypto";
import { AppError } from "@/lib/errors";
import type { AccessKeyRow, AccessKeyView } from "@/lib/schemas/access-key-list";
import { ACCESS_KEY_ID_PATTERN, type CreateAccessKeyInput, type CreatedAccessKey } from "@/lib/schemas/access-keys";
import { scopesOf } from "@/lib/schemas/tokens";
import type { Staff } from "@/server/auth/guard";
import type { AppDb } from "@/server/db";
import { timeIdCursor } from "@/server/db/keyset";
import { seal, unseal } from "@/server/secrets/seal";
import { revokeCredential, type CredentialKind } from "@/server/tokens/credentials";
import { credentialRow } from "@/server/tokens/tokens";
import { deleteKeyNonces, insertAccessKey, selectAccessKeyPage } from "./queries";

/**
 * Access keys of the command line: an id (`bdak_` + 20 base64url characters, public) and a secret key (`bdsk_` +
 * 32 random bytes in base64url) that signs every request. The secret is answered once; the desk keeps it sealed
 * (it must verify HMACs with it), bound to the key's id.
 */
export const MAX_ACTIVE_KEYS = 10;
const SECRET_PATTERN = /^bdsk_[A-Za-z0-9_-]{43}$/;

const context = (id: string) => `cli_access_key:${id}`;

export const isAccessKeyId = (value: string) => ACCESS_KEY_ID_PATTERN.test(value);

/** The key's secret, from its sealed form (the verifier's one read of it). */
export function secretOf(id: string, sealed: string): string {
  const secret = unseal(sealed, context(id));
  if (!SECRET_PATTERN.test(secret)) throw new Error(`access key ${id}: sealed secret of the wrong shape`);
  return secret;
}

export async function createAccessKey(db: AppDb, staff: Staff, input: CreateAccessKeyInput, now = new Date()): Promise<CreatedAccessKey> {
  const id = `bdak_${randomBytes(15).toString("base64url")}`;
  const secret = `bdsk_${randomBytes(32).toString("base64url")}`;
  const key = await insertAccessKey(
    db.engine,
    { id, staffId: staff.id, name: input.name, secretSealed: seal(secret, context(id)), scopes: scopesOf(input.access), createdAt: now },
    MAX_ACTIVE_KEYS,
  );
  if (!key) {
    throw new AppError(
      "TOO_MANY_KEYS",
      `${staff.email} holds ${MAX_ACTIVE_KEYS} active access keys`,
      `You have ${MAX_ACTIVE_KEYS} active access keys: revoke one you no longer use first.`,
    );
  }
  return { id: key.id, name: key.name, scopes: key.scopes, createdAt: key.createdAt.toISOString(), secret };
}

/** The command line's access keys as a kind of staff credential. */
export const ACCESS_KEY_CREDENTIAL: CredentialKind = {
  noun: "access key",
  table: "cli_access_keys",
  target: "cli_access_key",
  own: "cli:own",
  manage: "cli:manage",
  page: "/settings/cli",
};

/**
 * Revokes a key: one's own, or anyone's with `cli:manage` (`revokeCredential`), and forgets its nonces. Its sessions
 * end with it: a session is live only while its key is.
 */
export async function revokeAccessKey(db: AppDb, actor: Staff, id: string, now = new Date()): Promise<{ id: string; ownerId: string }> {
  const revoked = await revokeCredential(db, ACCESS_KEY_CREDENTIAL, actor, id, now);
  await deleteKeyNonces(db.engine, id);
  return revoked;
}

/** One page of keys, newest first: `staff`'s own, or (the caller checked cli:manage) everyone's. */
export async function listAccessKeyPage(
  db: AppDb,
  staff: Staff,
  query: { view: AccessKeyView; cursor?: string; limit: number },
): Promise<{ rows: AccessKeyRow[]; nextCursor?: string }> {
  const { rows, nextCursor } = await selectAccessKeyPage(db.engine, {
    view: query.view,
    staffId: staff.id,
    cursor: timeIdCursor(query.cursor, ACCESS_KEY_ID_PATTERN),
    limit: query.limit,
  });
  return { rows: rows.map((r) => ({ ...credentialRow(r), status: r.revoked_at ? "revoked" : "active" })), nextCursor };
}
