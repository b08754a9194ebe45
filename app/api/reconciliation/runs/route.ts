import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { listRuns } from "@/server/reconciliation/queries";

/** The latest reconciliation runs with their progress and summaries (the page reads it again on each notice). */
export const GET = jsonRoute({ permission: "reconciliation:read" }, async () => ({ runs: await listRuns((await getDb()).engine) }));
