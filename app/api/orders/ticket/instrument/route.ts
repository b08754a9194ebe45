import { z } from "zod";
import { NotFoundError } from "@/lib/errors";
import { jsonRoute } from "@/server/http";
import { lookupInstrument } from "@/server/orders/ticket-data";
import { TICKET_MARKETS } from "@/lib/schemas/order-ticket";

/** One instrument by exact symbol (the upstream has no name search), with its locate for a US short sell. */
export const GET = jsonRoute(
  { permission: "orders:place", params: z.object({ market: z.enum(TICKET_MARKETS), symbol: z.string().trim().min(1).max(24) }) },
  async ({ params }) => {
    const found = await lookupInstrument(params.market, params.symbol);
    if (!found) throw new NotFoundError(`No ${params.market} stock has the symbol ${params.symbol.toUpperCase()}.`);
    return found;
  },
);
