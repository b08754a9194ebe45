import { z } from "zod";
import { listParams, type StateOf } from "@/lib/list-params";
import type { TokenScope } from "./tokens";

/** Whose tokens the list shows: the signed-in staff member's, or (tokens:manage) every staff member's. */
export const TOKEN_VIEWS = ["mine", "all"] as const;
export type TokenView = (typeof TOKEN_VIEWS)[number];

/** The Access tokens page's URL state: newest first, no other order. */
export const tokenListParams = listParams({
  filters: { view: z.enum(TOKEN_VIEWS).default("mine").catch("mine") },
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
