import { activityListParams, type ActivityListParams } from "@/lib/schemas/activity-list";

/**
 * Query keys and URLs of the activities explorer, shared by the server prefetch and the client hooks. Rows and
 * summary live under "activities", which no live notice touches (rows do not move under the reader); the sweep's
 * status lives under "activities-status", which the live "activities" topic refetches.
 */
export const activityKeys = {
  list: (p: ActivityListParams) => ["activities", "list", activityListParams.apiQuery(p)] as const,
  /** The filter alone: paging keeps the summary. */
  summary: (p: ActivityListParams) => ["activities", "summary", activityListParams.filterQuery(p)] as const,
  status: (account?: string) => ["activities-status", account ?? ""] as const,
};

export const activityUrls = {
  list: (p: ActivityListParams) => `/api/activities${activityListParams.apiQuery(p)}`,
  summary: (p: ActivityListParams) => {
    const q = activityListParams.filterQuery(p);
    return `/api/activities${q ? `${q}&` : "?"}part=summary`;
  },
  export: (p: ActivityListParams) => `/api/activities/export${activityListParams.filterQuery(p)}`,
  status: (account?: string) => `/api/activities/status${account ? `?account=${encodeURIComponent(account)}` : ""}`,
};
