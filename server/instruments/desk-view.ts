import "server-only";
import { can, type Access } from "@/lib/auth/permissions";
import type { DeskViewData } from "@/lib/schemas/instrument-desk";
import type { Queryable } from "@/server/db/engine";
import { selectPositionsForSymbol } from "@/server/activities/queries/symbol";
import { selectOpenOrdersForSymbol, selectRecentExecutionsForSymbol } from "@/server/orders/queries/symbol";
import { selectAlertsForSymbol } from "@/server/surveillance/queries/alerts";

/**
 * The instrument page's view from the desk's books: no upstream call. Each part is read only when the viewer's
 * role may read its kind (orders, activities, alerts), the same permissions as their own pages.
 */
export async function deskView(q: Queryable, role: Access, market: string, symbol: string): Promise<DeskViewData> {
  const [orders, executions, positions, alerts] = await Promise.all([
    can(role, "orders:read") ? selectOpenOrdersForSymbol(q, market, symbol) : undefined,
    can(role, "orders:read") ? selectRecentExecutionsForSymbol(q, market, symbol) : undefined,
    can(role, "activities:read") ? selectPositionsForSymbol(q, market, symbol) : undefined,
    can(role, "alerts:read") ? selectAlertsForSymbol(q, symbol) : undefined,
  ]);
  return { orders, executions, positions, alerts };
}
