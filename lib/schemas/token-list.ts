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

/** A token as the browser gets it: never its secret or hash. */
export interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  scopes: TokenScope[];
  status: TokenStatus;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  revokedAt: string | null;
  revokedByEmail: string | null;
  owner: { id: string; email: string; name: string };
}
