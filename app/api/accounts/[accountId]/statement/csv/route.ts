import { statementParamsSchema } from "@/lib/schemas/statements";
import { getDb } from "@/server/db";
import { csvRoute } from "@/server/http";
import { STATEMENT_CSV_COLUMNS } from "@/server/statements/csv";
import { statementCsv } from "@/server/statements/documents";

/** An account's statement of a period as CSV (audited as statements.export). */
export const GET = csvRoute(
  {
    permission: "statements:read",
    params: statementParamsSchema,
    action: "statements.export",
    filename: "statement",
    columns: STATEMENT_CSV_COLUMNS,
    filter: (p) => ({ document: "statement", account: p.accountId, from: p.from, to: p.to }),
  },
  async function* ({ params }) {
    yield* statementCsv((await getDb()).engine, params.accountId, params);
  },
);
