import Link from "next/link";
import { DecisionNoticesButton } from "@/components/approvals/decision-notices";
import { QueryProvider } from "@/components/data-table/query-provider";
import { LiveIndicator, LiveProvider } from "@/components/live/live-provider";
import { ReadAt } from "@/components/live/read-at";
import { StreamBanner } from "@/components/live/stream-banner";
import { Sidebar } from "@/components/shell/sidebar";
import { DeskSearch } from "@/components/shell/desk-search";
import { can } from "@/lib/auth/permissions";
import { env } from "@/lib/env";
import { navFor } from "@/lib/navigation";
import type { Staff } from "@/server/auth/guard";
import { signOutAction } from "@/server/actions/session";
import { decisionNotices } from "@/server/approvals/queue";
import { getDb } from "@/server/db";
import { navBadgeCounts } from "@/server/home/badges";
import { requestReadAt } from "@/server/notices/read-at";

/**
 * The signed-in desk: sidebar (with its counts), header (with the maker's notice of decided requests), the live
 * channel (change notices, stream banner) and TanStack Query. The counts and the notice are read here for the first
 * render (a few indexed statements); the browser keeps them live.
 */
export async function DeskShell({ staff, children }: { staff: Staff; children: React.ReactNode }) {
  const db = await getDb();
  const items = navFor(staff);
  const readAt = requestReadAt();
  const [counts, notices] = await Promise.all([
    navBadgeCounts(db, staff, items),
    can(staff, "approvals:read") ? decisionNotices(db, staff.id).catch(() => undefined) : undefined,
  ]);
  return (
    <QueryProvider>
      <LiveProvider>
        <div className="flex min-h-screen">
          <aside className="w-52 shrink-0 bg-slate-900">
            <Link href="/" className="block px-4 py-3 text-base font-semibold tracking-tight text-white">
              Brokerdesk
            </Link>
            <ReadAt at={readAt}>
              <Sidebar items={items} counts={counts} />
            </ReadAt>
          </aside>
          <div className="flex min-w-0 flex-1 flex-col">
            <header className="flex h-11 items-center justify-end gap-3 border-b border-slate-200 bg-white px-4 text-sm">
              {can(staff, "market:read") ? <DeskSearch /> : null}
              {can(staff, "approvals:read") ? (
                <ReadAt at={readAt}>
                  <DecisionNoticesButton initial={notices} />
                </ReadAt>
              ) : null}
              <LiveIndicator />
              <span className="text-slate-700" data-testid="current-user">
                {staff.name} <span className="text-slate-400">·</span> {staff.email}
              </span>
              <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700" data-testid="current-role">
                {staff.roleLabel}
              </span>
              <form action={signOutAction}>
                <button type="submit" className="rounded px-2 py-1 text-slate-600 hover:bg-slate-100">
                  Sign out
                </button>
              </form>
            </header>
            <StreamBanner alertAfterMs={env().EVENTS_ALERT_AFTER_MS} canOpenHealth={can(staff, "stream:read")} />
            <main className="min-w-0 flex-1 p-5">{children}</main>
          </div>
        </div>
      </LiveProvider>
    </QueryProvider>
  );
}
