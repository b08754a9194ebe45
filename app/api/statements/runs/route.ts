import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { listStatementRuns } from "@/server/statements/bulk";

/** The latest bulk statement runs with their progress (the bulk page reads it again on each `statements` notice). */
export const GET = jsonRoute({ permission: "statements:read" }, async () => ({ runs: await listStatementRuns((await getDb()).engine) }));
