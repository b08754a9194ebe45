import { can } from "@/lib/auth/permissions";
import { tokenListParams } from "@/lib/schemas/token-list";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { errorJson } from "@/server/http/errors";
import { listTokenPage } from "@/server/tokens/tokens";

/** One page of access tokens, newest first: the caller's own, or (`view=all`, tokens:manage) every staff member's. */
export const GET = jsonRoute({ permission: "tokens:own", params: (query) => tokenListParams.parse(query) }, async ({ staff, params }) => {
  if (params.view === "all" && !can(staff.role, "tokens:manage")) {
    return errorJson(403, { error: "FORBIDDEN", message: "You do not have permission to do this." });
  }
  return listTokenPage(await getDb(), staff, { view: params.view, cursor: params.cursor, limit: params.size });
});
