import { jsonRoute } from "@/server/http";
import { getDb } from "@/server/db";
import { deskView } from "@/server/instruments/desk-view";
import { instrumentPathIn } from "@/lib/schemas/instrument-tabs";

/** The instrument page's view from the desk's books (orders, executions, positions, alerts the role may read). */
export const GET = jsonRoute({ permission: "market:read", params: instrumentPathIn }, async ({ staff, params }) =>
  deskView((await getDb()).engine, staff, params.market, params.symbol),
);
