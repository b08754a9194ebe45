import { alertListParams } from "@/lib/schemas/surveillance";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { listAlerts } from "@/server/surveillance/queries/alerts";

/** One keyset page of the alert queue (newest first), filtered by rule, status and age. */
export const GET = jsonRoute({ permission: "alerts:read", params: (query) => alertListParams.parse(query) }, async ({ params }) =>
  listAlerts((await getDb()).engine, { ...alertListParams.filters(params), cursor: params.cursor, limit: params.size }),
);
