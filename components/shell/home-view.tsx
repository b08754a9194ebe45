import Link from "next/link";
import type { ReactNode } from "react";
import { AuditTarget } from "@/components/audit/audit-target";
import { Badge, type Tone } from "@/components/ui/badge";
import { Panel } from "@/components/ui/page";
import type { CAPABILITIES } from "@/lib/auth/permissions";
import { auditActionLabel } from "@/lib/audit-actions";
import { formatDateTime } from "@/lib/format";
import type { NavItem } from "@/lib/navigation";
import type { HomeCount, HomeToday } from "@/lib/schemas/home";
import type { StreamState } from "@/lib/stream-health";

const STREAM_TONE: Record<StreamState, Tone> = { connected: "green", silent: "amber", down: "red", "no-consumer": "red" };
const OUTCOME_TONE: Record<string, Tone> = { success: "green", failure: "red", denied: "amber", held: "slate" };
const OUTCOME_LABELS: Record<string, string> = { success: "Done", failure: "Failed", denied: "Refused", held: "Held for approval" };

/** The start of the day for a role: what waits for it (counts that open their page, filtered), then its own latest activity. */
export function HomeView({ today, capabilities, pages }: { today: HomeToday; capabilities: typeof CAPABILITIES; pages: NavItem[] }) {
  return (
    <div className="flex max-w-5xl flex-col gap-4">
      {today.counts.length || today.stream ? (
        <section aria-label="Waiting for you" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="home-counts">
          {today.counts.map((c) => (
            <CountCard key={c.id} count={c} />
          ))}
          {today.stream ? (
            <CardFrame href={today.stream.href} testId="home-stream" label="Event stream">
              <span className="mt-1 block">
                <Badge tone={STREAM_TONE[today.stream.state]}>{today.stream.label}</Badge>
              </span>
              <span className="mt-1 block text-xs text-slate-500">
                {today.stream.since ? `since ${formatDateTime(today.stream.since)}` : "keeps orders and movements current"}
              </span>
            </CardFrame>
          ) : null}
        </section>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        <Panel title="Your recent activity">
          {today.recent.length ? (
            <ul className="divide-y divide-slate-100 text-sm" data-testid="home-recent">
              {today.recent.map((r) => (
                <li key={r.seq} className="flex items-baseline justify-between gap-3 py-1.5">
                  <span className="min-w-0">
                    <span className="text-sm text-slate-800" title={r.action}>
                      {auditActionLabel(r.action)}
                    </span>
                    {r.target ? (
                      <span className="block text-[11px]">
                        <AuditTarget target={r.target} accountNumber={r.targetAccountNumber} name={r.targetName} />
                      </span>
                    ) : null}
                  </span>
                  <span className="flex shrink-0 flex-col items-end gap-0.5">
                    <Badge tone={OUTCOME_TONE[r.outcome] ?? "slate"}>{OUTCOME_LABELS[r.outcome] ?? r.outcome}</Badge>
                    <span className="text-[11px] whitespace-nowrap text-slate-500">{formatDateTime(r.at)}</span>
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600" data-testid="home-recent">
              Nothing yet: what you do in the desk is listed here.
            </p>
          )}
        </Panel>
        <Panel title="What you can do">
          {capabilities.length ? (
            <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700" data-testid="capabilities">
              {capabilities.map((c) => (
                <li key={c.permission}>{c.text}</li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600" data-testid="capabilities">
              Your role has no back-office pages yet beyond this one. The desk grows as workflows land.
            </p>
          )}
          {pages.length ? (
            <p className="mt-3 flex flex-wrap gap-x-3 gap-y-1 text-sm">
              {pages.map((p) => (
                <Link key={p.href} className="text-blue-700 hover:underline" href={p.href} prefetch={false}>
                  {p.label}
                </Link>
              ))}
            </p>
          ) : null}
        </Panel>
      </div>
    </div>
  );
}

function CountCard({ count }: { count: HomeCount }) {
  return (
    <CardFrame href={count.href} testId={`home-count-${count.id}`} label={count.label}>
      <span className="mt-1 block text-2xl font-semibold text-slate-900 tabular-nums">{count.value ?? "—"}</span>
      <span className="block text-xs text-slate-500">{count.value === null ? "could not be read" : count.hint}</span>
    </CardFrame>
  );
}

/** A count's card: the whole card opens its page (filtered) when the role has that page. */
function CardFrame({ href, testId, label, children }: { href?: string; testId: string; label: string; children: ReactNode }) {
  const body = (
    <>
      <span className="block text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</span>
      {children}
    </>
  );
  const cls = "block rounded border border-slate-200 bg-white p-3";
  return href ? (
    <Link href={href} prefetch={false} className={`${cls} hover:border-blue-300 hover:bg-blue-50/40`} data-testid={testId}>
      {body}
    </Link>
  ) : (
    <div className={cls} data-testid={testId}>
      {body}
    </div>
  );
}
