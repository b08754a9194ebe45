import { getDb, pingDb } from "@/server/db";

export const dynamic = "force-dynamic";

/** Liveness and database reachability, for load balancers and the start script. */
export async function GET() {
  try {
    const db = await getDb();
    await pingDb(db);
    return Response.json({ status: "ok", database: db.engine.kind });
  } catch {
    return Response.json({ status: "error" }, { status: 503 });
  }
}
