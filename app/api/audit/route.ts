import { auditListParams } from "@/lib/schemas/audit";
import { auditListPage } from "@/server/audit/list-page";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";

/** One keyset page of the audit trail (the table's reads; same params as the page URL). */
export const GET = jsonRoute({ permission: "audit:read", params: (query) => auditListParams.parse(query) }, async ({ params }) =>
  auditListPage((await getDb()).engine, params),
);
