import { z } from "zod";
import { broker } from "@/server/broker";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { refreshOrderFromUpstream } from "@/server/orders/detail";

/** "Refresh from upstream" on the order page: one live detail call, on click (never on a list). */
export const GET = jsonRoute({ permission: "orders:read", params: z.object({ id: z.string().regex(/^\d{1,18}$/) }) }, async ({ params }) =>
  refreshOrderFromUpstream((await getDb()).engine, broker(), params.id),
);
