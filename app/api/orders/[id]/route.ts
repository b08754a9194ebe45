import { z } from "zod";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { getOrderDetail } from "@/server/orders/detail";

/** One order from the read model (the detail page's live refetches). */
export const GET = jsonRoute({ permission: "orders:read", params: z.object({ id: z.string().regex(/^\d{1,18}$/) }) }, async ({ params }) =>
  getOrderDetail((await getDb()).engine, params.id),
);
