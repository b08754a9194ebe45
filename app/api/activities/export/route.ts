import { activityFilterSchema } from "@/lib/schemas/activity-list";
import { ACTIVITY_CSV_COLUMNS, activityCsvRows } from "@/server/activities/explorer";
import { getDb } from "@/server/db";
import { csvRoute } from "@/server/http";

/** Every activity of the filter in the desk's copy as CSV, streamed (formula-like cells neutralised); audited. */
export const GET = csvRoute(
  {
    permission: "activities:read",
    params: (query) => activityFilterSchema.parse(Object.fromEntries(query)),
    action: "activities.export",
    filename: "activities",
    columns: ACTIVITY_CSV_COLUMNS,
  },
  async function* ({ params }) {
    yield* activityCsvRows((await getDb()).engine, params);
  },
);
