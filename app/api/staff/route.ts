import { staffListParams } from "@/lib/schemas/staff-list";
import { listStaffPage } from "@/server/auth/staff-list";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";

/** One keyset page of the staff users in the list's sort. */
export const GET = jsonRoute({ permission: "staff:manage", params: (query) => staffListParams.parse(query) }, async ({ params }) =>
  listStaffPage(await getDb(), { sort: params.sort, cursor: params.cursor, limit: params.size }),
);
