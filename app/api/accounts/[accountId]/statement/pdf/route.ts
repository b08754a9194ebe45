import { statementParamsSchema } from "@/lib/schemas/statements";
import { getDb } from "@/server/db";
import { fileRoute } from "@/server/http";
import { statementPdfFile } from "@/server/statements/documents";

/** An account's statement of a period as PDF (audited as statements.download). */
export const GET = fileRoute(
  {
    permission: "statements:read",
    params: statementParamsSchema,
    action: "statements.download",
    target: (p) => `account:${p.accountId}`,
    filter: (p) => ({ document: "statement", format: "pdf", from: p.from, to: p.to }),
  },
  async ({ params }) => statementPdfFile((await getDb()).engine, params.accountId, params),
);
