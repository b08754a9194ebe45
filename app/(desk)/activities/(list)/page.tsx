import type { Metadata } from "next";
import { ActivitiesExplorer } from "@/components/activities/activities-explorer";
import { activityKeys } from "@/components/activities/query-keys";
import { ListPage } from "@/components/data-table/list-page";
import { activityListParams, isLive } from "@/lib/schemas/activity-list";
import { activityPage } from "@/server/activities/explorer";
import { activitiesFreshness } from "@/server/activities/freshness";
import { requirePermission } from "@/server/auth/guard";
import { broker } from "@/server/broker";
import { getDb } from "@/server/db";

export const metadata: Metadata = { title: "Activities" };

/**
 * Thin page: permission, URL state, then the desk's copy's first page and freshness prefetched. The summary (it reads
 * every matching row) and one account's live upstream page are left to the browser, so the rows show at once and an
 * upstream problem shows in the table with a Retry.
 */
export default async function ActivitiesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission("activities:read");
  const params = activityListParams.parse(await searchParams);
  const engine = (await getDb()).engine;
  const filter = activityListParams.filters(params);
  return (
    <ListPage
      title="Activities"
      description="Account activities across accounts from the desk's copy, which a sweep keeps current within the upstream's rate budget; one account reads live from the upstream."
      prefetch={(client) =>
        Promise.all([
          isLive(filter)
            ? undefined
            : client.prefetchQuery({
                queryKey: activityKeys.list(params),
                queryFn: () => activityPage(broker, engine, filter, { cursor: params.cursor, limit: params.size }),
              }),
          params.account
            ? undefined
            : client.prefetchQuery({ queryKey: activityKeys.status(), queryFn: () => activitiesFreshness(engine) }),
        ])
      }
    >
      <ActivitiesExplorer />
    </ListPage>
  );
}
