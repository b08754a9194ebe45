import { env } from "@/lib/env";
import { orderCheckSchema } from "@/lib/schemas/order-check";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { requestOrderCheck } from "@/server/orders/sweep";

/**
 * When an account's open orders were last read from the upstream. Reading it is looking at the account: a check is
 * asked for when the last is older than ORDERS_CHECK_FRESH_MS (the orders sweep takes it first), so an order the
 * customer placed in their own app reaches the page within seconds. An account the desk does not know is a 404.
 */
export const GET = jsonRoute(
  { permission: "orders:read", params: (query) => orderCheckSchema.parse(Object.fromEntries(query)) },
  async ({ params }) => requestOrderCheck((await getDb()).engine, params.account, env().ORDERS_CHECK_FRESH_MS, params.peek === "1"),
);
