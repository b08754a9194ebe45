import { z } from "zod";
import { broker } from "@/server/broker";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { refreshMovementFromUpstream } from "@/server/movement-list/detail";

/** "Refresh from upstream" on the movement page: one live detail call, on click (never on a list). */
export const GET = jsonRoute(
  { permission: "movements:read", params: z.object({ kind: z.string().max(40), clientRequestId: z.string().max(64) }) },
  async ({ params }) => refreshMovementFromUpstream((await getDb()).engine, broker(), params.kind, params.clientRequestId),
);
