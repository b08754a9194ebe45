import "server-only";
import type { AppDb } from "@/server/db";
import type { Queryable } from "@/server/db/engine";
import { notifyChange } from "@/server/notices/channel";
import { boundedInput, entryHash, GENESIS_HASH, redactSecrets, type AuditInput, type AuditOutcome, type AuditRow } from "./entry";
import { insertEntry, lockChain, selectLastHash } from "./queries";

/**
 * Appending to the staff audit trail: one entry a call, linked to the one before by its hash, under the chain's
 * lock. The entry's shape and hashing: `entry.ts`; reading: `list.ts`; verifying: `verify.ts`.
 */
export async function appendAudit(db: AppDb, input: AuditInput): Promise<AuditRow> {
  return db.engine.transaction((tx) => appendAuditIn(tx, input));
}

/**
 * Appends within the caller's transaction: the entry commits with the change it records, or neither does (an
 * approval's claim). The chain's lock is held until that transaction ends, so keep it short.
 */
export async function appendAuditIn(tx: Queryable, input: AuditInput): Promise<AuditRow> {
  // One writer at a time extends the chain, across every app instance sharing the database.
  await lockChain(tx);
  const prevHash = (await selectLastHash(tx)) ?? GENESIS_HASH;
  const entry = {
    at: new Date(),
    actorId: input.actorId ?? null,
    actorEmail: input.actorEmail ?? null,
    actorRole: input.actorRole ?? null,
    action: input.action,
    target: input.target ?? null,
    // Round-trip through JSON so the hashed value is exactly what jsonb stores (no undefined, no Dates).
    input: input.input === undefined ? null : boundedInput(redactSecrets(input.input)),
    upstreamRequestId: input.upstreamRequestId ?? null,
    idempotencyKey: input.idempotencyKey ?? null,
    outcome: input.outcome,
    errorCode: input.errorCode ?? null,
    clientIp: input.clientIp ?? null,
    userAgent: input.userAgent ?? null,
    channel: input.channel ?? null,
    tokenId: input.tokenId ?? null,
  };
  const hash = entryHash(prevHash, entry);
  const seq = await insertEntry(tx, { ...entry, inputJson: entry.input === null ? null : JSON.stringify(entry.input), prevHash, hash });
  // The live channel's notice (sent on commit): open audit, staff and approval lists refetch.
  await notifyChange(tx, { topics: auditNoticeTopics(entry.action, entry.outcome), accounts: [] });
  return { seq, ...entry, prevHash, hash };
}

/**
 * The notice topics of an audit entry: every entry is news to the trail; a staff user's change (their sign-ins
 * move "last sign-in" and the lock) to the staff list; an approval request's life (held, decided, expired) to the
 * inbox; an alert cleared or escalated to the alert queue (and the menu's count of open alerts); an access token
 * created or revoked to the Access tokens page, an access key to the Command line page.
 */
function auditNoticeTopics(action: string, outcome: AuditOutcome): string[] {
  const topics = ["audit"];
  if (action.startsWith("staff.") || action.startsWith("auth.")) topics.push("staff");
  if (action.startsWith("approvals.") || outcome === "held") topics.push("approval");
  if (action.startsWith("alerts.")) topics.push("alert");
  if (action.startsWith("tokens.")) topics.push("token");
  if (action.startsWith("cli.key_")) topics.push("access-key");
  return topics;
}
