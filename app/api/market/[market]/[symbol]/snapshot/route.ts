import { z } from "zod";
import { marketIn, symbolIn } from "@/lib/schemas/market";
import { jsonRoute } from "@/server/http";
import { marketHub } from "@/server/market";

export const dynamic = "force-dynamic";

/** A symbol's quote: the shared poller's latest while fresh, else one upstream call however many ask at once. */
export const GET = jsonRoute({ permission: "market:read", params: z.object({ market: marketIn, symbol: symbolIn }) }, ({ params }) =>
  marketHub().read("snapshot", params.market, params.symbol),
);
