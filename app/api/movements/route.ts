import { movementListParams } from "@/lib/schemas/movement-list";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { listMovements } from "@/server/movement-list/list";

/** One keyset page of the movements list and the totals of its whole filter, from the read model (no upstream call). */
export const GET = jsonRoute({ permission: "movements:read", params: (query) => movementListParams.parse(query) }, async ({ params }) =>
  listMovements((await getDb()).engine, movementListParams.filters(params), { cursor: params.cursor, limit: params.size }),
);
