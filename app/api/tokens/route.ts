import { tokenListParams } from "@/lib/schemas/token-list";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { listTokenPage } from "@/server/tokens/tokens";

/** One page of the caller's own access tokens, newest first. */
export const GET = jsonRoute({ permission: "tokens:own", params: (query) => tokenListParams.parse(query) }, async ({ staff, params }) =>
  listTokenPage(await getDb(), staff, { view: "mine", cursor: params.cursor, limit: params.size }),
);
