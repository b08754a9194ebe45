import { z } from "zod";
import { CURRENCIES } from "@/lib/money";
import { jsonRoute } from "@/server/http";
import { getAccountCash } from "@/server/movements/form-data";

/** An account's available (withdrawable) cash in one currency; the master account too, on purpose. */
export const GET = jsonRoute(
  { permission: "movements:write", params: z.object({ account: z.string().trim().min(1).max(64), currency: z.enum(CURRENCIES) }) },
  ({ params }) => getAccountCash(params.account, params.currency),
);
