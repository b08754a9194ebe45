import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { listReportRuns } from "@/server/reports/run";

/** The latest scheduled report runs with their mails' progress (Admin → Reports reads it again on each `reports` notice). */
export const GET = jsonRoute({ permission: "reports:manage" }, async () => ({ runs: await listReportRuns((await getDb()).engine) }));
