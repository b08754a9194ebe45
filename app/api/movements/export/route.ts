import { movementFilterSchema } from "@/lib/schemas/movement-list";
import { getDb } from "@/server/db";
import { csvRoute } from "@/server/http";
import { MOVEMENT_CSV_COLUMNS, movementCsvRows } from "@/server/movement-list/queries/list";

/** Every movement of the list's filter as CSV, from the read model, streamed; the export is audited. */
export const GET = csvRoute(
  {
    permission: "movements:read",
    params: (query) => movementFilterSchema.parse(Object.fromEntries(query)),
    action: "movements.export",
    filename: "movements",
    columns: MOVEMENT_CSV_COLUMNS,
  },
  async function* ({ params }) {
    yield* movementCsvRows((await getDb()).engine, params);
  },
);
