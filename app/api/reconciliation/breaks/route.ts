import { breakListParams } from "@/lib/schemas/reconciliation";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { listBreaks } from "@/server/reconciliation/queries";

/** One keyset page of breaks (newest first), filtered by status, kind and assignee. */
export const GET = jsonRoute({ permission: "reconciliation:read", params: (query) => breakListParams.parse(query) }, async ({ params }) =>
  listBreaks((await getDb()).engine, { ...breakListParams.filters(params), cursor: params.cursor, limit: params.size }),
);
