import { confirmationDaysParamsSchema } from "@/lib/schemas/statements";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { executionDays } from "@/server/statements/statement";

/** The account's execution days (newest first): one trade confirmation each. */
export const GET = jsonRoute({ permission: "statements:read", params: confirmationDaysParamsSchema }, async ({ params }) => ({
  days: await executionDays((await getDb()).engine, params.accountId),
}));
