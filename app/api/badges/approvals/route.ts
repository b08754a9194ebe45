import { getDb } from "@/server/db";
import { NAV_BADGE_COUNT } from "@/server/home/badges";
import { jsonRoute } from "@/server/http";

/** The menu's count of approval requests waiting for the caller's decision (none for a role that decides nothing). */
export const GET = jsonRoute({ permission: "approvals:read" }, async ({ staff }) => ({
  count: await NAV_BADGE_COUNT.approvals(await getDb(), staff),
}));
