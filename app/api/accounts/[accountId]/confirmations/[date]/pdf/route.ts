import { confirmationParamsSchema } from "@/lib/schemas/statements";
import { getDb } from "@/server/db";
import { fileRoute } from "@/server/http";
import { confirmationPdfFile } from "@/server/statements/documents";

/** The trade confirmation of one execution day as PDF (audited as statements.download). */
export const GET = fileRoute(
  {
    permission: "statements:read",
    params: confirmationParamsSchema,
    action: "statements.download",
    target: (p) => `account:${p.accountId}`,
    filter: (p) => ({ document: "confirmation", format: "pdf", date: p.date }),
  },
  async ({ params }) => confirmationPdfFile((await getDb()).engine, params.accountId, params.date),
);
