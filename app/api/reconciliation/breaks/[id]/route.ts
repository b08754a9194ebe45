import { z } from "zod";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { getBreak } from "@/server/reconciliation/breaks";

/** One break with its evidence and comments. */
export const GET = jsonRoute(
  { permission: "reconciliation:read", params: z.object({ id: z.string().regex(/^\d{1,18}$/) }) },
  async ({ params }) => getBreak((await getDb()).engine, params.id),
);
