import { env } from "@/lib/env";
import { guardRoute } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { streamHealth } from "@/server/events/health";

export const dynamic = "force-dynamic";

/** The stream-health page's data, for its refetches. */
export async function GET() {
  const guard = await guardRoute("stream:read");
  if ("response" in guard) return guard.response;
  const db = await getDb();
  return Response.json(await streamHealth(db.engine, env().EVENTS_SILENCE_MS), { headers: { "cache-control": "no-store" } });
}
