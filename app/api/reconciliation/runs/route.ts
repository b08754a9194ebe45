import { runsPageParamsSchema } from "@/lib/schemas/runs";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { listRuns } from "@/server/reconciliation/queries";

/**
 * A page of the reconciliation runs with their progress and summaries, newest first (`?before=<run id>`: older runs).
 * The page reads its pages again on each notice.
 */
export const GET = jsonRoute({ permission: "reconciliation:read", params: runsPageParamsSchema }, async ({ params }) =>
  listRuns((await getDb()).engine, { before: params.before }),
);
