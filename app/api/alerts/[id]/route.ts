import { z } from "zod";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { getAlert } from "@/server/surveillance/queries/alerts";

/** One alert with the movements and orders involved and its decision. */
export const GET = jsonRoute({ permission: "alerts:read", params: z.object({ id: z.string().regex(/^\d{1,18}$/) }) }, async ({ params }) =>
  getAlert((await getDb()).engine, params.id),
);
