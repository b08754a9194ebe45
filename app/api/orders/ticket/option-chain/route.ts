import { z } from "zod";
import { jsonRoute } from "@/server/http";
import { optionChain } from "@/server/orders/ticket-data";

/** The active US option contracts of an underlying, for picking the legs of an option order. */
export const GET = jsonRoute({ permission: "orders:place", params: z.object({ root: z.string().trim().min(1).max(12) }) }, ({ params }) =>
  optionChain(params.root),
);
