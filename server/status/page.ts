import "server-only";
import {
  STATUS_MODULE_LABELS,
  STATUS_MODULES,
  type IncidentView,
  type ModuleState,
  type StatusModule,
  type StatusPageData,
} from "@/lib/status";
import { env } from "@/lib/env";
import type { Queryable } from "@/server/db/engine";
import { selectDaily, selectModules, selectRecentIncidents, type IncidentRow } from "./queries";

/** Days of uptime bars and incidents a module shows on the status page. */
export const UPTIME_DAYS = 90;
const INCIDENTS_PER_MODULE = 5;

const reason = (evidence: Record<string, unknown>) => (typeof evidence.reason === "string" ? evidence.reason : "");

function incidentView(r: IncidentRow): IncidentView {
  const opened = reason(r.evidence);
  const resolved = typeof r.evidence.resolved === "string" ? `; back: ${r.evidence.resolved}` : "";
  return {
    id: r.id,
    state: r.state,
    startedAt: new Date(r.started_at).toISOString(),
    escalatedAt: r.escalated_at ? new Date(r.escalated_at).toISOString() : undefined,
    endedAt: r.ended_at ? new Date(r.ended_at).toISOString() : undefined,
    evidence: `${opened}${resolved}`,
  };
}

/** The UTC days from `today` back, oldest first. */
function lastDays(today: string, n: number): string[] {
  const t = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: n }, (_, i) => new Date(t - (n - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

/** A share as a percentage with one decimal; null without evidence. */
const share = (operational: number, known: number) => (known > 0 ? Math.round((operational / known) * 1000) / 10 : null);

/** The whole period's share, each day weighed by its evaluations, and the time those evaluations cover. */
function overall(rows: ({ operational: number; known: number } | undefined)[], evalMs: number) {
  const operational = rows.reduce((a, d) => a + (d?.operational ?? 0), 0);
  const known = rows.reduce((a, d) => a + (d?.known ?? 0), 0);
  return { percent: known > 0 ? Math.round((operational / known) * 10_000) / 100 : null, observedMs: known * evalMs };
}

/**
 * What the status page shows: every module's state, since when and its 90 daily bars; with `detailed` (a signed-in
 * staff member) also the evidence and the latest incidents. Stored rows only: no upstream call.
 */
export async function statusPageData(db: Queryable, detailed: boolean, evalMs = env().STATUS_EVAL_MS): Promise<StatusPageData> {
  const modules = new Map((await selectModules(db)).map((r) => [r.module, r]));
  const { today, rows: daily } = await selectDaily(db, UPTIME_DAYS);
  const days = lastDays(today, UPTIME_DAYS);
  const byDay = new Map(daily.map((d) => [`${d.module}|${d.day}`, d]));
  const incidents = detailed ? await selectRecentIncidents(db, INCIDENTS_PER_MODULE) : [];
  let evaluatedAt: Date | undefined;
  const views = STATUS_MODULES.map((module: StatusModule) => {
    const m = modules.get(module);
    if (m?.evaluated_at && (!evaluatedAt || m.evaluated_at > evaluatedAt)) evaluatedAt = m.evaluated_at;
    return {
      module,
      label: STATUS_MODULE_LABELS[module],
      state: (m?.state as ModuleState) ?? "unknown",
      since: m ? new Date(m.since).toISOString() : undefined,
      uptime: days.map((day) => {
        const d = byDay.get(`${module}|${day}`);
        return { day, percent: d ? share(d.operational, d.known) : null };
      }),
      overall: overall(
        days.map((day) => byDay.get(`${module}|${day}`)),
        evalMs,
      ),
      ...(detailed
        ? { evidence: m ? reason(m.evidence) : undefined, incidents: incidents.filter((i) => i.module === module).map(incidentView) }
        : {}),
    };
  });
  return {
    checkedAt: new Date().toISOString(),
    evaluatedAt: evaluatedAt ? new Date(evaluatedAt).toISOString() : undefined,
    modules: views,
    detailed,
  };
}
