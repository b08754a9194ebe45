import { reportRunParamsSchema } from "@/lib/schemas/reports";
import { getDb } from "@/server/db";
import { fileRoute } from "@/server/http";
import { reportRunFile } from "@/server/reports/run";

/** A finished report run's file, the one its mails carried (audited as reports.download). */
export const GET = fileRoute(
  {
    permission: "reports:manage",
    params: reportRunParamsSchema,
    action: "reports.download",
    target: (p) => `report-run:${p.runId}`,
  },
  async ({ params }) => reportRunFile((await getDb()).engine, params.runId),
);
