import { deskSearchIn } from "@/lib/schemas/search";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { deskSearch } from "@/server/search/desk-search";

/** The header's search box: accounts, orders and instruments, each part as the viewer's role may read it. */
export const GET = jsonRoute({ permission: "market:read", params: deskSearchIn }, async ({ params, staff }) =>
  deskSearch((await getDb()).engine, staff, params.q),
);
