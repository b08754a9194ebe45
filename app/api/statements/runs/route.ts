import { runsPageParamsSchema } from "@/lib/schemas/runs";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { listStatementRuns } from "@/server/statements/bulk";

/**
 * A page of the bulk statement runs with their progress, newest first (`?before=<run id>`: older runs). The bulk page
 * reads its pages again on each `statements` notice.
 */
export const GET = jsonRoute({ permission: "statements:read", params: runsPageParamsSchema }, async ({ params }) =>
  listStatementRuns((await getDb()).engine, { before: params.before }),
);
