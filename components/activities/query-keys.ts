import { listPart, listResource } from "@/components/data-table/list-resource";
import { activityListParams, type ActivityListParams } from "@/lib/schemas/activity-list";

/**
 * Query keys and URLs of the activities explorer, shared by the server prefetch and the client hooks. Rows and
 * summary live under "activities", which no live notice touches (rows do not move under the reader); the sweep's
 * status lives under "activities-status", which the live "activities" topic refetches.
 */
export const activityList = listResource<ActivityListParams>("activities", "/api/activities", activityListParams);
/** The filter's totals and chart (paging keeps them). */
export const activityListSummary = listPart<ActivityListParams>("activities", "summary", "/api/activities", activityListParams);

export const activityKeys = {
  status: (account?: string) => ["activities-status", account ?? ""] as const,
};

export const activityUrls = {
  export: (p: ActivityListParams) => `/api/activities/export${activityListParams.filterQuery(p)}`,
  status: (account?: string) => `/api/activities/status${account ? `?account=${encodeURIComponent(account)}` : ""}`,
};
