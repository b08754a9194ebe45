import { activityListParams } from "@/lib/schemas/activity-list";
import { activityPage, activitySummary } from "@/server/activities/explorer";
import { broker } from "@/server/broker";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";

/**
 * The activities explorer: one page (live from the upstream for one account, else the desk's copy), or with
 * `part=summary` the filter's totals by currency and the chart's points from the desk's copy (asked for apart, so
 * paging does not sum every matching row again).
 */
export const GET = jsonRoute(
  { permission: "activities:read", params: (query) => ({ ...activityListParams.parse(query), summary: query.get("part") === "summary" }) },
  async ({ params, request }) => {
    const { engine } = await getDb();
    const filter = activityListParams.filters(params);
    return params.summary
      ? activitySummary(engine, filter)
      : activityPage(broker, engine, filter, { cursor: params.cursor, limit: params.size }, request.signal);
  },
);
