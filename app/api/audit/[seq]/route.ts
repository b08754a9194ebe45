import { z } from "zod";
import { NotFoundError } from "@/lib/errors";
import { getAuditEntry, relatedAuditEntries } from "@/server/audit/list";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";

/** One audit entry with every column, and its neighbours (same upstream request, same target), as JSON. */
export const GET = jsonRoute(
  { permission: "audit:read", params: z.object({ seq: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) }) },
  async ({ params }) => {
    const { engine } = await getDb();
    const entry = await getAuditEntry(engine, params.seq);
    if (!entry) throw new NotFoundError("This audit entry does not exist.");
    return { entry, related: await relatedAuditEntries(engine, entry) };
  },
);
