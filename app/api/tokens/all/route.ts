import { tokenListParams } from "@/lib/schemas/token-list";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { listTokenPage } from "@/server/tokens/tokens";

/** One page of every staff member's access tokens, newest first, with their owners (administrators). */
export const GET = jsonRoute({ permission: "tokens:manage", params: (query) => tokenListParams.parse(query) }, async ({ staff, params }) =>
  listTokenPage(await getDb(), staff, { view: "all", cursor: params.cursor, limit: params.size }),
);
