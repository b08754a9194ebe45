import { orderListParams } from "@/lib/schemas/order-list";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { listOrders } from "@/server/orders/queries/blotter";

/** One keyset page of the blotter, from the read model (no upstream call), for the table's reads as it scrolls. */
export const GET = jsonRoute({ permission: "orders:read", params: (query) => orderListParams.parse(query) }, async ({ params }) =>
  listOrders((await getDb()).engine, orderListParams.filters(params), { cursor: params.cursor, limit: params.size }),
);
