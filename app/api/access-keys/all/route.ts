import { accessKeyListParams } from "@/lib/schemas/access-key-list";
import { listAccessKeyPage } from "@/server/cli-auth/keys";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";

/** One page of every staff member's access keys of the command line, newest first, with their owners (administrators). */
export const GET = jsonRoute({ permission: "cli:manage", params: (query) => accessKeyListParams.parse(query) }, async ({ staff, params }) =>
  listAccessKeyPage(await getDb(), staff, { view: "all", cursor: params.cursor, limit: params.size }),
);
