import { getDb } from "@/server/db";
import { NAV_BADGE_COUNT } from "@/server/home/badges";
import { jsonRoute } from "@/server/http";

/** The menu's count of open surveillance alerts. */
export const GET = jsonRoute({ permission: "alerts:read" }, async ({ staff }) => ({
  count: await NAV_BADGE_COUNT.alerts(await getDb(), staff),
}));
