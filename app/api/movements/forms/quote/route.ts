import { z } from "zod";
import { CURRENCIES } from "@/lib/money";
import { jsonRoute } from "@/server/http";
import { getFxQuote } from "@/server/movements/form-data";

/** The live FX quote: rate, effective and expiry times. */
export const GET = jsonRoute(
  {
    permission: "movements:write",
    params: z
      .object({ from: z.enum(CURRENCIES), to: z.enum(CURRENCIES) })
      .refine((p) => p.from !== p.to, { message: "Choose two different currencies", path: ["to"] }),
  },
  ({ params }) => getFxQuote(params.from, params.to),
);
