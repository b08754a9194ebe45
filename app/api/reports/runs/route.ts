import { runsPageParamsSchema } from "@/lib/schemas/runs";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { listReportRuns } from "@/server/reports/run";

/**
 * A page of the scheduled reports' history with their mails' progress, newest first (`?before=<run id>`: older
 * runs). Admin → Reports reads its pages again on each `reports` notice.
 */
export const GET = jsonRoute({ permission: "reports:manage", params: runsPageParamsSchema }, async ({ params }) =>
  listReportRuns((await getDb()).engine, { before: params.before }),
);
