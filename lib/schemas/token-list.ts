import { listParams, type StateOf } from "@/lib/list-params";
import type { TokenScope } from "./tokens";

/**
 * Whose tokens a list shows: the signed-in staff member's (`/settings/tokens`, `GET /api/tokens`), or every staff
 * member's (`/settings/tokens/all`, `GET /api/tokens/all`: tokens:manage).
 */
export type TokenView = "mine" | "all";

/** The access token lists' URL state: newest first, no other order. */
export const tokenListParams = listParams({
  filters: {},
  sizes: [10, 25, 50, 100],
  defaultSize: 25,
});
export type TokenListParams = StateOf<typeof tokenListParams>;

export const TOKEN_STATUSES = ["active", "expired", "revoked"] as const;
export type TokenStatus = (typeof TOKEN_STATUSES)[number];

/** What every list of staff credentials (access tokens, the command line's access keys) shows of one: never its secret. */
export interface CredentialRow {
  id: string;
  name: string;
  scopes: TokenScope[];
  createdAt: string;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  revokedAt: string | null;
  revokedByEmail: string | null;
  owner: { id: string; email: string; name: string };
}

/** A token as the browser gets it: never its secret or hash. */
export interface TokenRow extends CredentialRow {
  prefix: string;
  status: TokenStatus;
  expiresAt: string;
}
