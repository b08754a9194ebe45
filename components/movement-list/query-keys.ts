import { listPart, listResource } from "@/components/data-table/list-resource";
import { movementListParams, type MovementListParams } from "@/lib/schemas/movement-list";

/**
 * Query keys and URLs of the movements list and detail, shared by the server prefetch and the client hooks. Every
 * key starts with "movements", the live topic's root: a movement notice refetches what is on screen.
 */
export const movementList = listResource<MovementListParams>("movements", "/api/movements", movementListParams);
/** The filter's totals (paging keeps them). */
export const movementListTotals = listPart<MovementListParams>("movements", "totals", "/api/movements", movementListParams);

export const movementKeys = {
  detail: (kind: string, clientRequestId: string) => ["movements", "detail", kind, clientRequestId] as const,
};

const path = (kind: string, clientRequestId: string) => `/api/movements/${encodeURIComponent(kind)}/${encodeURIComponent(clientRequestId)}`;
export const movementUrls = {
  detail: path,
  upstream: (kind: string, clientRequestId: string) => `${path(kind, clientRequestId)}/upstream`,
};
