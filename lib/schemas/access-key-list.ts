import { listParams, type StateOf } from "@/lib/list-params";
import type { TokenScope } from "./tokens";

/**
 * Whose access keys a list shows: the signed-in staff member's (`/settings/cli`, `GET /api/access-keys`), or every
 * staff member's (`/settings/cli/all`, `GET /api/access-keys/all`: cli:manage).
 */
export type AccessKeyView = "mine" | "all";

/** The access key lists' URL state: newest first, no other order. */
export const accessKeyListParams = listParams({
  filters: {},
  sizes: [10, 25, 50, 100],
  defaultSize: 25,
});
export type AccessKeyListParams = StateOf<typeof accessKeyListParams>;

/** A key as the browser gets it: never its secret. */
export interface AccessKeyRow {
  id: string;
  name: string;
  scopes: TokenScope[];
  status: "active" | "revoked";
  createdAt: string;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  revokedAt: string | null;
  revokedByEmail: string | null;
  owner: { id: string; email: string; name: string };
}
