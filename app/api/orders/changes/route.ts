import { z } from "zod";
import { orderListParams } from "@/lib/schemas/order-list";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { orderChangesSince } from "@/server/orders/queries/blotter";

const since = z.coerce.number().int().min(0);

/** The blotter's live updates: rows changed after the reader's watermark (`since`), matching the filter or not. */
export const GET = jsonRoute(
  {
    permission: "orders:read",
    params: (query) => ({ filter: orderListParams.filters(orderListParams.parse(query)), since: since.parse(query.get("since") ?? "0") }),
  },
  async ({ params }) => orderChangesSince((await getDb()).engine, params.filter, params.since),
);
