import { jsonRoute } from "@/server/http";
import { instrumentMaster, summarise } from "@/server/fundamentals/instrument-master";
import { instrumentPathIn } from "@/lib/schemas/instrument-tabs";

/** One instrument of the master (name, currency, whether an ETF): which tabs the page offers. Unknown: 404. */
export const GET = jsonRoute({ permission: "market:read", params: instrumentPathIn }, async ({ params }) =>
  summarise(await instrumentMaster().get(params.market, params.symbol)),
);
