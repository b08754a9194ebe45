import { z } from "zod";
import { listParams, type StateOf } from "@/lib/list-params";
import type { TokenScope } from "./tokens";

/** Whose access keys the list shows: the signed-in staff member's, or (cli:manage) every staff member's. */
export const ACCESS_KEY_VIEWS = ["mine", "all"] as const;
export type AccessKeyView = (typeof ACCESS_KEY_VIEWS)[number];

/** Settings → Command line's URL state: newest first, no other order. */
export const accessKeyListParams = listParams({
  filters: { view: z.enum(ACCESS_KEY_VIEWS).default("mine").catch("mine") },
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
