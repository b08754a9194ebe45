import { z } from "zod";
import { jsonRoute } from "@/server/http";
import { getHeldPositions } from "@/server/movements/form-data";

/** What an account holds, for the position journal's picker. */
export const GET = jsonRoute(
  { permission: "movements:write", params: z.object({ account: z.string().trim().min(1).max(64) }) },
  ({ params }) => getHeldPositions(params.account),
);
