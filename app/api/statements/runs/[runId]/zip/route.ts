import { statementRunParamsSchema } from "@/lib/schemas/statements";
import { getDb } from "@/server/db";
import { fileRoute } from "@/server/http";
import { statementRunZip } from "@/server/statements/bulk";

/** A finished bulk run's zip (audited as statements.download). */
export const GET = fileRoute(
  {
    permission: "statements:read",
    params: statementRunParamsSchema,
    action: "statements.download",
    target: (p) => `statement-run:${p.runId}`,
    filter: (p) => ({ document: "bulk", runId: p.runId }),
  },
  async ({ params }) => statementRunZip((await getDb()).engine, params.runId),
);
