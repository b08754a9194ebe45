import { z } from "zod";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { getMovementDetail } from "@/server/movement-list/detail";

/** One movement from the read model with its timeline (the detail page's live refetches). */
export const GET = jsonRoute(
  { permission: "movements:read", params: z.object({ kind: z.string().max(40), clientRequestId: z.string().max(64) }) },
  async ({ params }) => getMovementDetail((await getDb()).engine, params.kind, params.clientRequestId),
);
