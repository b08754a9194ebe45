import { z } from "zod";
import { CHART_TIMESPANS } from "@/lib/market";
import { marketIn, symbolIn } from "@/lib/schemas/market";
import { jsonRoute } from "@/server/http";
import { cachedBars, marketData } from "@/server/market";

export const dynamic = "force-dynamic";

/** A symbol's bars for the chart, kept for a fraction of their span (`server/market/reference.ts`). */
export const GET = jsonRoute(
  { permission: "market:read", params: z.object({ market: marketIn, symbol: symbolIn, timespan: z.enum(CHART_TIMESPANS).default("M5") }) },
  ({ params }) => cachedBars(marketData(), params.market, params.symbol, params.timespan),
);
