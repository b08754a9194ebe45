import { confirmationParamsSchema } from "@/lib/schemas/statements";
import { getDb } from "@/server/db";
import { csvRoute } from "@/server/http";
import { STATEMENT_CSV_COLUMNS } from "@/server/statements/csv";
import { confirmationCsv } from "@/server/statements/documents";

/** The trade confirmation of one execution day as CSV (audited as statements.export). */
export const GET = csvRoute(
  {
    permission: "statements:read",
    params: confirmationParamsSchema,
    action: "statements.export",
    filename: "confirmation",
    columns: STATEMENT_CSV_COLUMNS,
    filter: (p) => ({ document: "confirmation", account: p.accountId, date: p.date }),
  },
  async function* ({ params }) {
    yield* confirmationCsv((await getDb()).engine, params.accountId, params.date);
  },
);
