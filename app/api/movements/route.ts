import { movementListParams } from "@/lib/schemas/movement-list";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { listMovementPage, movementTotals } from "@/server/movement-list/queries/list";

/**
 * The movements list from the read model (no upstream call): one keyset page, or with `part=totals` the totals of the
 * whole filter (asked for apart, so paging does not sum every matching row again).
 */
export const GET = jsonRoute(
  { permission: "movements:read", params: (query) => ({ ...movementListParams.parse(query), totals: query.get("part") === "totals" }) },
  async ({ params }) => {
    const { engine } = await getDb();
    const filter = movementListParams.filters(params);
    return params.totals ? movementTotals(engine, filter) : listMovementPage(engine, filter, { cursor: params.cursor, limit: params.size });
  },
);
