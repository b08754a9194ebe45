import "server-only";
import type { Staff } from "@/server/auth/guard";
import type { AppDb } from "@/server/db";
import type { NavBadgeId, NavItem } from "@/lib/navigation";
import { approvalsWaitingFor } from "@/server/approvals/queue";
import { countOpenAlerts } from "./queries";

/**
 * The menu's counts, each one indexed statement on the desk's own tables (no upstream call): the approvals waiting
 * for this person's decision, the open alerts. Read by `/api/badges/{id}` and, for the first render, by the shell.
 */
export const NAV_BADGE_COUNT: Record<NavBadgeId, (db: AppDb, staff: Staff) => Promise<number>> = {
  approvals: (db, staff) => approvalsWaitingFor(db, staff),
  alerts: (db) => countOpenAlerts(db.engine),
};

/** The first counts of the badges in this person's menu; one that cannot be read is left to the browser. */
export async function navBadgeCounts(db: AppDb, staff: Staff, items: NavItem[]): Promise<Partial<Record<NavBadgeId, number>>> {
  const ids = items.flatMap((i) => (i.badge ? [i.badge.id] : []));
  const counts = await Promise.all(ids.map((id) => NAV_BADGE_COUNT[id](db, staff).catch(() => undefined)));
  return Object.fromEntries(ids.map((id, i) => [id, counts[i]]).filter(([, n]) => n !== undefined));
}
