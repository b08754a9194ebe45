import "server-only";
import { can, type Permission } from "@/lib/auth/permissions";
import { AppError, NotFoundError } from "@/lib/errors";
import type { Staff } from "@/server/auth/guard";
import type { AppDb } from "@/server/db";
import { revokeCredentialRow, selectCredentialState, type CredentialTable } from "./queries";

/**
 * A kind of staff credential (access tokens, the command line's access keys): the names by which the steps both
 * kinds share (revoking one here, the create and revoke actions, the settings pages) tell one kind from the other.
 */
export interface CredentialKind {
  /** How a message names one: "token", "access key". */
  noun: string;
  table: CredentialTable;
  /** An audit entry's target names one as `${target}:${id}`. */
  target: string;
  /** One's own credentials: make, list and revoke them. */
  own: Permission;
  /** Everyone's: list and revoke them. */
  manage: Permission;
  /** Its settings page (one's own list), read again after a change. */
  page: string;
}

/**
 * Revokes a credential: one's own, or anyone's with the kind's `manage`. Someone else's is "not found" to a caller
 * who may not manage it (its existence is not theirs to learn).
 */
export async function revokeCredential(
  db: AppDb,
  kind: CredentialKind,
  actor: Staff,
  id: string,
  now: Date,
): Promise<{ id: string; ownerId: string }> {
  const found = await selectCredentialState(db.engine, kind.table, id);
  if (!found || (found.staffId !== actor.id && !can(actor, kind.manage))) {
    throw new NotFoundError(
      `This ${kind.noun} does not exist, or it is not yours to revoke.`,
      `${kind.noun} ${id} not revocable by ${actor.email}`,
    );
  }
  if (found.revokedAt || !(await revokeCredentialRow(db.engine, kind.table, id, actor.id, now))) {
    throw new AppError("ALREADY_REVOKED", `${kind.noun} ${id} already revoked`, `This ${kind.noun} is already revoked.`);
  }
  return { id, ownerId: found.staffId };
}
