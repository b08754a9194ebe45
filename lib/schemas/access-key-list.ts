import { tokenListParams, type CredentialRow } from "./token-list";

/**
 * Whose access keys a list shows: the signed-in staff member's (`/settings/cli`, `GET /api/access-keys`), or every
 * staff member's (`/settings/cli/all`, `GET /api/access-keys/all`: cli:manage).
 */
export type AccessKeyView = "mine" | "all";

/** The access key lists' URL state: the access tokens' (newest first, no other order). */
export const accessKeyListParams = tokenListParams;
export type { TokenListParams as AccessKeyListParams } from "./token-list";

/** A key as the browser gets it: never its secret. An access key does not expire. */
export interface AccessKeyRow extends CredentialRow {
  status: "active" | "revoked";
}
