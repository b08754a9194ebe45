import { env } from "@/lib/env";
import { currentStaff } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { liveStream } from "@/server/events/live";

export const dynamic = "force-dynamic";

/** Server-sent change notices for signed-in staff, each role receiving only what it may read. */
export async function GET(request: Request) {
  const staff = await currentStaff();
  if (!staff) return Response.json({ error: "UNAUTHENTICATED", message: "Sign in first." }, { status: 401 });
  const db = await getDb();
  return liveStream(db.engine, staff.role, env().EVENTS_SILENCE_MS, request.signal);
}
