import { accessKeyListParams } from "@/lib/schemas/access-key-list";
import { listAccessKeyPage } from "@/server/cli-auth/keys";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";

/** One page of the caller's own access keys of the command line, newest first. */
export const GET = jsonRoute({ permission: "cli:own", params: (query) => accessKeyListParams.parse(query) }, async ({ staff, params }) =>
  listAccessKeyPage(await getDb(), staff, { view: "mine", cursor: params.cursor, limit: params.size }),
);
