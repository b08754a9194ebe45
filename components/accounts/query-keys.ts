import { accountListParams, type AccountListParams } from "@/lib/schemas/account-list-params";

/**
 * Query keys and URLs shared by the server prefetch (pages) and the client hooks, so a prefetched result is
 * found again on hydration. The list's key is what the upstream answer depends on (`apiQuery`: not the hidden
 * columns nor the trail of earlier pages).
 */
export const accountKeys = {
  list: (p: AccountListParams) => ["accounts", "list", accountListParams.apiQuery(p)] as const,
  overview: (id: string) => ["accounts", "detail", id, "overview"] as const,
  balance: (id: string) => ["accounts", "detail", id, "balance"] as const,
  positions: (id: string) => ["accounts", "detail", id, "positions"] as const,
  activities: (id: string) => ["accounts", "detail", id, "activities"] as const,
};

export const accountUrls = {
  list: (p: AccountListParams) => `/api/accounts${accountListParams.apiQuery(p)}`,
  overview: (id: string) => `/api/accounts/${encodeURIComponent(id)}`,
  balance: (id: string) => `/api/accounts/${encodeURIComponent(id)}/balance`,
  positions: (id: string) => `/api/accounts/${encodeURIComponent(id)}/positions`,
  activities: (id: string, cursor?: string) =>
    `/api/accounts/${encodeURIComponent(id)}/activities${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`,
};
