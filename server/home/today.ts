import "server-only";
import { can, type Access, type Permission } from "@/lib/auth/permissions";
import { STREAM_STATE_LABELS } from "@/lib/stream-health";
import type { HomeStream, HomeToday } from "@/lib/schemas/home";
import type { Queryable } from "@/server/db/engine";
import { accountNumbers } from "@/server/accounts/directory";
import { targetAccount } from "@/server/audit/list-page";
import { countWaitingFor } from "@/server/approvals/queries/queue";
import { streamStatus } from "@/server/books/health";
import { countOpenAlerts, countOpenMovements, countOpenOrders, countPendingApprovals, selectRecentEntries } from "./queries";

/**
 * The start of the day: what waits for a role, as counts that link to their page with the filter applied. Each
 * count is one entry of `HOME_COUNTS` (a permission, a label, the page it opens and one indexed query); a capability
 * that lands (pending approvals, alerts) adds its entry here and nothing else changes.
 */
export interface HomeCountSpec {
  id: string;
  label: string;
  permission: Permission;
  /** Shown instead to a role that has this permission too (a narrower count of the same thing). */
  unless?: Permission;
  /** The page with the filter that shows what is counted. */
  href: string;
  /** What a non-zero count means, in a few words. */
  hint: string;
  count(db: Queryable, staff: { id: string } & Access): Promise<number>;
}

export const HOME_COUNTS: HomeCountSpec[] = [
  {
    id: "open-orders",
    label: "Open orders",
    permission: "orders:read",
    href: "/orders?view=open",
    hint: "pending, submitted or partly filled",
    count: countOpenOrders,
  },
  {
    id: "open-movements",
    label: "Movements not final",
    permission: "movements:read",
    href: "/movements?view=not_final",
    hint: "funding, exchanges and journals still under way",
    count: countOpenMovements,
  },
  {
    // The menu's badge counts the same: what this person may still decide (not their own, not decided by them).
    id: "approvals-for-you",
    label: "Waiting for your decision",
    permission: "approvals:decide",
    href: "/approvals?status=pending",
    hint: "held requests others made that you may approve or reject",
    count: countWaitingFor,
  },
  {
    id: "pending-approvals",
    label: "Approvals waiting",
    permission: "approvals:read",
    unless: "approvals:decide",
    href: "/approvals?status=pending",
    hint: "held requests not yet decided or expired",
    count: countPendingApprovals,
  },
  {
    id: "open-alerts",
    label: "Open alerts",
    permission: "alerts:read",
    href: "/alerts?status=open",
    hint: "surveillance hits not yet cleared or escalated",
    count: countOpenAlerts,
  },
];

/** Everything the home page shows for this staff member: a few indexed reads, no upstream call. */
export async function homeToday(
  db: Queryable,
  staff: { id: string } & Access,
  opts: { silenceMs: number; pages: readonly string[] },
): Promise<HomeToday> {
  const linked = (href: string) => (opts.pages.includes(href.split("?")[0]) ? href : undefined);
  const counts = await Promise.all(
    HOME_COUNTS.filter((c) => can(staff, c.permission) && !(c.unless && can(staff, c.unless))).map(async (c) => ({
      id: c.id,
      label: c.label,
      hint: c.hint,
      // One count that cannot be read does not take the page down: it shows as unknown.
      value: await c.count(db, staff).catch(() => null),
      href: linked(c.href),
    })),
  );
  let stream: HomeStream | undefined;
  if (can(staff, "stream:read")) {
    const s = await streamStatus(db, opts.silenceMs).catch(() => undefined);
    if (s) stream = { state: s.state, label: STREAM_STATE_LABELS[s.state], since: s.since, href: linked("/admin/stream") };
  }
  const rows = await selectRecentEntries(db, staff.id, 8);
  const numbers = await accountNumbers(
    db,
    rows.map((r) => targetAccount(r.target) ?? ""),
  );
  // Oneself (a sign-in's target) is not worth a line on one's own page.
  const self = (target: string | null) => target === `staff:${staff.id}`;
  const recent = rows.map((r) => ({
    seq: Number(r.seq),
    at: new Date(r.at).toISOString(),
    action: r.action,
    target: self(r.target) ? null : r.target,
    targetAccountNumber: numbers.get(targetAccount(r.target) ?? ""),
    targetName: self(r.target) ? undefined : (r.target_name ?? undefined),
    outcome: r.outcome,
  }));
  return { counts, stream, recent };
}
