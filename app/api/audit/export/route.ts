import type { NextRequest } from "next/server";
import { auditFilterSchema } from "@/lib/schemas/audit";
import { auditCsvStream } from "@/server/audit/export";
import { appendAudit } from "@/server/audit/trail";
import { guardRoute } from "@/server/auth/guard";
import { metaFromHeaders } from "@/server/auth/request-meta";
import { getDb } from "@/server/db";

/** The audit trail as CSV, every entry of the filter, streamed. The export is itself an audit entry. */
export async function GET(request: NextRequest) {
  const guard = await guardRoute("audit:read");
  if ("response" in guard) return guard.response;
  const filter = auditFilterSchema.parse(Object.fromEntries(request.nextUrl.searchParams));
  const db = await getDb();
  const { staff } = guard;
  await appendAudit(db, {
    actorId: staff.id,
    actorEmail: staff.email,
    actorRole: staff.role,
    action: "audit.export",
    input: filter,
    outcome: "success",
    ...metaFromHeaders(request.headers),
  });
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, "");
  return new Response(auditCsvStream(db.engine, filter), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="audit-trail-${stamp}.csv"`,
      "cache-control": "no-store",
    },
  });
}
