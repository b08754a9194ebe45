import type { Metadata } from "next";
import { listPage } from "@/app/(desk)/list-page";
import { ActivitiesExplorer } from "@/components/activities/activities-explorer";
import { activityKeys, activityList } from "@/components/activities/query-keys";
import { activityListParams, isLive } from "@/lib/schemas/activity-list";
import { activityPage } from "@/server/activities/explorer";
import { activitiesFreshness } from "@/server/activities/freshness";
import { broker } from "@/server/broker";

export const metadata = { title: "Activities" } satisfies Metadata;

/**
 * The desk's copy's first page and freshness prefetched. The summary (it reads every matching row) and one account's
 * live upstream page are left to the browser, so the rows show at once and an upstream problem shows in the table
 * with a Retry.
 */
export default listPage(metadata, "activities:read", activityListParams, (params, { db: { engine }, filter }) => ({
  description:
    "Account activities across accounts from the desk's copy, which a sweep keeps current within the upstream's rate budget; one account reads live from the upstream.",
  prefetch: [
    // One account reads live from the upstream in the browser; the copy's freshness is of every account.
    !isLive(filter) && {
      queryKey: activityList.key(params),
      queryFn: () => activityPage(broker, engine, filter, { cursor: params.cursor, limit: params.size }),
    },
    !params.account && { queryKey: activityKeys.status(), queryFn: () => activitiesFreshness(engine) },
  ],
  table: <ActivitiesExplorer />,
}));
