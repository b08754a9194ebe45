import { can } from "@/lib/auth/permissions";
import { accessKeyListParams } from "@/lib/schemas/access-key-list";
import { listAccessKeyPage } from "@/server/cli-auth/keys";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { errorJson } from "@/server/http/errors";

/** One page of command-line access keys, newest first: the caller's own, or (`view=all`, cli:manage) every staff member's. */
export const GET = jsonRoute({ permission: "cli:own", params: (query) => accessKeyListParams.parse(query) }, async ({ staff, params }) => {
  if (params.view === "all" && !can(staff.role, "cli:manage")) {
    return errorJson(403, { error: "FORBIDDEN", message: "You do not have permission to do this." });
  }
  return listAccessKeyPage(await getDb(), staff, { view: params.view, cursor: params.cursor, limit: params.size });
});
