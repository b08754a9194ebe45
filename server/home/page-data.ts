import "server-only";
import { can, CAPABILITIES } from "@/lib/auth/permissions";
import { env } from "@/lib/env";
import { navFor } from "@/lib/navigation";
import type { Staff } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { homeToday } from "./today";

/** What the home page shows a staff member: the day's counts and stream, what their role may do, and its pages. */
export async function homePage(staff: Staff) {
  const capabilities = CAPABILITIES.filter((c) => can(staff, c.permission));
  const pages = navFor(staff).filter((item) => item.href !== "/");
  const db = await getDb();
  const today = await homeToday(db.engine, staff, { silenceMs: env().EVENTS_SILENCE_MS, pages: pages.map((p) => p.href) });
  return { today, capabilities, pages };
}
