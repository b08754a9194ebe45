import { z } from "zod";
import { jsonRoute } from "@/server/http";
import { searchMovementAccounts } from "@/server/movements/form-data";

/** The movement forms' account picker: the master account (scope "all") and virtual accounts, one upstream call per search. */
export const GET = jsonRoute(
  {
    permission: "movements:write",
    params: z.object({ q: z.string().trim().max(64).default(""), scope: z.enum(["all", "virtual"]).default("all") }),
  },
  ({ params }) => searchMovementAccounts(params.q, params.scope),
);
