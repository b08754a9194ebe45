import { activityFilterSchema } from "@/lib/schemas/activity-list";
import { resolveAccount } from "@/server/accounts/directory";
import { activitiesFreshness } from "@/server/activities/freshness";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";

/** How fresh the desk's copy is ("as of"), for every account or the filter's one, and the sweep's progress. */
export const GET = jsonRoute(
  { permission: "activities:read", params: (query) => activityFilterSchema.pick({ account: true }).parse(Object.fromEntries(query)) },
  async ({ params }) => {
    const { engine } = await getDb();
    return activitiesFreshness(engine, params.account ? (await resolveAccount(engine, params.account)).accountId : undefined);
  },
);
