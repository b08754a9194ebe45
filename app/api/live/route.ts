import { can } from "@/lib/auth/permissions";
import { env } from "@/lib/env";
import { parseMarketTopics } from "@/lib/schemas/market";
import { ENROL_FIRST, mustEnrolFirst } from "@/server/auth/enrolment";
import { currentStaff } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { liveStream } from "@/server/events/live";
import { marketHub } from "@/server/market";

export const dynamic = "force-dynamic";

/**
 * Server-sent change notices for signed-in staff, each role receiving only what it may read; with `?market=`
 * (topics such as `snapshot:US:AAPL`), also that market data from the shared pollers (`server/market/hub.ts`).
 */
export async function GET(request: Request) {
  const staff = await currentStaff();
  if (!staff) return Response.json({ error: "UNAUTHENTICATED", message: "Sign in first." }, { status: 401 });
  // A role that requires two-factor sign-in: nothing live until the member has enrolled (server/auth/enrolment.ts).
  if (await mustEnrolFirst(staff)) return Response.json({ error: ENROL_FIRST.code, message: ENROL_FIRST.message }, { status: 403 });
  const db = await getDb();
  const topics = can(staff, "market:read") ? parseMarketTopics(new URL(request.url).searchParams.get("market")) : [];
  return liveStream(db.engine, staff, env().EVENTS_SILENCE_MS, request.signal, (send) => {
    const offs = topics.map((t) => marketHub().subscribe(t.kind, t.market, t.symbol, (e) => send("market", e)));
    return () => offs.forEach((off) => off());
  });
}
