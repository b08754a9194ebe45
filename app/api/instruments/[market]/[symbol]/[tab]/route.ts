import { jsonRoute } from "@/server/http";
import { fundamentals } from "@/server/fundamentals/fundamentals";
import { instrumentTabIn } from "@/lib/schemas/instrument-tabs";

/** One tab of the instrument page (profile, analyst, calendars, statements or fund data, corporate actions, margin, shortability). */
export const GET = jsonRoute({ permission: "market:read", params: instrumentTabIn }, ({ params }) =>
  fundamentals().tab(params.market, params.symbol, params.tab),
);
