import { auditFilterSchema } from "@/lib/schemas/audit";
import { AUDIT_CSV_COLUMNS, auditCsvRows } from "@/server/audit/export";
import { getDb } from "@/server/db";
import { csvRoute } from "@/server/http";

/** The audit trail as CSV, every entry of the filter (not the page's position), streamed; the export is audited too. */
export const GET = csvRoute(
  {
    permission: "audit:read",
    params: (query) => auditFilterSchema.parse(Object.fromEntries(query)),
    action: "audit.export",
    filename: "audit-trail",
    columns: AUDIT_CSV_COLUMNS,
  },
  async function* ({ params }) {
    yield* auditCsvRows((await getDb()).engine, params);
  },
);
