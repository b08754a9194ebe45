import { accountListQuery, type AccountListParams } from "@/lib/schemas/account-list-params";

/**
 * Query keys and URLs shared by the server prefetch (pages) and the client hooks, so a prefetched result is
 * found again on hydration. Sort and hidden columns are left out: they do not change what the upstream returns.
 */
export function accountsApiQuery(p: AccountListParams): string {
  return accountListQuery({ q: p.q, by: p.by, status: p.status, type: p.type, level: p.level, permission: p.permission, size: p.size, cursor: p.cursor });
}

export const accountKeys = {
  list: (p: AccountListParams) => ["accounts", "list", accountsApiQuery(p)] as const,
  overview: (id: string) => ["accounts", "detail", id, "overview"] as const,
  balance: (id: string) => ["accounts", "detail", id, "balance"] as const,
  positions: (id: string) => ["accounts", "detail", id, "positions"] as const,
  activities: (id: string) => ["accounts", "detail", id, "activities"] as const,
};

export const accountUrls = {
  list: (p: AccountListParams) => `/api/accounts${accountsApiQuery(p)}`,
  overview: (id: string) => `/api/accounts/${encodeURIComponent(id)}`,
  balance: (id: string) => `/api/accounts/${encodeURIComponent(id)}/balance`,
  positions: (id: string) => `/api/accounts/${encodeURIComponent(id)}/positions`,
  activities: (id: string, cursor?: string) => `/api/accounts/${encodeURIComponent(id)}/activities${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`,
};
