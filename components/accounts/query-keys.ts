import { listResource } from "@/components/data-table/list-resource";
import { accountListParams, type AccountListParams } from "@/lib/schemas/account-list-params";

/** The accounts list's page: query key (root `accounts`) and GET route. */
export const accountList = listResource<AccountListParams>("accounts", "/api/accounts", accountListParams);

/** An account's parts: query keys and URLs shared by the server prefetch (pages) and the client hooks. */
export const accountKeys = {
  overview: (id: string) => ["accounts", "detail", id, "overview"] as const,
  balance: (id: string) => ["accounts", "detail", id, "balance"] as const,
  positions: (id: string) => ["accounts", "detail", id, "positions"] as const,
  activities: (id: string) => ["accounts", "detail", id, "activities"] as const,
};

export const accountUrls = {
  overview: (id: string) => `/api/accounts/${encodeURIComponent(id)}`,
  balance: (id: string) => `/api/accounts/${encodeURIComponent(id)}/balance`,
  positions: (id: string) => `/api/accounts/${encodeURIComponent(id)}/positions`,
  activities: (id: string, cursor?: string) =>
    `/api/accounts/${encodeURIComponent(id)}/activities${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`,
};
