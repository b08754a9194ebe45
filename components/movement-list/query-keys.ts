import { movementListParams, type MovementListParams } from "@/lib/schemas/movement-list";

/**
 * Query keys and URLs of the movements list and detail, shared by the server prefetch and the client hooks. Every
 * key starts with "movements", the live topic's root: a movement notice refetches what is on screen.
 */
export const movementKeys = {
  list: (p: MovementListParams) => ["movements", "list", movementListParams.apiQuery(p)] as const,
  /** The filter alone: paging keeps the totals. */
  totals: (p: MovementListParams) => ["movements", "totals", movementListParams.filterQuery(p)] as const,
  detail: (kind: string, clientRequestId: string) => ["movements", "detail", kind, clientRequestId] as const,
};

const path = (kind: string, clientRequestId: string) => `/api/movements/${encodeURIComponent(kind)}/${encodeURIComponent(clientRequestId)}`;
export const movementUrls = {
  list: (p: MovementListParams) => `/api/movements${movementListParams.apiQuery(p)}`,
  totals: (p: MovementListParams) => {
    const q = movementListParams.filterQuery(p);
    return `/api/movements${q ? `${q}&` : "?"}part=totals`;
  },
  export: (p: MovementListParams) => `/api/movements/export${movementListParams.filterQuery(p)}`,
  detail: path,
  upstream: (kind: string, clientRequestId: string) => `${path(kind, clientRequestId)}/upstream`,
};
