import { orderFilterSchema } from "@/lib/schemas/order-list";
import { getDb } from "@/server/db";
import { csvRoute } from "@/server/http";
import { ORDER_CSV_COLUMNS, orderCsvRows } from "@/server/orders/queries/blotter";

/** Every order of the blotter's filter as CSV, from the read model, streamed; the export is audited. */
export const GET = csvRoute(
  {
    permission: "orders:read",
    params: (query) => orderFilterSchema.parse(Object.fromEntries(query)),
    action: "orders.export",
    filename: "orders",
    columns: ORDER_CSV_COLUMNS,
  },
  async function* ({ params }) {
    yield* orderCsvRows((await getDb()).engine, params);
  },
);
